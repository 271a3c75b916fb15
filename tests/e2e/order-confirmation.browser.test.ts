import type { Browser } from "playwright-core";
import { FakeShopify } from "../mocks/shopify/server";
import { servingLocalDemoShop } from "../mocks/shopify/tokens";
import { installDefaultHandlers } from "../mocks/shopify/handlers";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import { seriousViolations } from "../helpers/browser";
import { readOutbox } from "../helpers/outbox";
import { type RunningServer, deliverOrderCreated } from "../helpers/server";
import { orderCreatedPayload } from "../helpers/webhooks";
import { PHONE, shot } from "./modal-helpers";
import { useBrowserStore } from "./browser-store";

/**
 * Verification after purchase from outside, on the built server: an unverified COD order arrives
 * (a signed orders/create), the shopper gets a text with a link, opens it on a phone, asks for a code,
 * types it, and the order's tags change in the store.
 */
const BUYER = "+919812345678";


describe("an unverified COD order confirmed by the shopper in Chromium on a phone", () => {
  let server: RunningServer;
  let browser: Browser;
  const fake = servingLocalDemoShop(new FakeShopify());
  const tagged = new Map<string, Set<string>>();
  const store = new FakeEnforcementStore(tagged);
  installDefaultHandlers(fake, {}, tagged);
  store.install(fake);

  useBrowserStore({ fake }, (s, b) => {
    [server, browser] = [s, b];
  });

  it("is tagged cod-pending, texted a link, confirmed with a code on the hosted page, then tagged cod-verified", async () => {
    const order = orderCreatedPayload({ phone: BUYER, shipping_address: { phone: BUYER, country_code: "IN" } });
    expect((await deliverOrderCreated(server, order)).status).toBe(200);

    // The worker (every few seconds, and right after the webhook) tags the order and texts the link.
    await expect.poll(() => [...(tagged.get(order.admin_graphql_api_id) ?? [])].filter((t) => !t.startsWith("cod-risk:")), { timeout: 20_000 }).toEqual(["cod-pending"]);
    const linkSms = () => readOutbox(server.dataDir).filter((m) => m.to === BUYER && /\/vc\//.test(m.body));
    await expect.poll(() => linkSms().length, { timeout: 20_000 }).toBe(1);
    const url = new URL(/https?:\/\/\S+/.exec(linkSms()[0].body)![0]);
    expect(url.pathname).toMatch(/^\/apps\/cod\/vc\/[A-Za-z0-9_-]{32}$/);

    const page = await browser.newPage(PHONE);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const first = await page.goto(`${server.url}${url.pathname}`);
    expect(first!.status()).toBe(200);
    await expect(page.getByRole("heading", { name: "Confirm your order" }).isVisible()).resolves.toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, "order-confirmation-start");

    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Text me a code" }).click()]);
    const codeSms = () => readOutbox(server.dataDir).filter((m) => m.to === BUYER && !/\/vc\//.test(m.body));
    await expect.poll(() => codeSms().length, { timeout: 10_000 }).toBe(1);
    const code = /\b(\d{6})\b/.exec(codeSms()[0].body)![1];

    await page.getByLabel("6-digit code").fill(code === "000000" ? "111111" : "000000");
    const [wrong] = await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Confirm my order" }).click()]);
    expect(wrong!.status()).toBe(422);
    await expect(page.getByRole("alert").textContent()).resolves.toContain("That code is not right");
    await shot(page, "order-confirmation-wrong-code");

    await page.getByLabel("6-digit code").fill(code);
    const [right] = await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Confirm my order" }).click()]);
    expect(right!.status()).toBe(200);
    await expect(page.getByRole("heading", { name: "Order confirmed" }).isVisible()).resolves.toBe(true);
    await shot(page, "order-confirmation-done");

    await expect.poll(() => [...(tagged.get(order.admin_graphql_api_id) ?? [])].filter((t) => !t.startsWith("cod-risk:")), { timeout: 20_000 }).toEqual(["cod-verified"]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows the order number and the phone left to right inside Arabic text", async () => {
    const buyer = "+966512345678";
    const order = orderCreatedPayload({ phone: buyer, shipping_address: { phone: buyer, country_code: "SA" } });
    expect((await deliverOrderCreated(server, order)).status).toBe(200);
    const linkSms = () => readOutbox(server.dataDir).filter((m) => m.to === buyer && /\/vc\//.test(m.body));
    await expect.poll(() => linkSms().length, { timeout: 20_000 }).toBe(1);
    const url = new URL(/https?:\/\/\S+/.exec(linkSms()[0].body)![0]);

    for (const device of [PHONE, { ...PHONE, viewport: { width: 360, height: 640 } }]) {
      const page = await browser.newPage({ ...device, bypassCSP: true }); // axe-core is injected as a script
      await page.goto(`${server.url}${url.pathname}?locale=ar`);
      await expect(page.evaluate(() => document.documentElement.dir)).resolves.toBe("rtl");
      const values = page.locator("p bdi");
      await expect(values.allTextContents()).resolves.toEqual([order.name, "+9665•••5678"]);
      // Left to right by markup, not left to the browser's "auto" guess on text without letters
      // (Chromium guesses right; the issue saw "1001#" elsewhere).
      await expect(values.evaluateAll((els) => els.map((el) => el.getAttribute("dir")))).resolves.toEqual(["ltr", "ltr"]);
      // On screen each value starts with its "#" or "+" at the left, as it is written.
      for (const value of await values.all()) {
        const [first, last] = await value.evaluate((el) => {
          const text = el.firstChild!;
          const left = (i: number) => {
            const range = document.createRange();
            range.setStart(text, i);
            range.setEnd(text, i + 1);
            return range.getBoundingClientRect().left;
          };
          return [left(0), left(text.textContent!.length - 1)];
        });
        expect(first, (await value.textContent()) ?? "").toBeLessThan(last);
      }
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `order-confirmation-ar-${device.viewport.width}x${device.viewport.height}`);
      await page.close();
    }
  });
});
