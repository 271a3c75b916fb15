import { normalizePhone } from "~/shared/phone";
import { z } from "zod";
import type { OrderCreated } from "~/core/shopify/webhook-payloads";
import { packageProvinces } from "./regions";

/**
 * Shipping addresses as the correction form and Shopify's MailingAddressInput see them, with the
 * per-country rules the form enforces and the basic checks the orders/create hook applies.
 * Pure: no I/O, shared by the server and the tests.
 */
export type Address = {
  firstName: string;
  lastName: string;
  phone: string;
  address1: string;
  address2: string;
  city: string;
  province: string; // a province/state code where the country has a list (provinceListFor), else empty
  zip: string;
  countryCode: string; // ISO 3166-1 alpha-2, upper case
};

export const ADDRESS_FIELDS = [
  "firstName",
  "lastName",
  "phone",
  "address1",
  "address2",
  "city",
  "province",
  "zip",
  "countryCode",
] as const satisfies readonly (keyof Address)[];
export type AddressField = (typeof ADDRESS_FIELDS)[number];

export const EMPTY_ADDRESS: Address = {
  firstName: "",
  lastName: "",
  phone: "",
  address1: "",
  address2: "",
  city: "",
  province: "",
  zip: "",
  countryCode: "",
};

/** Why a field was refused: keys of the translated messages (i18n.ts). */
export type FieldProblem =
  | "required"
  | "too_long"
  | "invalid_phone"
  | "invalid_zip"
  | "invalid_province"
  | "invalid_country"
  | "too_short"
  | "rejected";

type CountryRule = {
  /** Postal code pattern, tested on the upper-cased value with surrounding spaces removed. */
  zip?: RegExp;
  /** A human example shown in the error and as the placeholder. */
  zipExample?: string;
  /** The country has no postal codes in common use: the field is optional. */
  zipOptional?: boolean;
  /** Province/state codes and names accepted (code → name); the field is required. */
  provinces?: Record<string, string>;
  /** House numbers are not part of common addresses here: the auto check does not ask for one. */
  noHouseNumbers?: boolean;
};

const US_STATES: Record<string, string> = {
  AL: "Alabama", AK: "Alaska", AZ: "Arizona", AR: "Arkansas", CA: "California", CO: "Colorado", CT: "Connecticut",
  DE: "Delaware", DC: "District of Columbia", FL: "Florida", GA: "Georgia", HI: "Hawaii", ID: "Idaho", IL: "Illinois",
  IN: "Indiana", IA: "Iowa", KS: "Kansas", KY: "Kentucky", LA: "Louisiana", ME: "Maine", MD: "Maryland",
  MA: "Massachusetts", MI: "Michigan", MN: "Minnesota", MS: "Mississippi", MO: "Missouri", MT: "Montana",
  NE: "Nebraska", NV: "Nevada", NH: "New Hampshire", NJ: "New Jersey", NM: "New Mexico", NY: "New York",
  NC: "North Carolina", ND: "North Dakota", OH: "Ohio", OK: "Oklahoma", OR: "Oregon", PA: "Pennsylvania",
  RI: "Rhode Island", SC: "South Carolina", SD: "South Dakota", TN: "Tennessee", TX: "Texas", UT: "Utah",
  VT: "Vermont", VA: "Virginia", WA: "Washington", WV: "West Virginia", WI: "Wisconsin", WY: "Wyoming",
  PR: "Puerto Rico", GU: "Guam", VI: "Virgin Islands", AS: "American Samoa", MP: "Northern Mariana Islands",
  AA: "Armed Forces Americas", AE: "Armed Forces Europe", AP: "Armed Forces Pacific",
};

const CA_PROVINCES: Record<string, string> = {
  AB: "Alberta", BC: "British Columbia", MB: "Manitoba", NB: "New Brunswick", NL: "Newfoundland and Labrador",
  NS: "Nova Scotia", NT: "Northwest Territories", NU: "Nunavut", ON: "Ontario", PE: "Prince Edward Island",
  QC: "Quebec", SK: "Saskatchewan", YT: "Yukon",
};

