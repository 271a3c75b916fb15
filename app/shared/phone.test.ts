import { getCountries, getExampleNumber, parsePhoneNumberFromString } from "libphonenumber-js/max";
import examples from "libphonenumber-js/mobile/examples";
import { countryAllowed, normalizePhone, normalizePhoneIn, parseApiPhone, parseCountryList, phoneCountry, phonePlan } from "./phone";

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

  it("names the same country from a number's full reading as from the minimal metadata, in every country and in shared calling codes", () => {
    const numbers: string[] = [];
    for (const country of getCountries()) {
      const example = getExampleNumber(country, examples)?.number;
      if (!example) continue;
      for (let i = 0; i < 40; i++) numbers.push(`${example.slice(0, -3)}${String((i * 37) % 1000).padStart(3, "0")}`);
    }
    // Calling codes several countries share: +1, +7, +44, +47, +262, +358, +590, +599.
    for (const prefix of ["+1340", "+1787", "+1416", "+1876", "+7701", "+7912", "+441481", "+447781", "+447624", "+4779", "+262269", "+35818", "+590590", "+5999"]) {
      for (let i = 0; i < 40; i++) numbers.push(`${prefix}${String(1_234_567 + i * 7_919).slice(0, 12 - prefix.length + 1)}`);
    }
    let compared = 0;
    for (const phone of numbers) {
      const minimal = phoneCountry(phone);
      if (!phonePlan(phone).valid) continue;
      expect(phoneCountry(phone), phone).toBe(minimal);
      expect(phoneCountry(phone), phone).toBe(parsePhoneNumberFromString(phone)?.country ?? null);
      compared++;
    }
    expect(compared).toBeGreaterThan(5_000);
  });
});
