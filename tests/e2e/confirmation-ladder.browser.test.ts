import type { Browser, BrowserContext, Page } from "playwright-core";
import { adminContext, collectPageErrors, launchBrowser, seriousViolations, until } from "../helpers/browser";
import { deliverOrderCreated, startServer, type RunningServer } from "../helpers/server";
import { orderCreatedPayload } from "../helpers/webhooks";
import { sendingThrough, LOCAL_TEMPLATES, startFakeTwilio, type FakeTwilio } from "../mocks/twilio";
import { shot } from "./modal-helpers";

/**
 * The confirmation ladder in Chromium, on the built server in local mode with the fake Twilio: the merchant
 * sets the ladder on Settings (a call at once, "needs a person" right after), an unverified COD order
 * arrives, the call rings on the fake phone page, the shopper does not answer, and the order is on the
 * Needs a person list, where the merchant records "confirmed on the phone".
 */
const BUYER = "+919812345690";

describe("the confirmation ladder in Chromium", () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let twilio: FakeTwilio;
  const errors: string[] = [];

  beforeAll(async () => {
    twilio = await startFakeTwilio({ templates: LOCAL_TEMPLATES });
    [server, browser] = await Promise.all([
      startServer({
        NODE_ENV: "development",
        ...sendingThrough(twilio),
      }),
      launchBrowser(),
    ]);
    // The server's public URL (SHOPIFY_APP_URL) has no port: the fake's signed webhooks go to the port it listens on.
    twilio.deliverWith((request) => {
      const url = new URL(request.url);
      return fetch(`${server.url}${url.pathname}${url.search}`, { method: "POST", headers: request.headers, body: request.body, duplex: "half" } as RequestInit);
    });
    context = await adminContext(browser);
    page = await context.newPage();
    collectPageErrors(page, errors);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
    await twilio?.close();
  });

  it("sets the ladder in Settings, rings the shopper, and lists the unanswered order for a person", { timeout: 120_000 }, async () => {
    await page.goto(`${server.url}/app/settings/confirmation`, { waitUntil: "networkidle" });
    await page.getByLabel("Voice call").fill("0");
    await page.getByLabel("Needs a person").fill("1");
    const bar = page.getByRole("region", { name: "Unsaved changes" });
    await until(() => bar.count()).toBe(1);
    await bar.getByRole("button", { name: "Save" }).click();
    await until(() => page.getByRole("status").filter({ hasText: "Confirmation messages saved" }).count()).toBe(1);
    expect(await page.getByLabel("Voice call").inputValue()).toBe("0");

    const order = orderCreatedPayload({ phone: BUYER, total_price: "1299.00", shipping_address: { phone: BUYER, country_code: "IN" } });
    expect((await deliverOrderCreated(server, order)).status).toBe(200);
    await expect.poll(() => twilio.calls.length, { timeout: 30_000 }).toBe(1);

    // The fake phone rings: what the call says, and the keys to press.
    const phone = await context.newPage();
    await phone.goto(`${twilio.url}/phone`);
    await expect(phone.locator("li.call.ringing").count()).resolves.toBe(1);
    expect(await phone.locator("li.call").innerText()).toContain(`order ${order.name.replace("#", "")}`);
    await shot(phone, "ladder-fake-phone-ringing");
    await phone.getByRole("button", { name: "no answer" }).click();
    await expect(phone.getByText(/call no-answer: 200/).count()).resolves.toBe(1);
    await phone.close();

    // No answer: "needs a person" comes at once (the worker runs right after the report).
    await expect
      .poll(
        async () => {
          await page.goto(`${server.url}/app/needs-a-person`, { waitUntil: "networkidle" });
          return page.getByRole("heading", { level: 2, name: new RegExp(order.name) }).count();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBe(1);
    expect(await page.getByText("Ladder, Call: no answer").count()).toBe(1);
    expect(await page.getByText(/for the shopper \(Asia\/Kolkata\)/).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "ladder-needs-a-person");

    await page.getByRole("button", { name: "Confirmed on the phone" }).click();
    await until(() => page.getByText(/confirmed: the order is released/).count()).toBe(1);
    await until(() => page.getByText("No order needs a person").count()).toBe(1);
    expect(errors).toEqual([]);
  });
});
