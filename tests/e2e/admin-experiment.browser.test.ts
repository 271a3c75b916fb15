import type { Page } from "playwright-core";
import { until, seriousViolations } from "../helpers/browser";
import { useAdminBrowser } from "../helpers/admin-browser";
import { deliverWebhook, postSigned, type RunningServer } from "../helpers/server";
import { orderCreatedPayload } from "../helpers/webhooks";
import { shot } from "./modal-helpers";

/**
 * The holdout experiment in Chromium (local mode, no App Bridge): the merchant starts it on the Settings
 * page, shoppers reach send-otp and their orders and outcomes arrive as Shopify sends them, and the
 * report page shows the per-group table and the chart; Home shows the sentence. axe-core clean.
 */
describe("the holdout experiment's settings card and report page in Chromium", () => {
  const admin = useAdminBrowser();
  let server: RunningServer;
  let page: Page;
  beforeAll(() => {
    ({ server, page } = admin);
  });

  it.each([
    [360, 640],
    [768, 1024],
    [1280, 800],
  ])("at %dx%d the card says before the start whether the share and period can reach a result at the store's pace", { timeout: 60_000 }, async (width, height) => {
    await page.setViewportSize({ width, height });
    try {
      await page.goto(`${server.url}/app/settings/experiment`, { waitUntil: "networkidle" });
      const share = page.getByLabel("Shoppers not asked to verify");
      // A fresh store: no COD orders in 90 days, so no share and period can get there, and the card says so.
      await share.focus();
      await page.keyboard.press("ControlOrMeta+a");
      await page.keyboard.type("10");
      await until(() => page.getByText("This cannot reach a result at your pace").count()).toBe(1);
      await until(() => page.getByText(/^At 10 %, a result needs 990 delivered or failed COD orders: more than 365 days at your pace \(0 COD orders in the last 90 days\)\. No share from 5 to 30 %/).count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `experiment-reach-${width}`);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it("starts from Settings, fills from real requests, and reads on the report page and Home", { timeout: 120_000 }, async () => {
    await page.goto(`${server.url}/app/settings/costs`, { waitUntil: "networkidle" });
    await page.getByLabel("Cost of one failed COD parcel").fill("250");
    await page.getByRole("button", { name: "Save costs" }).click();
    await until(() => page.getByRole("status").filter({ hasText: "Costs saved" }).count()).toBe(1);
    await page.goto(`${server.url}/app/settings/experiment`, { waitUntil: "networkidle" });
    await page.getByLabel("Shoppers not asked to verify").fill("30");
    await page.getByRole("button", { name: "Start the experiment" }).click();
    await until(() => page.getByText(/Experiment started: 30 % of shoppers/).count()).toBe(1);
    await until(() => page.getByRole("button", { name: "Stop the experiment" }).count()).toBe(1);
    await shot(page, "experiment-settings");

    // Shoppers reach the button; each order's outcome arrives as Shopify sends it (orders/fulfilled's body is a
    // fulfilled order, orders/cancelled's a cancelled one). send-otp's answer tells each shopper's arm, so each
    // arm's first shopper fails and the next three are delivered: both groups have both outcomes, whatever
    // the draw, and the report has something to compare.
    const address = (phone: string) => ({ first_name: "Asha", phone, address1: "Flat 12, Shanti Apartments, MG Road", city: "Mumbai", province: "Maharashtra", zip: "400 001", country_code: "IN" });
    const arms = { holdout: 0, verify: 0 };
    let shoppers = 0;
    while (shoppers < 30 || arms.holdout < 4 || arms.verify < 4) {
      const phone = `+9198${String(20_000_000 + shoppers * 7919).padStart(8, "0")}`;
      // Each shopper from a network of their own, as real shoppers come: one address asking for many numbers is refused past its share.
      const sent = await postSigned(server, "/send-otp", { phone }, { "x-forwarded-for": `198.18.${shoppers % 250}.${(shoppers % 200) + 1}` });
      expect(sent.status).toBe(200);
      const answer = (await sent.json()) as { skipped?: boolean; reason?: string };
      const arm = answer.skipped && answer.reason === "otp_disabled" ? "holdout" : "verify";
      const k = arms[arm]++;
      const failed = k % 4 === 0;
      const order = orderCreatedPayload({ phone, shipping_address: address(phone) });
      expect((await deliverWebhook(server, "orders/create", order)).status).toBe(200);
      const outcome = failed ? { topic: "orders/cancelled", body: { ...order, cancelled_at: new Date().toISOString() } } : { topic: "orders/fulfilled", body: { ...order, fulfillment_status: "fulfilled" } };
      if (k % 10 !== 9) expect((await deliverWebhook(server, outcome.topic, outcome.body)).status).toBe(200);
      shoppers++;
    }
    expect(arms.holdout + arms.verify).toBe(shoppers);

    const response = await page.goto(`${server.url}/app/experiment`, { waitUntil: "networkidle" });
    expect(response?.status()).toBe(200);
    await until(() => page.getByText("Not a result yet").count()).toBe(1);
    const table = page.locator("table", { hasText: "Failure rate (95 % interval)" });
    await until(() => table.count()).toBe(1);
    const codOrders = await table.locator("tr", { hasText: "COD orders" }).locator("td").allTextContents();
    expect(codOrders.slice(-2).map(Number).reduce((a, b) => a + b, 0)).toBe(shoppers);
    // Polaris Viz draws the chart once the page runs.
    await until(() => page.locator("svg rect, svg path").count()).toBeGreaterThan(2);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "experiment-report");
    await page.locator("svg").last().scrollIntoViewIfNeeded();
    await shot(page, "experiment-chart");

    await page.goto(`${server.url}/app`, { waitUntil: "networkidle" });
    await until(() => page.getByText(/^So far failed deliveries went from \d+ % to \d+ %/).count()).toBe(1);
    await shot(page, "experiment-home");
  });
});