// Shopify's zone codes for India.
const IN_STATES: Record<string, string> = {
  AN: "Andaman and Nicobar Islands", AP: "Andhra Pradesh", AR: "Arunachal Pradesh", AS: "Assam", BR: "Bihar",
  CH: "Chandigarh", CG: "Chhattisgarh", DN: "Dadra and Nagar Haveli and Daman and Diu", DL: "Delhi", GA: "Goa",
  GJ: "Gujarat", HR: "Haryana", HP: "Himachal Pradesh", JK: "Jammu and Kashmir", JH: "Jharkhand", KA: "Karnataka",
  KL: "Kerala", LA: "Ladakh", LD: "Lakshadweep", MP: "Madhya Pradesh", MH: "Maharashtra", MN: "Manipur",
  ML: "Meghalaya", MZ: "Mizoram", NL: "Nagaland", OR: "Odisha", PY: "Puducherry", PB: "Punjab", RJ: "Rajasthan",
  SK: "Sikkim", TN: "Tamil Nadu", TS: "Telangana", TR: "Tripura", UP: "Uttar Pradesh", UK: "Uttarakhand",
  WB: "West Bengal",
};

const digits = (n: number) => new RegExp(`^\\d{${n}}$`);

export const COUNTRY_RULES: Record<string, CountryRule> = {
  IN: { zip: /^[1-9]\d{5}$/, zipExample: "110001", provinces: IN_STATES },
  US: { zip: /^\d{5}(-\d{4})?$/, zipExample: "94103", provinces: US_STATES },
  CA: { zip: /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d$/, zipExample: "K1A 0B1", provinces: CA_PROVINCES },
  GB: { zip: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/, zipExample: "SW1A 1AA" },
  FR: { zip: digits(5), zipExample: "75001" },
  ES: { zip: /^(0[1-9]|[1-4]\d|5[0-2])\d{3}$/, zipExample: "28013" },
  DE: { zip: digits(5), zipExample: "10115" },
  IT: { zip: digits(5), zipExample: "00184" },
  MA: { zip: digits(5), zipExample: "20000" },
  DZ: { zip: digits(5), zipExample: "16000" },
  TN: { zip: digits(4), zipExample: "1000" },
  EG: { zip: digits(5), zipExample: "11511" },
  SA: { zip: /^\d{5}(-\d{4})?$/, zipExample: "11564" },
  PK: { zip: digits(5), zipExample: "44000" },
  BD: { zip: digits(4), zipExample: "1000" },
  MX: { zip: digits(5), zipExample: "06000" },
  BR: { zip: /^\d{5}-?\d{3}$/, zipExample: "01310-100" },
  NG: { zip: digits(6), zipExample: "100001", zipOptional: true },
  AE: { zipOptional: true, noHouseNumbers: true },
  QA: { zipOptional: true, noHouseNumbers: true },
  OM: { zip: digits(3), zipExample: "100", zipOptional: true, noHouseNumbers: true },
  KW: { zip: digits(5), zipExample: "13001", zipOptional: true, noHouseNumbers: true },
  BH: { zip: /^\d{3,4}$/, zipExample: "317", zipOptional: true, noHouseNumbers: true },
  HK: { zipOptional: true },
  IE: { zip: /^[A-Z]\d[\dW] ?[A-Z\d]{4}$/, zipExample: "D02 X285", zipOptional: true },
};

/** Countries with postal-code rules of their own (the form offers every country the shop ships to). */
export const FORM_COUNTRIES = Object.keys(COUNTRY_RULES);

/** The country's provinces (code → name) where the form asks for one: Shopify's codes, else the package's (regions.ts). */
export function provinceListFor(countryCode: string): Record<string, string> | undefined {
  return COUNTRY_RULES[countryCode]?.provinces ?? packageProvinces(countryCode);
}

