import type { Browser, Page } from "playwright-core";
import { FakeShopify } from "../mocks/shopify/server";
import { servingLocalDemoShop } from "../mocks/shopify/tokens";
import { FakeOrderStore, fakeOrder } from "../mocks/shopify/orders";
import { OPERATIONS } from "~/core/shopify/operations";
import { lastCorrectionLink } from "../helpers/correction-sms";
import { postSigned, type RunningServer } from "../helpers/server";
import { shot } from "./modal-helpers";
import { allViolations, HOSTED_SIZES, tabTo } from "./hosted-helpers";
import { useBrowserStore } from "./browser-store";


/**
 * The address-correction form by the keyboard alone, at a phone's, a tablet's and a laptop's size: it
 * offers the countries the shop ships to (Shopify's `shipsToCountries`), the chosen country's states as
 * a list (shown by a button, the page runs no script), and the order gets the address in Shopify's
 * MailingAddressInput shape. No axe violation on any page.
 */
describe("the address form's countries and provinces (Chromium, keyboard only)", () => {
  let server: RunningServer;
  let browser: Browser;
  const fake = servingLocalDemoShop(new FakeShopify());
  const store = new FakeOrderStore();
  store.shipsTo = ["IN", "AU", "FR", "US"];
  store.install(fake);

  useBrowserStore({ fake }, (s, b) => {
    [server, browser] = [s, b];
  });

  /** Replaces the focused field's text by typing. */
  async function retype(page: Page, text: string) {
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type(text);
  }

  const focusedValue = (page: Page) => page.evaluate(() => (document.activeElement as HTMLSelectElement | HTMLInputElement | null)?.value ?? "");

  HOSTED_SIZES.forEach((size, i) => {
    it(`moves an order from India to New South Wales, Australia (${size.name})`, async () => {
      const phone = `+91987650010${i}`;
      const order = store.add(fakeOrder({ phone, customer: { id: `gid://shopify/Customer/77${i}`, phone } }));
      const res = await postSigned(server, "/api/address-correction.request", { orderId: order.id.split("/").pop() });
      expect(res.status).toBe(200);
      const { url } = lastCorrectionLink(server.dataDir, phone);

      const context = await browser.newContext({ ...size.device, bypassCSP: true }); // axe-core is injected as a script
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(`${server.url}${url.pathname}`);
      // The shop's countries, by name, and the order's state chosen in India's list.
      const countries = await page.locator("#countryCode option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
      expect(countries.sort()).toEqual(["AU", "FR", "IN", "US"]);
      await expect(page.locator("#province").evaluate((el) => (el as HTMLSelectElement).value)).resolves.toBe("MH");
      expect(await allViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.device.viewport!.width);
      await shot(page, `address-countries-india-${size.name}`);

      // Australia from the keyboard, then its states.
      await tabTo(page, "Country");
      await page.keyboard.type("Australia");
      await expect.poll(() => focusedValue(page)).toBe("AU");
      await tabTo(page, "Show this country's states and provinces");
      await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
      await expect(page.locator("#countryCode").evaluate((el) => (el as HTMLSelectElement).value)).resolves.toBe("AU");
      await expect(page.locator("#province option").allTextContents()).resolves.toEqual(expect.arrayContaining(["Choose…", "New South Wales", "Victoria"]));
      await expect(page.locator("#province").evaluate((el) => (el as HTMLSelectElement).value)).resolves.toBe("");
      expect(fake.callsTo(OPERATIONS.orderUpdate).filter((c) => (c.variables as { input: { id: string } }).input.id === order.id)).toHaveLength(0);
      expect(await allViolations(page)).toEqual([]);
      await shot(page, `address-countries-australia-${size.name}`);

      // Focus is on the new list, where the shopper goes on; the street and city follow on the way back up.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("province");
      await page.keyboard.type("New South Wales");
      await expect.poll(() => focusedValue(page)).toBe("NSW");
      await page.keyboard.press("Shift+Tab"); // City
      await retype(page, "Sydney");
      await page.keyboard.press("Shift+Tab"); // Apartment
      await page.keyboard.press("Shift+Tab"); // Address
      await retype(page, "12 George Street");
      await tabTo(page, "State"); // Australia names its regions states
      await expect.poll(() => focusedValue(page)).toBe("NSW");
      await tabTo(page, /^Postal code/);
      await retype(page, "2000");
      await tabTo(page, "Save address");
      const [saved] = await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
      expect(saved!.status()).toBe(200);
      await page.getByText("New South Wales, Australia").waitFor();
      expect(await allViolations(page)).toEqual([]);
      await shot(page, `address-countries-saved-${size.name}`);

      const [update] = fake.callsTo(OPERATIONS.orderUpdate).filter((c) => (c.variables as { input: { id: string } }).input.id === order.id);
      expect(update.variables).toEqual({
        input: {
          id: order.id,
          shippingAddress: {
            firstName: "Asha",
            lastName: "Verma",
            phone: "+919876543210", // the address's own, kept
            address1: "12 George Street",
            address2: null,
            city: "Sydney",
            province: "New South Wales",
            provinceCode: null,
            zip: "2000",
            countryCode: "AU",
          },
        },
      });
      expect(errors).toEqual([]);
      await context.close();
    });
  });
});
