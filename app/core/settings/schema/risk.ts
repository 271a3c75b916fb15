import { z } from "zod";
import { parsePhoneList, parsePostalCodeList, parseTagList, splitList } from "~/shared/lists";
import { parseSourceList } from "~/shared/traffic-source";
import { text } from "./fields";

/**
 * The Risk page's and Deliveries' settings whose text has a grammar of its own (a threshold, a pasted
 * list, a velocity limit, a contact), one parser each, named by the registry (../registry.ts).
 */

/** What a risk band does (app/risk/pricing.ts reads it). */
export const BAND_ACTIONS = ["none", "confirm", "price", "refuse"] as const;

/** Up to this many entries a list (a paste of a spreadsheet column fits). */
export const RISK_LIST_MAX = 2000;

export const threshold = text("Enter a score from 1 to 100.")
  .trim()
  .refine((v) => /^\d{1,3}$/.test(v) && Number(v) >= 1 && Number(v) <= 100, "Enter a score from 1 to 100.")
  .transform(Number);

/** A list as the merchant pastes it; every entry must read as one (a typo is shown, never dropped). */
export function list(parse: (t: string) => string[], what: string, max = RISK_LIST_MAX) {
  return text(`Enter ${what}, one a line, or leave it empty.`).transform((raw, ctx) => {
    const entries = splitList(raw);
    const unreadable = entries.filter((e) => parse(e).length === 0);
    if (unreadable.length || entries.length > max) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: unreadable.length ? `Not ${what}: ${unreadable.slice(0, 5).join(", ")}.` : `Up to ${max} entries.` });
      return z.NEVER;
    }
    return parse(raw).join("\n");
  });
}

export const postalCodeList = list(parsePostalCodeList, "postal codes (a prefix ends with *)");
export const phoneList = list(parsePhoneList, "phone numbers in international form (+ and country code)");
export const sourceList = list(parseSourceList, "a source", 200);

/** An amount in the shop's currency (up to two decimals, above 0), or empty for none. */
export function positiveAmount(message = "Enter an amount above 0 (up to two decimals), or leave it empty.") {
  return text(message)
    .trim()
    .transform((v) => v.replace(/^(\d+),(\d+)$/, "$1.$2"))
    .refine((v) => v === "" || (/^\d{1,9}(\.\d{1,2})?$/.test(v) && Number(v) > 0), message)
    .transform((v) => (v === "" ? null : Number(v)));
}

/** A velocity limit in 24 hours: a whole number from 1 to 10,000, or empty for none. */
export const velocityLimit = text("Enter a whole number from 1 to 10000, or leave it empty for no limit.")
  .trim()
  .refine((v) => v === "" || (/^\d{1,5}$/.test(v) && Number(v) >= 1 && Number(v) <= 10_000), "Enter a whole number from 1 to 10000, or leave it empty for no limit.")
  .transform((v) => (v === "" ? null : Number(v)));

/** Failure tags as typed (case kept, for the merchant's eye), one a line, each once without case. */
export const failureTags = text("Enter tags, one a line, or leave it empty.").transform((raw, ctx) => {
  const tags = parseTagList(raw);
  if (tags.length > 50 || tags.some((t) => t.length > 40)) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Up to 50 tags of up to 40 characters." });
    return z.NEVER;
  }
  const kept = new Map<string, string>();
  for (const t of splitList(raw)) if (!kept.has(t.toLowerCase())) kept.set(t.toLowerCase(), t);
  return [...kept.values()].join("\n");
});

/** A courier's tags, compared without case: stored lower case, one a line. */
export const courierTags = z
  .string()
  .max(2000, "Up to 2000 characters.")
  .transform((v) => parseTagList(v).join("\n"));

/** Deliveries' switches, posted by a select as "on" or "off". */
export const onOffWord = z.enum(["on", "off"], { message: "Choose on or off." }).transform((v) => v === "on");

/** Shown to shoppers in a text: a phone number or an email address, nothing that could carry a link. */
export const storeContact = z
  .string()
  .trim()
  .max(80, "Up to 80 characters.")
  .refine((v) => v === "" || /^(\+?[\d ()-]{6,20}|[^\s@/]+@[^\s@/]+\.[a-z]{2,})$/i.test(v), "Enter a phone number or an email address.")
  .transform((v) => (v === "" ? null : v));
