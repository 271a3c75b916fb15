import { z } from "zod";
import { SETTINGS_LIMITS as L } from "../limits";

/**
 * The kinds of field the settings forms post (every value a string), with their messages. The registry
 * (../registry.ts) builds each setting's parser from one of these.
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

/** One of a list of values, the message naming them as the page's options do. */
export function choice<const T extends readonly [string, ...string[]]>(values: T, message: string) {
  return z.enum(values, { errorMap: () => ({ message }) });
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

const DECIMAL_WORDS = ["", "one decimal", "two decimals", "three decimals", "four decimals"];

/**
 * An amount or a percentage as typed: digits with up to `decimals` decimals (a decimal comma read as a
 * point), at most `max`; empty is null. Whether it may be empty or zero is its section's to say (its
 * type beside it), so every amount of every form is read by this one parser.
 */
export function amount(decimals: number, max: number, required = false) {
  const message = `Enter a number such as 120 or 120.50 (up to ${DECIMAL_WORDS[decimals]}, at most ${max.toLocaleString("en")})${required ? "" : ", or leave it empty"}.`;
  const pattern = new RegExp(`^\\d{1,9}(\\.\\d{1,${decimals}})?$`);
  return text(message)
    .trim()
    .transform((v) => v.replace(/^(\d+),(\d+)$/, "$1.$2"))
    .refine((v) => (v === "" && !required) || (pattern.test(v) && Number(v) <= max), message)
    .transform((v) => (v === "" ? null : Number(v)));
}
