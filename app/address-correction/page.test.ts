import { EMPTY_ADDRESS } from "~/core/places/address";
import { phoneExample, renderForm, renderMessage } from "./page";
import { fieldLabel, TEXTS } from "./i18n";
import { townLine } from "~/core/places/address";
import { localizedProvinces } from "~/core/places/province-names";
import { LOCATION_SCRIPT } from "~/shared/location-script";

const state = { orderName: "#1001", values: { ...EMPTY_ADDRESS, countryCode: "IN" }, errors: {}, nonce: "1.abc", countries: ["IN", "US", "FR"] };

describe("the correction pages", () => {
  it("escapes everything it prints", () => {
    const page = renderForm({ locale: "en", shopName: `<script>alert(1)</script>` }, { ...state, orderName: `"><img src=x>` });
    // The one script the page runs is the constant "use my location" one (its CSP hash allows nothing else).
    expect(page).toContain(`<script>${LOCATION_SCRIPT}</script>`);
    const html = page.replace(`<script>${LOCATION_SCRIPT}</script>`, "");
    expect(html).not.toContain("<script>");
    expect(html).not.toContain(`"><img`);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("labels every control and marks the optional one", () => {
    const html = renderForm({ locale: "en", shopName: "Shop" }, state);
    for (const id of ["firstName", "lastName", "phone", "address1", "address2", "city", "province", "zip", "countryCode"]) {
      expect(html).toContain(`<label for="${id}">`);
    }
    expect(html).toMatch(/<label for="address2">[^<]*<span class="opt">\(optional\)<\/span>/);
    expect(html).toMatch(/id="phone"[^>]*autocomplete="tel"/i); // HTML attribute names are case-insensitive (React writes autoComplete)
    expect(html).not.toContain("autofocus");
  });

  it("ties each error to its field and focuses the first invalid field in form order", () => {
    const html = renderForm({ locale: "en", shopName: "Shop" }, { ...state, errors: { zip: "invalid_zip", city: "required" } });
    expect(html).toMatch(/id="city"[^>]*aria-invalid="true"[^>]*aria-describedby="city-error"[^>]*autofocus/);
    expect(html).toMatch(/id="zip"[^>]*aria-describedby="zip-hint zip-error"/);
    expect(html).toContain(`<a href="#city">`);
  });

  it("renders right to left in Arabic and lists countries in the page's language", () => {
    const html = renderForm({ locale: "ar", shopName: "Shop" }, state);
    expect(html).toContain(`dir="rtl"`);
    expect(html).toMatch(/<option value="IN" selected="">الهند<\/option>/);
    const es = renderMessage({ locale: "es", shopName: "Shop" }, "expired");
    expect(es).toContain("Este enlace ha caducado");
  });

  it("follows the address's country: the phone's example, the labels, the town line", () => {
    expect(phoneExample("IN")).toMatch(/^\+91 /);
    expect(phoneExample("AE")).toMatch(/^\+971 /);
    expect(phoneExample("")).toMatch(/^\+91 /); // no country yet: India's
    for (const locale of ["en", "hi", "ar", "fr", "es"] as const) {
      const html = renderForm({ locale, shopName: "Shop" }, { ...state, errors: { phone: "invalid_phone" } });
      expect(html, locale).toContain(phoneExample("IN"));
      expect(html, locale).not.toContain("+971");
      expect(fieldLabel(TEXTS[locale], "zip", "IN")).not.toBe(fieldLabel(TEXTS[locale], "zip", "US"));
    }
    expect(fieldLabel(TEXTS.hi, "zip", "IN")).toBe("पिन कोड");
    expect(fieldLabel(TEXTS.hi, "zip", "US")).not.toContain("पिन");
    expect(fieldLabel(TEXTS.en, "zip", "FR")).toBe("Postal code");
    expect(townLine({ zip: "411001", city: "Pune", countryCode: "IN" })).toBe("Pune 411001");
    expect(townLine({ zip: "75001", city: "Paris", countryCode: "FR" })).toBe("75001 Paris");
  });

  it("names every Indian state in Hindi and Arabic, and keeps the list's names elsewhere", () => {
    const english = localizedProvinces("IN", "en")!;
    for (const locale of ["hi", "ar"] as const) {
      const names = localizedProvinces("IN", locale)!;
      expect(Object.keys(names).sort()).toEqual(Object.keys(english).sort());
      for (const code of Object.keys(english)) expect(names[code], `${locale} ${code}`).not.toBe(english[code]);
    }
    expect(localizedProvinces("US", "hi")).toEqual(localizedProvinces("US", "en"));
    const html = renderForm({ locale: "hi", shopName: "Shop" }, { ...state, values: { ...state.values, province: "MH" } });
    expect(html).toContain('<option value="MH" selected="">महाराष्ट्र</option>');
    const saved = { ...EMPTY_ADDRESS, firstName: "Asha", address1: "MG Road", city: "Pune", zip: "411001", province: "MH", countryCode: "IN" };
    expect(renderMessage({ locale: "ar", shopName: "Shop" }, "done", { orderName: "#1", address: saved })).toContain("Pune 411001\nماهاراشترا، الهند");
    expect(renderMessage({ locale: "hi", shopName: "Shop" }, "done", { orderName: "#1", address: saved })).toContain("Pune 411001\nमहाराष्ट्र, भारत");
  });
});
