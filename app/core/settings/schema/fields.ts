import { z } from "zod";
import { SETTINGS_LIMITS as L } from "../limits";

/**
 * The kinds of field the settings form posts (every value a string), with their messages. The
 * sections (./otp.ts, ./checkout.ts, ...) are built from these.
 */

export const text = (message: string) => z.string({ required_error: message, invalid_type_error: message });

/** A checkbox, posted by the page as "true" or "false" (a hidden input), so a missing field is an error, not "off". */
export const onOff = text("Choose on or off.")
  .refine((v) => v === "true" || v === "false", "Choose on or off.")
  .transform((v) => v === "true");

export function wholeNumber(min: number, max: number) {
  const message = `Enter a whole number from ${min.toLocaleString("en")} to ${max.toLocaleString("en")}.`;
  return text(message)
    .trim()
    .refine((v) => /^\d{1,9}$/.test(v), message)
    .transform(Number)
    .refine((n) => n >= min && n <= max, message);
}

/** Line breaks, tabs and other control characters: never part of a code or a tag. */
const hasControlCharacter = (v: string) => [...v].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127);

/** Empty means "none" (null in the database). */
export function optionalText(max: number, what: string) {
  return text(`Enter ${what} or leave it empty.`)
    .trim()
    .refine((v) => v.length <= max, `Keep ${what} to ${max} characters.`)
    .refine((v) => !hasControlCharacter(v), `${what[0].toUpperCase()}${what.slice(1)} cannot contain line breaks or control characters.`)
    .transform((v) => (v === "" ? null : v));
}

export function tag(max: number, what: string) {
  return text(`Enter ${what}.`)
    .trim()
    .refine((v) => v.length > 0, `Enter ${what}.`)
    .refine((v) => !v.includes(","), "Shopify separates tags with commas, so a tag cannot contain one.")
    .refine((v) => v.length <= max, `Keep ${what} to ${max} characters (Shopify's limit for a tag${max < L.tagMaxLength ? ", with the mode added" : ""}).`)
    .refine((v) => !hasControlCharacter(v), "A tag cannot contain line breaks or control characters.");
}

export const decimal = text("Enter an amount.")
  .trim()
  // A merchant may type a decimal comma ("12,50").
  .transform((v) => v.replace(/^(\d+),(\d+)$/, "$1.$2"));
