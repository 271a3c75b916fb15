import type { Browser } from "playwright-core";
import { FakeShopify } from "../mocks/shopify/server";
import { servingLocalDemoShop } from "../mocks/shopify/tokens";
import { installDefaultHandlers } from "../mocks/shopify/handlers";
import { FakeOrderStore, fakeOrder } from "../mocks/shopify/orders";
import { FakeDeliveryStore } from "../mocks/shopify/delivery";
import { adminContext, seriousViolations, until } from "../helpers/browser";
import { readOutbox } from "../helpers/outbox";
import { postSigned, deliverOrderCreated, deliverWebhook, type RunningServer } from "../helpers/server";
import { fulfillmentEventBody, orderCreatedPayload } from "../helpers/webhooks";
import { HOSTED_SIZES, tabTo } from "./hosted-helpers";
import { shot } from "./modal-helpers";
import { useBrowserStore } from "./browser-store";

/**
 * The failed-delivery page on the built server, as the shopper meets it: the carrier reports a failed
 * attempt, the shopper's text links to the page, which shows the order (items, amount due, address, the
 * courier's phone masked) at a phone's, a tablet's and a laptop's size; "Correct my address" while a
 * correction of the order is already open leads to that correction's form, by keyboard alone.
 */
const BUYER = "+919812345678";

describe("the failed-delivery page in Chromium", () => {
  let server: RunningServer;
  let browser: Browser;
  const fake = servingLocalDemoShop(new FakeShopify());
  const orders = new FakeOrderStore();
  const delivery = new FakeDeliveryStore();
  installDefaultHandlers(fake);
  orders.install(fake);
  delivery.install(fake);

  useBrowserStore({ fake }, (s, b) => {
    [server, browser] = [s, b];
  });

  it("shows the order at three sizes, axe clean, and 'Correct my address' reaches the open correction's form by keyboard", { timeout: 120_000 }, async () => {
    const stored = orders.add(fakeOrder({ phone: BUYER }));
    delivery.add({ id: stored.id, name: stored.name, outstanding: "1299.00", currency: "INR" });
    const placed = orderCreatedPayload({
      id: Number(stored.id.split("/").pop()),
      admin_graphql_api_id: stored.id,
      name: stored.name,
      phone: BUYER,
      total_price: "1299.00",
      currency: "INR",
      customer_locale: "en-IN",
      shipping_address: { first_name: "Asha", phone: BUYER, address1: "MG Road", city: "Pune", zip: "411001", country_code: "IN" }, // Shopify's copy (the fake order's) is what the page shows
      line_items: [{ id: 1, product_id: 7001, variant_id: 8001, quantity: 1, price: "1299.00", title: "Cotton kurta" }],
    });
    expect((await deliverOrderCreated(server, placed)).status).toBe(200);
    expect((await deliverWebhook(server, "fulfillment_events/create", fulfillmentEventBody(stored.id, "failure"))).status).toBe(200);
    const drTexts = () => readOutbox(server.dataDir).filter((m) => m.to === BUYER && /\/dr\//.test(m.body));
    await expect.poll(() => drTexts().length, { timeout: 30_000 }).toBe(1);
    const drPath = new URL(/https?:\/\/\S+/.exec(drTexts()[0].body)![0]).pathname;

    for (const size of HOSTED_SIZES) {
      const context = await browser.newContext({ ...size.device, bypassCSP: true }); // axe-core is injected as a script
      const page = await context.newPage();
      expect((await page.goto(`${server.url}${drPath}`))!.status()).toBe(200);
      await expect(page.getByRole("heading", { name: "We could not deliver your order" }).isVisible()).resolves.toBe(true);
      const summary = page.locator("dl.order");
      await expect(summary.textContent()).resolves.toMatch(/ItemsCotton kurtaTo pay on delivery₹1,299Delivery address.*MG Road.*Pune 41100.*Maharashtra.*Phone the courier calls\+9198•••5678/);
      await expect(page.locator("#phone").inputValue()).resolves.toBe("+91 ");
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.device.viewport!.width);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `delivery-recovery-${size.name}`);
      await context.close();
    }

    // Another way in opens a correction first (its link texted): the page reuses it.
    const asked = await postSigned(server, "/api/address-correction.request", { orderId: stored.id.split("/").pop() });
    expect(await asked.json()).toMatchObject({ status: "sent" });

    const context = await browser.newContext({ ...HOSTED_SIZES[0].device, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${server.url}${drPath}`);
    await tabTo(page, "Correct my address");
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
    await expect(page.getByRole("heading", { name: "Thank you" }).isVisible()).resolves.toBe(true);
    const link = page.getByRole("link", { name: "Correct my address" });
    await expect(link.isVisible()).resolves.toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await tabTo(page, "Correct my address");
    expect(await page.evaluate(() => (document.activeElement as HTMLAnchorElement).href)).toBe(await link.getAttribute("href"));
    // The link names the app's public origin; the test server listens elsewhere, so its path is opened there.
    const formPath = new URL((await link.getAttribute("href"))!).pathname;
    expect(formPath).toMatch(/^\/apps\/cod\/ac\/[A-Za-z0-9_-]{32}$/);
    await page.goto(`${server.url}${formPath}`);
    await expect(page.getByRole("heading", { name: "Confirm your delivery address" }).isVisible()).resolves.toBe(true);
    await context.close();
  });

  it("the merchant's Deliveries page lists it at 360x640 in a table the keyboard can scroll, axe clean", { timeout: 60_000 }, async () => {
    const context = await adminContext(browser);
    const page = await context.newPage();
    await page.setViewportSize({ width: 360, height: 640 });
    expect((await page.goto(`${server.url}/app/deliveries`, { waitUntil: "networkidle" }))!.status()).toBe(200);
    const region = page.getByRole("region", { name: "Deliveries at risk" });
    await until(() => region.count()).toBe(1);
    await until(() => region.locator("tbody tr").count()).toBeGreaterThan(0);
    await region.focus();
    expect(await region.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "admin-deliveries-360");
    await context.close();
  });
});
