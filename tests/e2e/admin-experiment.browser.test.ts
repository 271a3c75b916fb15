import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchBrowser, until, seriousViolations, adminContext, collectPageErrors } from "../helpers/browser";
import { deliverWebhook, postSigned, startServer, type RunningServer } from "../helpers/server";
import { orderCreatedPayload } from "../helpers/webhooks";
import { shot } from "./modal-helpers";

/**
 * The holdout experiment in Chromium (local mode, no App Bridge): the merchant starts it on the Settings
 * page, shoppers reach send-otp and their orders and outcomes arrive as Shopify sends them, and the
 * report page shows the per-group table and the chart; Home shows the sentence. axe-core clean.
 */
describe("the holdout experiment's settings card and report page in Chromium", () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ NODE_ENV: "development" }), launchBrowser()]);
    context = await adminContext(browser);
    page = await context.newPage();
    collectPageErrors(page, errors);
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
  });
  afterEach(() => {
    expect(errors).toEqual([]);
  });

  it("starts from Settings, fills from real requests, and reads on the report page and Home", { timeout: 120_000 }, async () => {
    await page.goto(`${server.url}/app/settings`, { waitUntil: "networkidle" });
    await page.getByLabel("Shoppers not asked to verify").fill("30");
    await page.getByLabel("Cost of one failed COD parcel").fill("250");
    await page.getByRole("button", { name: "Save costs" }).click();
    await until(() => page.getByText("Costs saved.").count()).toBe(1);
    await page.getByLabel("Shoppers not asked to verify").fill("30");
    await page.getByRole("button", { name: "Start the experiment" }).click();
    await until(() => page.getByText(/Experiment started: 30 % of shoppers/).count()).toBe(1);
    await until(() => page.getByRole("button", { name: "Stop the experiment" }).count()).toBe(1);
    await shot(page, "experiment-settings");

    // Shoppers reach the button; each order's outcome arrives as Shopify sends it.
    const address = (phone: string) => ({ first_name: "Asha", phone, address1: "Flat 12, Shanti Apartments, MG Road", city: "Mumbai", province: "Maharashtra", zip: "400 001", country_code: "IN" });
    for (let i = 0; i < 30; i++) {
      const phone = `+9198${String(20_000_000 + i * 7919).padStart(8, "0")}`;
      const sent = await postSigned(server, "/send-otp", { phone });
      expect(sent.status).toBeLessThan(500);
      const failed = i % 4 === 0;
      const order = orderCreatedPayload({ phone, shipping_address: address(phone), cancelled_at: failed ? new Date().toISOString() : null });
      expect((await deliverWebhook(server, "orders/create", order)).status).toBe(200);
      if (i % 10 !== 9) expect((await deliverWebhook(server, failed ? "orders/cancelled" : "orders/fulfilled", order)).status).toBe(200);
    }

    const response = await page.goto(`${server.url}/app/experiment`, { waitUntil: "networkidle" });
    expect(response?.status()).toBe(200);
    await until(() => page.getByText("Not a result yet").count()).toBe(1);
    const table = page.locator("table", { hasText: "Failure rate (95 % interval)" });
    await until(() => table.count()).toBe(1);
    const codOrders = await table.locator("tr", { hasText: "COD orders" }).locator("td").allTextContents();
    expect(codOrders.slice(-2).map(Number).reduce((a, b) => a + b, 0)).toBe(30);
    // Polaris Viz draws the chart once the page runs.
    await until(() => page.locator("svg rect, svg path").count()).toBeGreaterThan(2);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "experiment-report");
    await page.locator("svg").last().scrollIntoViewIfNeeded();
    await shot(page, "experiment-chart");

    await page.goto(`${server.url}/app`, { waitUntil: "networkidle" });
    await until(() => page.getByText(/^So far failed deliveries went from/).count()).toBe(1);
    await shot(page, "experiment-home");
  });
});
