import { allCountries } from "country-region-data";

/**
 * Countries and their provinces for the correction form. Every ISO 3166-1 country the package
 * country-region-data lists; the states or provinces of the countries whose checkout asks for one on
 * Shopify and whose list in the package matches Shopify's zones (the same level: states, provinces,
 * prefectures, emirates). India, the United States and Canada keep Shopify's own zone codes
 * (address.ts), which the address written to the order carries as `provinceCode`; the others carry
 * the province's name (`province`), which Shopify matches to its zone.
 */
export const ALL_COUNTRIES: readonly string[] = allCountries.map(([, code]) => code).filter((c) => /^[A-Z]{2}$/.test(c));

/** Countries whose province the form asks for from the package's list. */
const PACKAGE_PROVINCES = new Set(["AE", "AR", "AU", "BR", "CL", "CN", "CO", "EG", "GT", "ID", "IE", "JP", "KR", "MX", "MY", "NG", "NZ", "PE", "RO", "TH", "ZA"]);

const byCountry = new Map<string, Record<string, string>>();
for (const [, country, regions] of allCountries) {
  if (!PACKAGE_PROVINCES.has(country)) continue;
  const list: Record<string, string> = {};
  for (const [name, code] of regions) if (code && name) list[code.toUpperCase()] = name;
  byCountry.set(country, list);
}

/** The package's provinces of `countryCode` (code → name), or undefined where the form asks none from it. */
export function packageProvinces(countryCode: string): Record<string, string> | undefined {
  return byCountry.get(countryCode);
}
