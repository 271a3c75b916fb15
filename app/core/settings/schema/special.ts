import { getCountries } from "libphonenumber-js/min";
import { z } from "zod";
import { countryNames, readCountryList } from "~/shared/country-names";
import { chosenModes } from "~/shared/payment-modes";
import { codMethodNameList, DEFAULT_COD_METHOD_NAMES_TEXT } from "../cod-methods";
import { SETTINGS_LIMITS as L } from "../limits";
import { text } from "./fields";

/**
 * The settings whose text has a grammar of its own (a country list, a message with {code}, a domain, a
 * time of day): one parser each, named by the registry (../registry.ts).
 */

/** Every country a phone number can belong to, by its English name (the list the settings page offers). */
export const PHONE_COUNTRY_NAMES = countryNames(getCountries());

export const countryList = text("Enter countries, or leave empty to allow every country.").transform((raw, ctx) => {
  const { codes, unknown } = readCountryList(raw, PHONE_COUNTRY_NAMES);
  if (unknown.length) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: `Not a country phone numbers belong to: ${unknown.join(", ")}. Type a country's English name as the list shows it (such as Kenya) or its two-letter code (such as KE), separated by commas.`,
    });
    return z.NEVER;
  }
  // Stored as send-otp reads it (parseCountryList): upper case, comma-separated, each code once.
  return codes.join(",");
});

export const smsTemplate = text("Enter a message or leave it empty.")
  .trim()
  .refine((v) => v === "" || v.includes("{code}"), "The message must contain {code}, where the code goes.")
  .refine((v) => v.length <= L.smsTemplateMaxLength, `Keep the message to ${L.smsTemplateMaxLength} characters.`)
  .transform((v) => (v === "" ? null : v));

/** Posted as "cod,prepaid,partial" (the page keeps a hidden field in step with its checkboxes). */
export const paymentModes = text("Choose at least one way to pay.").transform((raw, ctx) => {
  const words = raw.split(/[\s,]+/).filter(Boolean);
  const modes = chosenModes(raw);
  if (!modes.length || words.some((w) => !modes.includes(w.toLowerCase() as never))) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Choose at least one way to pay: cash on delivery, prepaid or partial." });
    return z.NEVER;
  }
  return modes.join(",");
});

/** The fee product's variant: its number or its gid; empty: none (a fee then asks for one, in the checkout section). */
export const variantId = text("Enter the fee product's variant ID, or leave it empty.")
  .trim()
  .transform((raw, ctx) => {
    const gid = /^\d{1,20}$/.test(raw) ? `gid://shopify/ProductVariant/${raw}` : /^gid:\/\/shopify\/ProductVariant\/\d{1,20}$/.test(raw) ? raw : null;
    if (raw && !gid) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Enter the variant's number (from its page in your admin) or its gid://shopify/ProductVariant/… ID." });
      return z.NEVER;
    }
    return gid;
  });

/** Payment method names, one a line, as the checkout shows them; empty means Shopify's "Cash on Delivery (COD)". */
export const codMethodNames = text("Enter the names of your cash-on-delivery payment methods, one a line.").transform((raw, ctx) => {
  const names = codMethodNameList(raw);
  const tooLong = names.find((n) => n.length > L.codMethodNameMaxLength);
  if (tooLong || names.length > L.codMethodNamesMax || [...raw].some((c) => c !== "\n" && c !== "\r" && (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127))) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: `Up to ${L.codMethodNamesMax} names, one a line, each up to ${L.codMethodNameMaxLength} characters.`,
    });
    return z.NEVER;
  }
  return (names.length ? names : codMethodNameList(DEFAULT_COD_METHOD_NAMES_TEXT)).join("\n");
});

/**
 * The link domain: a bare host name (no scheme, path or port), lower case, stored as typed or null when
 * empty. It must serve the store (one of its domains), since links are the app proxy's paths on it.
 */
export const linkDomain = text("Enter a domain such as shop.example.in, or leave it empty.")
  .trim()
  .transform((v) => v.toLowerCase().replace(/\.$/, ""))
  .refine(
    (v) => v === "" || (v.length <= 253 && /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/.test(v)),
    "Enter the domain alone, such as shop.example.in (no https://, no path).",
  )
  .transform((v) => (v === "" ? null : v));

/** A ladder step's delay in minutes after the order; empty: the step is not used (null). */
export const rungMinutes = (() => {
  const message = `Enter a whole number of minutes from 0 to ${L.ladderMinutes.max.toLocaleString("en")}, or leave it empty to skip this step.`;
  return text(message)
    .trim()
    .refine((v) => v === "" || (/^\d{1,6}$/.test(v) && Number(v) <= L.ladderMinutes.max), message)
    .transform((v) => (v === "" ? null : Number(v)));
})();

/** A time of day "HH:MM" (24-hour) → the minute of the day; empty: none (null). */
export const timeOfDay = (() => {
  const message = "Enter a time such as 21:00, or leave it empty.";
  return text(message)
    .trim()
    .refine((v) => v === "" || /^([01]?\d|2[0-3]):[0-5]\d$/.test(v), message)
    .transform((v) => (v === "" ? null : Number(v.split(":")[0]) * 60 + Number(v.split(":")[1])));
})();
