import { normalizePhone } from "~/shared/phone";
import { resolveProvince, suspectAddressReason, validateAddress, zipIsValid } from "./address";

const base = {
  firstName: "Asha",
  lastName: "Verma",
  phone: "+919876543210",
  address1: "44 MG Road",
  address2: "",
  city: "Pune",
  province: "MH",
  zip: "411001",
  countryCode: "IN",
};

describe("postal codes per country", () => {
  it.each([
    ["IN", "411001", true],
    ["IN", "011001", false], // Indian PIN codes never start with 0
    ["IN", "41100", false],
    ["US", "94103", true],
    ["US", "94103-1234", true],
    ["US", "9410", false],
    ["CA", "K1A 0B1", true],
    ["CA", "k1a0b1", true],
    ["CA", "D1A 0B1", false],
    ["GB", "SW1A 1AA", true],
    ["GB", "12345", false],
    ["FR", "75001", true],
    ["FR", "7500", false],
    ["ES", "28013", true],
    ["ES", "60000", false],
    ["BR", "01310-100", true],
    ["AE", "", true], // no postal codes in common use
    ["MA", "", false],
    ["ZZ", "", true], // unknown country: optional
    ["ZZ", "AB-123", true],
  ])("%s %s → %s", (country, zip, ok) => {
    expect(zipIsValid(country, zip)).toBe(ok);
  });
});

describe("validateAddress", () => {
  it("normalizes a good address: E.164 phone, upper-case postal code, province name to code", () => {
    const r = validateAddress({ ...base, phone: "+91 98765-43210", province: "maharashtra", countryCode: "in" });
    expect(r).toEqual({ ok: true, address: { ...base, countryCode: "IN" } });
    const ca = validateAddress({ ...base, countryCode: "CA", province: "Québec", zip: "h2x 1y4", phone: "+15145550123" });
    expect(ca.ok && ca.address).toMatchObject({ province: "QC", zip: "H2X 1Y4" });
  });

  it("names each problem: required fields, phone, postal code, state", () => {
    const r = validateAddress({ ...base, firstName: " ", phone: "98765", zip: "4110", province: "Atlantis" });
    expect(r).toEqual({
      ok: false,
      errors: { firstName: "required", phone: "invalid_phone", zip: "invalid_zip", province: "invalid_province" },
      zipExample: "110001",
    });
    const us = validateAddress({ ...base, countryCode: "US", province: "", zip: "" , phone: "+14155550123"});
    expect(us.ok ? null : us.errors).toEqual({ province: "required", zip: "required" });
  });

  it("refuses over-long values and a country that is not a code", () => {
    const r = validateAddress({ ...base, address1: "x".repeat(121), countryCode: "India" });
    expect(r.ok ? null : r.errors).toMatchObject({ address1: "too_long", countryCode: "too_long" });
    const r2 = validateAddress({ ...base, countryCode: "I1" });
    expect(r2.ok ? null : r2.errors).toMatchObject({ countryCode: "invalid_country" });
  });

  it("keeps no province where the country has no list (Shopify has no zones there)", () => {
    const r = validateAddress({ ...base, countryCode: "MA", province: "Casablanca-Settat", zip: "20000", phone: "+212600000000" });
    expect(r.ok && r.address.province).toBe("");
  });

  it("takes a province of the package's list by code or name, and refuses one of another country", () => {
    const au = { ...base, countryCode: "AU", zip: "2000", phone: "+61412345678" };
    expect(validateAddress({ ...au, province: "NSW" })).toMatchObject({ ok: true, address: { province: "NSW" } });
    expect(validateAddress({ ...au, province: "new south wales" })).toMatchObject({ ok: true, address: { province: "NSW" } });
    expect(validateAddress({ ...au, province: "MH" })).toMatchObject({ ok: false, errors: { province: "invalid_province" } });
    expect(validateAddress({ ...au, province: "" })).toMatchObject({ ok: false, errors: { province: "required" } });
  });
});

describe("the orders/create checks", () => {
  it("flags a missing house number, a missing or malformed postal code, and passes a good address", () => {
    expect(suspectAddressReason({ address1: "MG Road", address2: "", zip: "411001", countryCode: "IN" })).toBe("missing_house_number");
    expect(suspectAddressReason({ address1: "44 MG Road", address2: "", zip: "", countryCode: "IN" })).toBe("missing_postal_code");
    expect(suspectAddressReason({ address1: "44 MG Road", address2: "", zip: "41100", countryCode: "IN" })).toBe("invalid_postal_code");
    expect(suspectAddressReason({ address1: "MG Road", address2: "Flat 3B", zip: "411001", countryCode: "IN" })).toBeNull();
    expect(suspectAddressReason({ address1: "1 Infinite Loop", address2: "", zip: "95014", countryCode: "US" })).toBeNull();
    // Gulf addresses rarely have house numbers or postal codes.
    expect(suspectAddressReason({ address1: "Al Wasl Road, Villa Jumeirah", address2: "", zip: "", countryCode: "AE" })).toBeNull();
  });
});

describe("helpers", () => {
  it("normalizePhone keeps E.164 only", () => {
    expect(normalizePhone("+1 (415) 555-0123")).toBe("+14155550123");
    expect(normalizePhone("4155550123")).toBeNull();
    expect(normalizePhone("+123")).toBeNull();
    expect(normalizePhone(null)).toBeNull();
  });

  it("resolveProvince accepts codes and names", () => {
    expect(resolveProvince("US", "ny")).toBe("NY");
    expect(resolveProvince("US", "New York")).toBe("NY");
    expect(resolveProvince("IN", "Tamil Nadu")).toBe("TN");
    expect(resolveProvince("US", "Bavaria")).toBeNull();
  });
});
