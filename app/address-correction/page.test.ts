import { EMPTY_ADDRESS } from "~/core/places/address";
import { renderForm, renderMessage } from "./page";
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
});
