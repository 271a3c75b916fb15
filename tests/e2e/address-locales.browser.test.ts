import type { Browser, Page } from "playwright-core";
import { FakeShopify } from "../mocks/shopify/server";
import { servingLocalDemoShop } from "../mocks/shopify/tokens";
import { FakeOrderStore, fakeOrder } from "../mocks/shopify/orders";
import { lastCorrectionLink } from "../helpers/correction-sms";
import { postSigned, type RunningServer } from "../helpers/server";
import { shot } from "./modal-helpers";
import { allViolations, HOSTED_SIZES, tabTo } from "./hosted-helpers";
import { useBrowserStore } from "./browser-store";


/**
 * The address form of an Indian order read in Hindi and Arabic, by the keyboard alone at a phone's, a
 * tablet's and a laptop's size, axe clean: the phone's example is India's (+91), never the UAE's; India's
 * states are named in the page's language; the saved address reads "Pune 411001" as India writes it;
 * choosing the United States turns "PIN code" into the ZIP code's label and the example into a US number.
 */
describe("the address form in Hindi and Arabic (Chromium, keyboard only)", () => {
  let server: RunningServer;
  let browser: Browser;
  const fake = servingLocalDemoShop(new FakeShopify());
  const store = new FakeOrderStore();
  store.shipsTo = ["IN", "US", "AE"];
  store.install(fake);

  useBrowserStore({ fake }, (s, b) => {
    [server, browser] = [s, b];
  });

  /** An Indian order's correction link, asked in `locale`, opened at `size`. */
  async function openForm(locale: "hi" | "ar", i: number, size: (typeof HOSTED_SIZES)[number]) {
    const phone = `+9198765002${locale === "hi" ? 1 : 2}${i}`;
    const order = store.add(fakeOrder({ phone, customer: { id: `gid://shopify/Customer/88${locale === "hi" ? 1 : 2}${i}`, phone } }));
    const res = await postSigned(server, "/api/address-correction.request", { orderId: order.id.split("/").pop(), locale });
    expect(res.status).toBe(200);
    const { url } = lastCorrectionLink(server.dataDir, phone);
    const context = await browser.newContext({ ...size.device, bypassCSP: true }); // axe-core is injected as a script
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${server.url}${url.pathname}`);
    return { page, context, errors };
  }

  const text = (page: Page, selector: string) => page.locator(selector).evaluate((el) => el.textContent ?? "");
  const selectedText = (page: Page, selector: string) => page.locator(selector).evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent ?? "");

  HOSTED_SIZES.forEach((size, i) => {
    it(`Arabic on an Indian order: India's example and state names, "Pune 411001" (${size.name})`, async () => {
      const { page, context, errors } = await openForm("ar", i, size);
      expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
      const hint = await text(page, "#phone-hint");
      expect(hint).toContain("+91 ");
      expect(hint).not.toContain("+971");
      expect(await selectedText(page, "#province")).toBe("ماهاراشترا");
      expect(await page.locator("#province option").allTextContents()).toEqual(expect.arrayContaining(["دلهي", "كيرالا", "البنغال الغربية"]));
      await expect(page.getByLabel("الولاية").count()).resolves.toBe(1);
      await expect(page.getByLabel("الرمز البريدي (PIN)").count()).resolves.toBe(1);
      expect(await allViolations(page)).toEqual([]);
      await shot(page, `address-ar-india-${size.name}`);

      // The 5-digit PIN of the order, corrected by the keyboard, and saved.
      await tabTo(page, "الرمز البريدي (PIN)");
      await page.keyboard.press("ControlOrMeta+a");
      await page.keyboard.type("411001");
      await tabTo(page, "حفظ العنوان");
      const [saved] = await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
      expect(saved!.status()).toBe(200);
      const address = await text(page, ".addr");
      expect(address).toContain("Pune 411001");
      expect(address).not.toContain("411001 Pune");
      expect(address).toContain("ماهاراشترا");
      expect(await allViolations(page)).toEqual([]);
      await shot(page, `address-ar-saved-${size.name}`);
      expect(errors).toEqual([]);
      await context.close();
    });

    it(`Hindi: PIN code for India, the ZIP code's label and a US example once the US is chosen (${size.name})`, async () => {
      const { page, context, errors } = await openForm("hi", i, size);
      await expect(page.getByLabel("पिन कोड").count()).resolves.toBe(1);
      expect(await selectedText(page, "#province")).toBe("महाराष्ट्र");
      expect(await text(page, "#phone-hint")).toContain("+91 ");
      expect(await allViolations(page)).toEqual([]);
      await shot(page, `address-hi-india-${size.name}`);

      await tabTo(page, "देश");
      // The arrows through the countries (named in Hindi) to the United States.
      for (let n = 0; n < 3 && (await page.evaluate(() => (document.activeElement as HTMLSelectElement).value)) !== "US"; n++) await page.keyboard.press("ArrowDown");
      for (let n = 0; n < 3 && (await page.evaluate(() => (document.activeElement as HTMLSelectElement).value)) !== "US"; n++) await page.keyboard.press("ArrowUp");
      await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLSelectElement).value)).toBe("US");
      await tabTo(page, "इस देश के राज्य दिखाएँ");
      await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
      await expect(page.locator("#countryCode").evaluate((el) => (el as HTMLSelectElement).value)).resolves.toBe("US");
      await expect(page.getByLabel("पिन कोड").count()).resolves.toBe(0);
      await expect(page.getByLabel("ज़िप कोड").count()).resolves.toBe(1);
      await expect(page.getByLabel("राज्य", { exact: true }).count()).resolves.toBe(1);
      const hint = await text(page, "#phone-hint");
      expect(hint).toContain("+1 ");
      expect(await allViolations(page)).toEqual([]);
      await shot(page, `address-hi-us-${size.name}`);
      expect(errors).toEqual([]);
      await context.close();
    });
  });
});
