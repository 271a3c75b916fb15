import { isSupportedCountry, parsePhoneNumberFromString } from "libphonenumber-js/min";
// The full metadata checks a number's digits against its country's numbering plan (the minimal
// metadata checks only its length). Only the server uses it; bundles that import this module for
// the helpers below leave it out (the package has no side effects).
import { parsePhoneNumberFromString as parseWithFullMetadata, type PhoneNumber } from "libphonenumber-js/max";

/** The storefront contract's phone format: `+` and 10 to 15 digits. */
export const E164 = /^\+\d{10,15}$/;

/**
 * A phone number as the storefront API receives it (send-otp, verify-otp, create-checkout,
 * address-correction.request): exactly `+` and 10 to 15 digits, nothing else (no spaces, no
 * trailing newline: the storefront modal tidies what a shopper types before it sends), and a number
 * that can exist in its country's numbering plan, so no SMS is ever paid for an impossible number.
 * Anything else is null (400 `invalid_phone`).
 */
export function parseApiPhone(raw: unknown): string | null {
  if (typeof raw !== "string" || !E164.test(raw)) return null;
  return phoneCanExist(raw) ? raw : null;
}

/** True when an E.164 number fits its country's numbering plan (libphonenumber's full metadata). */
export function phoneCanExist(phone: string): boolean {
  return phonePlan(phone).valid;
}

/** What the full metadata says of a number: whether it fits its country's plan, its type there (MOBILE, FIXED_LINE...) and the country. */
export type PhonePlan = { readonly valid: boolean; readonly type: string | undefined; readonly country: string | null };

/** A reading whose type is worked out when first asked: the door's check needs only `valid`, the risk score the type. */
class Reading implements PhonePlan {
  readonly valid: boolean;
  readonly country: string | null;
  #number: PhoneNumber | undefined;
  #type: string | undefined;
  constructor(number: PhoneNumber | undefined) {
    this.valid = number?.isValid() ?? false;
    this.country = this.valid ? (number?.country ?? null) : null;
    this.#number = this.valid ? number : undefined;
  }
  get type(): string | undefined {
    if (this.#number) {
      this.#type = this.#number.getType();
      this.#number = undefined;
    }
    return this.#type;
  }
}

const plans = new Map<string, PhonePlan>();
const PLANS_KEPT = 2_000;

/**
 * The full metadata's reading of `phone`, remembered for the last numbers read: a storefront request
 * asks it twice (the contract's check, then the risk score's phone kind) and a shopper's verify-otp asks
 * again of the number send-otp read minutes before. Parsing with the full metadata is the dearest step
 * of either (tens of microseconds); the reading of a given string never changes.
 */
export function phonePlan(phone: string): PhonePlan {
  let plan = plans.get(phone);
  if (plan) return plan;
  plan = new Reading(parseWithFullMetadata(phone));
  if (plans.size >= PLANS_KEPT) plans.delete(plans.keys().next().value as string);
  plans.set(phone, plan);
  return plan;
}

/**
 * The one normalisation of a number written by someone else (an order's phone from Shopify, a
 * merchant's blocklist entry), done once at the edge: spaces, dashes, dots and
 * brackets go, a leading international `00` becomes `+`. What is left must be E.164 or it is refused
 * (null); every record, counter and log after this point uses the normalised form.
 */
export function normalizePhone(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let phone = raw.trim().replace(/[\s\-.()\u00a0]/g, "");
  if (phone.startsWith("00")) phone = `+${phone.slice(2)}`;
  return E164.test(phone) ? phone : null;
}

/**
 * ISO 3166-1 alpha-2 country of an E.164 number, or null when the number belongs to no country. A number
 * the full metadata has just read (a storefront request's, checked at the door) takes its country from
 * that reading, which names the same country as the minimal metadata for every number that fits its plan.
 */
export function phoneCountry(phone: string): string | null {
  const plan = plans.get(phone);
  if (plan?.valid) return plan.country;
  return parsePhoneNumberFromString(phone)?.country ?? null;
}

/** Shop.allowedCountries ("IN, ae,US") → ["IN", "AE", "US"]; empty means every country. */
export function parseCountryList(value: string | null | undefined): string[] {
  return (value ?? "")
    .split(/[\s,;]+/)
    .map((c) => c.trim().toUpperCase())
    .filter((c) => /^[A-Z]{2}$/.test(c));
}

export function countryAllowed(phone: string, allowedCountries: string | null | undefined): boolean {
  const allowed = parseCountryList(allowedCountries);
  if (!allowed.length) return true;
  const country = phoneCountry(phone);
  return country !== null && allowed.includes(country);
}


/**
 * A number as a shopper wrote it on an order or address, read once: international forms as
 * normalizePhone reads them; anything else (a national "(415) 365-6949", "0600000002", other
 * scripts' digits) by libphonenumber with `region` (the address's country) as the default country,
 * kept when its length is possible there. Null when neither reading gives E.164.
 */
export function normalizePhoneIn(raw: string | null | undefined, region: string | null | undefined): string | null {
  if (!raw) return null;
  const international = normalizePhone(raw);
  if (international) return international;
  const country = region?.trim().toUpperCase();
  const parsed = parsePhoneNumberFromString(raw, country && isSupportedCountry(country) ? { defaultCountry: country } : {});
  return parsed?.isPossible() && E164.test(parsed.number) ? parsed.number : null;
}
