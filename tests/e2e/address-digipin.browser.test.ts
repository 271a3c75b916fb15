import type { Browser, BrowserContextOptions } from "playwright-core";
import { FakeShopify } from "../mocks/shopify/server";
import { servingLocalDemoShop } from "../mocks/shopify/tokens";
import { FakeOrderStore, fakeOrder } from "../mocks/shopify/orders";
import { lastCorrectionLink } from "../helpers/correction-sms";
import { postSigned, type RunningServer } from "../helpers/server";
import { shot } from "./modal-helpers";
import { allViolations } from "./hosted-helpers";
import { LOCATION_TEXTS } from "~/shared/location-texts";
import { LOCALES, type Locale } from "~/shared/locales";
import { useBrowserStore } from "./browser-store";

const NARROW: BrowserContextOptions = { viewport: { width: 360, height: 640 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
// Dak Bhawan, New Delhi: the technical document's example, 39J-49L-L8T4.
const DAK_BHAWAN = { latitude: 28.622788, longitude: 77.213033 };

/**
 * "Use my location" on the address form in Chromium on a 360 px phone: the page's one script runs under
 * its real CSP (allowed by its hash), asks for the position only on the tap, and the server answers with
 * the DIGIPIN, which the saved address carries onto the order in Shopify. Refused, the page says so and
 * the DIGIPIN can be typed. In each of the five languages, no axe violation before or after.
 */
describe("the address form's DIGIPIN in Chromium", () => {
  let server: RunningServer;
  let browser: Browser;
  const fake = servingLocalDemoShop(new FakeShopify());
  const store = new FakeOrderStore();
  store.shipsTo = ["IN"];
  store.install(fake);
  let n = 0;

  useBrowserStore({ fake }, (s, b) => {
    [server, browser] = [s, b];
  });

  /** An order in New Delhi and the path of its texted correction link, in `locale`. */
  async function correctionPath(locale: Locale) {
    n += 1;
    const phone = `+9198765002${String(n).padStart(2, "0")}`;
    const base = fakeOrder({ phone, customer: { id: `gid://shopify/Customer/48${n}`, phone } });
    const order = store.add({ ...base, shippingAddress: { ...base.shippingAddress!, address1: "Dak Bhawan, Sansad Marg", city: "New Delhi", province: "Delhi", provinceCode: "DL", zip: "110001" } });
    const res = await postSigned(server, "/api/address-correction.request", { orderId: order.id.split("/").pop(), locale });
    expect(res.status).toBe(200);
    return { order, path: lastCorrectionLink(server.dataDir, phone).url.pathname };
  }

  it("granted: the tap finds the DIGIPIN under the page's own CSP, and the saved address puts it on the order", async () => {
    const { order, path } = await correctionPath("en");
    const context = await browser.newContext({ ...NARROW, geolocation: DAK_BHAWAN, permissions: ["geolocation"] });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("console", (m) => (m.type() === "error" ? problems.push(m.text()) : undefined));
    await page.goto(`${server.url}${path}`);
    await page.getByText(LOCATION_TEXTS.en.why).waitFor();
    // The script ran (its hash is in the CSP): the button shows; it asked nothing before the tap.
    const button = page.getByRole("button", { name: "Use my location" });
    await button.waitFor({ state: "visible" });
    await shot(page, "digipin-form-360");
    const [located] = await Promise.all([page.waitForNavigation(), button.tap()]);
    expect(located!.status()).toBe(200);
    await expect(page.locator("#digipin").inputValue()).resolves.toBe("39J-49L-L8T4");
    await expect(page.getByRole("status").filter({ hasText: "39J-49L-L8T4" }).textContent()).resolves.toMatch(/Your DIGIPIN is 39J-49L-L8T4, in (Central|New) Delhi\./);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, "digipin-located-360");
    const [saved] = await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Save address" }).tap()]);
    expect(saved!.status()).toBe(200);
    // The metafields, written by the server's job worker.
    await expect
      .poll(() => store.get(order.id)!.metafields.find((m) => m.key === "digipin")?.value, { timeout: 15_000 })
      .toBe("39J-49L-L8T4");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("denied: the page says so, and a typed DIGIPIN is saved instead", async () => {
    const { order, path } = await correctionPath("en");
    const context = await browser.newContext({ ...NARROW, geolocation: DAK_BHAWAN, permissions: [] });
    const page = await context.newPage();
    await page.goto(`${server.url}${path}`);
    await page.getByRole("button", { name: "Use my location" }).tap();
    await page.getByText(LOCATION_TEXTS.en.denied).waitFor();
    await page.locator("#digipin").fill("39j49ll8t4");
    const [saved] = await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Save address" }).tap()]);
    expect(saved!.status()).toBe(200);
    await expect.poll(() => store.get(order.id)!.metafields.find((m) => m.key === "digipin")?.value, { timeout: 15_000 }).toBe("39J-49L-L8T4");
    await context.close();
  });

  it.each(LOCALES)("in %s at 360 px: the form and the located form have no axe violation and fit the screen", async (locale) => {
    const { path } = await correctionPath(locale);
    // axe-core is injected as a script, which the page's CSP would refuse.
    const context = await browser.newContext({ ...NARROW, geolocation: DAK_BHAWAN, permissions: ["geolocation"], bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${server.url}${path}`);
    const t = LOCATION_TEXTS[locale];
    await page.getByText(t.legend).waitFor();
    expect(await allViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: t.useLocation }).tap()]);
    await expect(page.locator("#digipin").inputValue()).resolves.toBe("39J-49L-L8T4");
    await expect(page.locator("#loc-status").textContent()).resolves.toContain("39J-49L-L8T4");
    expect(await allViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, `digipin-located-${locale}-360`);
    await context.close();
  });
});
