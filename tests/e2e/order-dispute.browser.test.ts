import path from "node:path";
import Database from "better-sqlite3";
import type { Browser } from "playwright-core";
import { FakeShopify } from "../mocks/shopify/server";
import { servingLocalDemoShop } from "../mocks/shopify/tokens";
import { installDefaultHandlers } from "../mocks/shopify/handlers";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import { readOutbox } from "../helpers/outbox";
import { type RunningServer, deliverOrderCreated } from "../helpers/server";
import { orderCreatedPayload } from "../helpers/webhooks";
import { shot } from "./modal-helpers";
import { allViolations, HOSTED_SIZES, tabTo } from "./hosted-helpers";
import { useBrowserStore } from "./browser-store";

/**
 * "I did not place this order" on the hosted confirmation page, by the keyboard alone at a phone's, a
 * tablet's and a laptop's size: the first press asks again (what telling the shop means, a second and
 * explicit button, a way back), the answer is recorded once, and an undo is offered while the shop is
 * not told yet; undone, the order can be confirmed as before. No axe violation on any page.
 */
const BUYER = "+919812345670";

describe("the shopper says they did not place the order, and takes it back (Chromium, keyboard only)", () => {
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

  function disputes(): { disputedAt: unknown }[] {
    const db = new Database(path.join(server.dataDir, "app.db"), { readonly: true });
    try {
      return db.prepare(`SELECT "disputedAt" FROM "OrderConfirmation" WHERE "phone" = ?`).all(BUYER) as { disputedAt: unknown }[];
    } finally {
      db.close();
    }
  }

  it("asks again, records once, offers the undo, and undone shows the order again, at every size", async () => {
    const order = orderCreatedPayload({ phone: BUYER, shipping_address: { phone: BUYER, country_code: "IN" } });
    expect((await deliverOrderCreated(server, order)).status).toBe(200);
    const linkSms = () => readOutbox(server.dataDir).filter((m) => m.to === BUYER && /\/vc\//.test(m.body));
    await expect.poll(() => linkSms().length, { timeout: 20_000 }).toBe(1);
    const url = new URL(/https?:\/\/\S+/.exec(linkSms()[0].body)![0]);

    for (const size of HOSTED_SIZES) {
      const context = await browser.newContext({ ...size.device, bypassCSP: true }); // axe-core is injected as a script
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(`${server.url}${url.pathname}`);
      expect(await allViolations(page)).toEqual([]);

      await tabTo(page, "I did not place this order");
      await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
      await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Did you not place this order?");
      await page.getByText("Nothing is cancelled by this").waitFor();
      expect(disputes()).toEqual([{ disputedAt: null }]); // asking is not telling
      expect(await allViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.device.viewport!.width);
      await shot(page, `order-dispute-ask-${size.name}`);

      await tabTo(page, "Yes, I did not place this order");
      await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
      await page.getByRole("heading", { name: "Thank you for telling us" }).waitFor();
      await page.getByText(/you can undo it for 5 more minutes/).waitFor();
      expect(disputes()).toEqual([{ disputedAt: expect.anything() }]);
      expect(await allViolations(page)).toEqual([]);
      await shot(page, `order-dispute-sent-${size.name}`);

      // Sent again (a second press that got through, a resent form) it is still the one dispute.
      const first = disputes()[0].disputedAt;
      const again = await page.evaluate(async () => {
        const nonce = (document.querySelector('input[name="nonce"]') as HTMLInputElement).value;
        const r = await fetch(location.href, { method: "POST", body: new URLSearchParams({ intent: "not_mine", nonce }) });
        return r.status;
      });
      expect(again).toBe(200);
      expect(disputes()).toEqual([{ disputedAt: first }]);

      await tabTo(page, "Undo: I placed this order");
      await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
      await page.getByRole("status").filter({ hasText: "Undone: the shop will not be told." }).waitFor();
      await expect(page.getByRole("button", { name: "Text me a code" }).isVisible()).resolves.toBe(true);
      expect(disputes()).toEqual([{ disputedAt: null }]);
      expect(await allViolations(page)).toEqual([]);
      await shot(page, `order-dispute-undone-${size.name}`);
      expect(errors).toEqual([]);
      await context.close();
    }
    // Never told: no cod-disputed on the order.
    expect([...(tagged.get(order.admin_graphql_api_id) ?? [])]).not.toContain("cod-disputed");
  });
});