/** Whether the province's code is Shopify's own zone code (written as `provinceCode`), else its name is written. */
export function hasShopifyProvinceCodes(countryCode: string): boolean {
  return Boolean(COUNTRY_RULES[countryCode]?.provinces);
}

/** Resolves a province typed as a code or a name to its code, for countries with a known list. */
export function resolveProvince(countryCode: string, value: string): string | null {
  const list = provinceListFor(countryCode);
  if (!list) return value.trim();
  const v = value.trim();
  if (!v) return null;
  const upper = v.toUpperCase();
  if (list[upper]) return upper;
  const fold = (s: string) => s.toLowerCase().normalize("NFKD").replace(/[^a-z]/g, "");
  const match = Object.entries(list).find(([, name]) => fold(name) === fold(v));
  return match ? match[0] : null;
}

export function normalizeZip(zip: string): string {
  return zip.trim().replace(/\s+/g, " ").toUpperCase();
}

export function zipIsValid(countryCode: string, zip: string): boolean {
  const rule = COUNTRY_RULES[countryCode];
  const z = normalizeZip(zip);
  if (!z) return Boolean(rule?.zipOptional) || (!rule?.zip && !rule);
  if (rule?.zip) return rule.zip.test(z);
  return /^[A-Z0-9][A-Z0-9 -]{1,10}$/.test(z);
}

const MAX = { firstName: 60, lastName: 60, phone: 20, address1: 120, address2: 120, city: 60, province: 60, zip: 12, countryCode: 2 };

export type ValidationResult =
  | { ok: true; address: Address }
  | { ok: false; errors: Partial<Record<AddressField, FieldProblem>>; zipExample?: string };

/**
 * Validates what the shopper typed. Returns the normalized address (zip upper-cased, phone in E.164,
 * province as a code where the country has a list) or a problem per field.
 */
export function validateAddress(input: Partial<Record<AddressField, unknown>>): ValidationResult {
  const raw = Object.fromEntries(
    ADDRESS_FIELDS.map((f) => [f, typeof input[f] === "string" ? (input[f] as string).trim() : ""]),
  ) as Address;
  const errors: Partial<Record<AddressField, FieldProblem>> = {};
  for (const f of ADDRESS_FIELDS) if (raw[f].length > MAX[f]) errors[f] = "too_long";

  for (const f of ["firstName", "lastName", "address1", "city", "countryCode", "phone"] as const) {
    if (!raw[f]) errors[f] ??= "required";
  }
  if (raw.address1 && raw.address1.length < 3) errors.address1 ??= "too_short";

  const countryCode = raw.countryCode.toUpperCase();
  if (raw.countryCode && !/^[A-Z]{2}$/.test(countryCode)) errors.countryCode ??= "invalid_country";
  const rule = COUNTRY_RULES[countryCode];

  const phone = normalizePhone(raw.phone);
  if (raw.phone && !phone) errors.phone ??= "invalid_phone";

  const zip = normalizeZip(raw.zip);
  if (!zip && rule && !rule.zipOptional) errors.zip ??= "required";
  else if (zip && !zipIsValid(countryCode, zip)) errors.zip ??= "invalid_zip";

  // A province only where the country has a list, and then one of it; elsewhere none is kept.
  let province = "";
  if (provinceListFor(countryCode)) {
    const code = resolveProvince(countryCode, raw.province);
    if (!raw.province) errors.province ??= "required";
    else if (!code) errors.province ??= "invalid_province";
    else province = code;
  }

  if (Object.keys(errors).length) return { ok: false, errors, zipExample: rule?.zipExample };
  return { ok: true, address: { ...raw, countryCode, phone: phone!, zip, province } };
}

/** Why the orders/create hook considers an address suspect, or null when it passes the basic checks. */
export type SuspectReason =
  | "missing_house_number"
  | "invalid_postal_code"
  | "missing_postal_code"
  // India's PIN code against its place (pin-directory.server.ts): the risk score's reason codes.
  | "pin_unknown"
  | "pin_other_state"
  | "pin_other_district";

