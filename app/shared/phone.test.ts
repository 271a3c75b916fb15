import { countryAllowed, normalizePhone, normalizePhoneIn, parseApiPhone, parseCountryList, phoneCountry } from "./phone";

describe("phone numbers", () => {
  it("normalises separators and a 00 prefix to E.164", () => {
    expect(normalizePhone(" +91 98765-43210 ")).toBe("+919876543210");
    expect(normalizePhone("00 44 (20) 7946.0958")).toBe("+442079460958");
  });

  it("refuses what is not + and 10 to 15 digits", () => {
    for (const bad of ["", "9876543210", "+12345", "+1234567890123456", "+91abc6543210", "++919876543210"]) {
      expect(normalizePhone(bad), bad).toBeNull();
    }
    expect(normalizePhone("+1234567890")).toBe("+1234567890");
    expect(normalizePhone("+123456789012345")).toBe("+123456789012345");
  });

  it("takes an API phone only as + and 10 to 15 digits that can exist in their country", () => {
    expect(parseApiPhone("+919876543210")).toBe("+919876543210");
    expect(parseApiPhone("+14155550123")).toBe("+14155550123");
    for (const bad of ["+1 415 555 0123", "+14155550123\n", "\t+14155550123", "+1234567890", "+11235550123", "+999123456789", 14155550123, null, undefined, ["+14155550123"]]) {
      expect(parseApiPhone(bad), JSON.stringify(bad)).toBeNull();
    }
  });

  it("knows a number's country", () => {
    expect(phoneCountry("+919876543210")).toBe("IN");
    expect(phoneCountry("+971501234567")).toBe("AE");
    expect(phoneCountry("+14155550123")).toBe("US");
  });

  it("applies a shop's allow-list, empty meaning all", () => {
    expect(parseCountryList(" in, ae;US,xyz,")).toEqual(["IN", "AE", "US"]);
    expect(countryAllowed("+14155550123", "")).toBe(true);
    expect(countryAllowed("+919876543210", "IN,AE")).toBe(true);
    expect(countryAllowed("+14155550123", "IN,AE")).toBe(false);
  });

  it("reads a number written on an order with its address's country: national forms, other digits, international forms as before", () => {
    expect(normalizePhoneIn("(415) 365-6949", "US")).toBe("+14153656949");
    expect(normalizePhoneIn("4155550123", "us")).toBe("+14155550123");
    expect(normalizePhoneIn("06 00 00 00 02", "MA")).toBe("+212600000002");
    expect(normalizePhoneIn("٠٦٠٠٠٠٠٠٠٢", "MA")).toBe("+212600000002");
    expect(normalizePhoneIn("+212 600-000-002", "US")).toBe("+212600000002");
    expect(normalizePhoneIn("00212600000002", "US")).toBe("+212600000002");
    // Without a country a national number is no number; nor is a country that does not exist, or too few digits.
    expect(normalizePhoneIn("4155550123", null)).toBeNull();
    expect(normalizePhoneIn("0600000002", "ZZ")).toBeNull();
    expect(normalizePhoneIn("12", "US")).toBeNull();
  });
});
