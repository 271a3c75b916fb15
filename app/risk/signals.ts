import { phonePlan } from "~/shared/phone";
import { normalizePostalCode } from "~/shared/lists";

/**
 * The pure readings the risk score is built from (app/risk/score.ts): what kind of number a phone
 * is, how complete and plausible a written address is, whether a postal code has its country's
 * format. Deterministic: the same input always reads the same.
 */

/** Number types that can receive a code by SMS and answer a courier (libphonenumber's types). */
const MOBILE_TYPES = new Set(["MOBILE", "FIXED_LINE_OR_MOBILE"]);

export type PhoneKind = "mobile" | "not_mobile" | "invalid";

/** The number's kind by libphonenumber's full metadata: invalid for its country's plan, a mobile, or anything else (landline, VoIP, premium, pager). */
export function phoneKind(phone: string | null): PhoneKind {
  if (!phone) return "invalid";
  const { valid, type } = phonePlan(phone);
  if (!valid) return "invalid";
  // A valid number whose type the metadata does not say (some countries) is given the benefit of the doubt.
  return type === undefined || MOBILE_TYPES.has(type) ? "mobile" : "not_mobile";
}

/**
 * Postal code formats for the countries COD shops sell to most (ISO 3166 alpha-2). A country not
 * listed is not judged. Spaces and dashes are ignored unless the format needs them.
 */
const POSTAL_FORMATS: Record<string, RegExp> = {
  IN: /^[1-9]\d{5}$/,
  PK: /^\d{5}$/,
  BD: /^\d{4}$/,
  MA: /^\d{5}$/,
  DZ: /^\d{5}$/,
  TN: /^\d{4}$/,
  EG: /^\d{5}$/,
  SA: /^\d{5}(\d{4})?$/,
  ID: /^\d{5}$/,
  MY: /^\d{5}$/,
  TH: /^\d{5}$/,
  VN: /^\d{6}$/,
  PH: /^\d{4}$/,
  TR: /^\d{5}$/,
  MX: /^\d{5}$/,
  BR: /^\d{8}$/,
  US: /^\d{5}(\d{4})?$/,
  FR: /^\d{5}$/,
  DE: /^\d{5}$/,
  ES: /^\d{5}$/,
  IT: /^\d{5}$/,
  PL: /^\d{5}$/,
  GB: /^[A-Z]{1,2}\d[A-Z\d]?\d[A-Z]{2}$/,
  NL: /^\d{4}[A-Z]{2}$/,
  CA: /^[A-Z]\d[A-Z]\d[A-Z]\d$/,
};

export { normalizePostalCode };

/** "valid", "invalid" for the country's format, or "unknown" when the country has no format here. A missing code is "missing". */
export function postalCodeFormat(zip: string | null | undefined, country: string | null | undefined): "valid" | "invalid" | "missing" | "unknown" {
  const code = normalizePostalCode(zip);
  if (!code) return "missing";
  const format = country ? POSTAL_FORMATS[country.toUpperCase()] : undefined;
  if (!format) return "unknown";
  return format.test(code) ? "valid" : "invalid";
}

export type AddressInput = {
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  province?: string | null;
  zip?: string | null;
  country_code?: string | null;
};

/**
 * Completeness 0-100 of a written address, pakdatakit-style weights: a street line (30), a house or
 * flat number in it (15), a second line or landmark (10), a city (20), a postal code (15), a
 * province (10). A courier needs the first, the number and the city to find the door.
 */
export function addressCompleteness(a: AddressInput): number {
  const street = `${a.address1 ?? ""} ${a.address2 ?? ""}`.trim();
  let score = 0;
  if ((a.address1 ?? "").trim().length >= 5) score += 30;
  if (/\d/.test(street)) score += 15;
  if ((a.address2 ?? "").trim().length >= 3) score += 10;
  if ((a.city ?? "").trim().length >= 2) score += 20;
  if (normalizePostalCode(a.zip)) score += 15;
  if ((a.province ?? "").trim().length >= 2) score += 10;
  return score;
}

const VOWELS = /[aeiouyàâäéèêëîïôöùûüáíóú]/i;

/**
 * Keyboard mashing in the street lines: a Latin word of 5+ letters with no vowel ("xkcdfg"), a run of
 * 5+ consonants, or one character repeated 4+ times ("aaaa"). Scripts other than Latin are not judged.
 */
export function looksGibberish(a: AddressInput): boolean {
  const text = `${a.address1 ?? ""} ${a.address2 ?? ""} ${a.city ?? ""}`;
  if (/(.)\1{3,}/u.test(text.replace(/\d/g, ""))) return true;
  for (const word of text.split(/[^A-Za-z\u00C0-\u017F]+/)) {
    if (word.length >= 5 && !VOWELS.test(word)) return true;
    if (/[bcdfghjklmnpqrstvwxz]{5,}/i.test(word)) return true;
  }
  return false;
}

/** The same word of 3+ letters written three or more times across the street lines and city ("test test test", "near near near"). */
export function hasRepeatedWords(a: AddressInput): boolean {
  const counts = new Map<string, number>();
  for (const word of `${a.address1 ?? ""} ${a.address2 ?? ""} ${a.city ?? ""}`.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (word.length < 3) continue;
    const n = (counts.get(word) ?? 0) + 1;
    if (n >= 3) return true;
    counts.set(word, n);
  }
  return false;
}

/** The value at the 90th percentile of the shop's recent COD order values (nearest rank), or null with fewer than `minimum` values. */
export function percentile90(values: number[], minimum = 20): number | null {
  if (values.length < minimum) return null;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.9 * sorted.length) - 1)];
}

/**
 * The hour of `at` in the shop's time zone (0-23), by Intl; the caller passes a zone the shop row
 * keeps (shopTimeZone makes an unknown one UTC). Quarter-hour zones (Asia/Kathmandu +05:45) move the hour with them.
 */
export function shopHour(at: Date, timeZone: string): number {
  let format = hourFormats.get(timeZone);
  if (!format) {
    // A formatter costs tens of microseconds to make and one to use: one per zone, kept (zones are few).
    format = new Intl.DateTimeFormat("en", { timeZone, hour: "2-digit", hourCycle: "h23" });
    hourFormats.set(timeZone, format);
  }
  const hour = Number(format.format(at));
  return hour === 24 ? 0 : hour;
}
const hourFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * An hour unusual for the shop: with 200 or more of its orders' hours known, an hour holding under a
 * quarter of an even share (1/96 of them). With fewer nothing is unusual: a shop's own hours are the measure
 * (a night shop's 02:00 is its busiest), and a fixed window would mark every night order of a new shop.
 */
export const UNUSUAL_HOUR_KNOWN = 200;
export function unusualHour(hour: number, shopHours: readonly number[] | null): boolean {
  if (!shopHours || shopHours.length !== 24) return false;
  const total = shopHours.reduce((a, b) => a + b, 0);
  return total >= UNUSUAL_HOUR_KNOWN && shopHours[hour] < total / 96;
}