export function suspectAddressReason(address: Pick<Address, "address1" | "address2" | "zip" | "countryCode">): SuspectReason | null {
  const countryCode = address.countryCode.toUpperCase();
  const rule = COUNTRY_RULES[countryCode];
  const zip = normalizeZip(address.zip);
  if (!zip && rule && !rule.zipOptional) return "missing_postal_code";
  if (zip && !zipIsValid(countryCode, zip)) return "invalid_postal_code";
  const lines = `${address.address1} ${address.address2}`;
  if (!rule?.noHouseNumbers && !/\d/.test(lines)) return "missing_house_number";
  return null;
}

/** Shopify's MailingAddress as the Admin API returns it (the fields we read). */
export const mailingAddressSchema = z
  .object({
    firstName: z.string().nullish(),
    lastName: z.string().nullish(),
    phone: z.string().nullish(),
    address1: z.string().nullish(),
    address2: z.string().nullish(),
    city: z.string().nullish(),
    province: z.string().nullish(),
    provinceCode: z.string().nullish(),
    zip: z.string().nullish(),
    countryCodeV2: z.string().nullish(),
  })
  .passthrough();
export type MailingAddress = z.infer<typeof mailingAddressSchema>;

export function fromMailingAddress(a: MailingAddress | null | undefined): Address {
  if (!a) return { ...EMPTY_ADDRESS };
  return {
    firstName: a.firstName ?? "",
    lastName: a.lastName ?? "",
    phone: a.phone ?? "",
    address1: a.address1 ?? "",
    address2: a.address2 ?? "",
    city: a.city ?? "",
    province: a.provinceCode ?? a.province ?? "",
    zip: a.zip ?? "",
    countryCode: (a.countryCodeV2 ?? "").toUpperCase(),
  };
}

/** A shipping address as the orders/create payload carries it (Shopify's REST names), read as the Admin API's. */
export function fromOrderAddress(a: NonNullable<OrderCreated["shipping_address"]>): Address {
  const { first_name: firstName, last_name: lastName, province_code: provinceCode, country_code: countryCodeV2 } = a;
  return fromMailingAddress({ ...a, firstName, lastName, provinceCode, countryCodeV2 });
}

/**
 * The full MailingAddressInput for orderUpdate (Shopify may ignore a partial address, so every field is
 * sent): the province as Shopify's zone code where the list is Shopify's (US, CA, IN), else by name.
 */
export function toMailingAddressInput(a: Address) {
  const coded = hasShopifyProvinceCodes(a.countryCode);
  return {
    firstName: a.firstName,
    lastName: a.lastName,
    phone: a.phone,
    address1: a.address1,
    address2: a.address2 || null,
    city: a.city,
    ...(coded || !a.province ? { provinceCode: a.province || null } : { province: provinceListFor(a.countryCode)?.[a.province] ?? a.province, provinceCode: null }),
    zip: a.zip || null,
    countryCode: a.countryCode,
  };
}

/** Countries that write the postal code before the town ("75001 Paris"); elsewhere after it ("Pune 411001"). */
const POSTCODE_FIRST = new Set(["FR", "ES", "DE", "IT", "NL", "BE", "CH", "AT", "PT", "MA", "DZ", "TN", "PL", "SE", "DK", "NO", "FI", "MX", "BR", "TR"]);

/** The town and its postal code on one line, in the address's country's order. */
export function townLine(a: Pick<Address, "zip" | "city" | "countryCode">): string {
  return (POSTCODE_FIRST.has(a.countryCode) ? [a.zip, a.city] : [a.city, a.zip]).filter(Boolean).join(" ");
}

/** An address on a few lines, for the merchant (metafield) and the confirmation page. */
export function formatAddress(a: Address): string {
  return [
    `${a.firstName} ${a.lastName}`.trim(),
    a.address1,
    a.address2,
    townLine(a),
    [a.province, a.countryCode].filter(Boolean).join(", "),
    a.phone,
  ]
    .filter(Boolean)
    .join("\n");
}
