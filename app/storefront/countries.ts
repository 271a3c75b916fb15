import { getCountries, getCountryCallingCode } from "libphonenumber-js/min";
import { parseCountryList } from "~/shared/phone";

export type PhoneCountry = { iso: string; dial: string; allowed?: true };

/** Every country libphonenumber-js has metadata for, with its calling code (the same data send-otp checks against). */
const ALL: PhoneCountry[] = getCountries().map((iso) => ({ iso, dial: getCountryCallingCode(iso) }));

/**
 * The modal's country list: the shop's allowed countries only (flagged `allowed`), since send-otp
 * refuses every other one; with no allow-list, every country libphonenumber-js knows, none flagged.
 * The modal sorts them by name in the shopper's language. A number typed with "+" still reaches
 * send-otp (and its refusal's ways forward) whatever country is selected.
 */
export function phoneCountries(allowedCountries: string | null | undefined): PhoneCountry[] {
  const allowed = parseCountryList(allowedCountries);
  if (!allowed.length) return ALL;
  const known = new Map(ALL.map((c) => [c.iso, c]));
  const listed = allowed.filter((iso) => known.has(iso)).map((iso) => ({ ...known.get(iso)!, allowed: true as const }));
  // An allow-list of nothing libphonenumber-js knows would leave the shopper no country to pick.
  return listed.length ? listed : ALL;
}
