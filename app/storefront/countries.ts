import { getCountries, getCountryCallingCode } from "libphonenumber-js/min";
import { parseCountryList } from "~/shared/phone";

export type PhoneCountry = { iso: string; dial: string; allowed?: true };

/** Every country libphonenumber-js has metadata for, with its calling code (the same data send-otp checks against). */
const ALL: PhoneCountry[] = getCountries().map((iso) => ({ iso, dial: getCountryCallingCode(iso) }));

/**
 * The modal's country list: the shop's allowed countries first (flagged `allowed`, in the order the
 * merchant listed them), then every other country libphonenumber-js knows. With no allow-list every
 * country is allowed and none is flagged. The modal sorts each group by name in the shopper's language.
 */
export function phoneCountries(allowedCountries: string | null | undefined): PhoneCountry[] {
  const allowed = parseCountryList(allowedCountries);
  if (!allowed.length) return ALL;
  const known = new Map(ALL.map((c) => [c.iso, c]));
  const first = allowed.filter((iso) => known.has(iso)).map((iso) => ({ ...known.get(iso)!, allowed: true as const }));
  const firstSet = new Set(first.map((c) => c.iso));
  return [...first, ...ALL.filter((c) => !firstSet.has(c.iso))];
}
