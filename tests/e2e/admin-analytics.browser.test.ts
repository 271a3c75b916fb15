import type { Page } from "playwright-core";
import { seriousViolations, until } from "../helpers/browser";
import { useAdminBrowser } from "../helpers/admin-browser";
import { deliverWebhook, type RunningServer } from "../helpers/server";
import { orderCreatedPayload } from "../helpers/webhooks";
import { shot } from "./modal-helpers";

/**
 * The delivery analytics page in Chromium (local mode, no App Bridge): COD orders delivered to the built
 * server as Shopify sends them (orders/create, then orders/fulfilled or orders/cancelled), read on the page:
 * the summary, the worst postal codes with the prepaid-only estimate, a small area shown as "too few",
 * the CSV fetched and saved by the page's button, no serious axe violation.
 */
describe("the delivery analytics page in Chromium", () => {
  const admin = useAdminBrowser();
  let server: RunningServer;
  let page: Page;

  async function order(zip: string, outcome: "delivered" | "failed" | null, i: number) {
    const payload = orderCreatedPayload({
      shipping_address: { first_name: "Asha", phone: `9876500${String(i).padStart(3, "0")}`, zip, country_code: "IN" },
      line_items: [{ id: 1, product_id: 632910392, title: zip.startsWith("41") ? "Kurta" : "Saree", quantity: 1, price: "799.00" }],
      note_attributes: [{ name: "_cod_source", value: i % 2 ? "utm_source=facebook&utm_medium=cpc" : "ref=www.google.com" }],
    });
    expect((await deliverWebhook(server, "orders/create", payload)).status).toBe(200);
    if (outcome === "delivered") expect((await deliverWebhook(server, "orders/fulfilled", { ...payload, fulfillment_status: "fulfilled" })).status).toBe(200);
    if (outcome === "failed") expect((await deliverWebhook(server, "orders/cancelled", { ...payload, cancelled_at: new Date().toISOString() })).status).toBe(200);
  }

  beforeAll(async () => {
    ({ server, page } = admin);
    let i = 0;
    for (let n = 0; n < 16; n++) await order("411 001", "delivered", i++);
    for (let n = 0; n < 8; n++) await order("411 001", "failed", i++);
    for (let n = 0; n < 2; n++) await order("560001", null, i++);
    await order("560001", "failed", i++);
  }, 120_000);

  it("shows where COD fails, sets the cost of a failed parcel, and downloads the CSV", { timeout: 90_000 }, async () => {
    const response = await page.goto(`${server.url}/app/deliveries/analytics`, { waitUntil: "networkidle" });
    expect(response?.status()).toBe(200);
    await until(() => page.getByText(/^27 COD orders placed in the last 90 days: 16 delivered, 9 failed, 2 still open\./).count()).toBe(1);
    await until(() => page.getByText(/Prepaid only for this code: 8 failures avoided, 24 COD orders asked to pay first/).count()).toBe(1);
    const byArea = page.locator("table", { hasText: "Area (postal code prefix)" });
    await until(() => byArea.locator("tr", { hasText: "411" }).textContent()).toContain("33.3 %");
    await until(() => byArea.locator("tr", { hasText: "560" }).textContent()).toContain("too few (1 decided)");

    // The cost is asked once, in Settings: the page links there.
    expect(await page.getByLabel("Cost of a failed COD parcel").count()).toBe(0);
    await page.getByRole("link", { name: "in Settings" }).click();
    await until(() => page.getByLabel("Cost of one failed COD parcel").count()).toBe(1);
    await page.getByLabel("Cost of one failed COD parcel").fill("150");
    await page.getByRole("button", { name: "Save costs" }).click();
    await until(() => page.getByRole("status").filter({ hasText: "Costs saved" }).count()).toBe(1);
    await page.goto(`${server.url}/app/deliveries/analytics`, { waitUntil: "networkidle" });
    await until(() => page.getByText(/Money lost: 1,350/).count()).toBe(1);
    await shot(page, "admin-delivery-analytics");

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV of the last 90 days" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^cod-delivery-analytics-last-90-days-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const stream = await download.createReadStream();
    let text = "";
    for await (const chunk of stream) text += chunk;
    expect(text).toContain("postalCode,411001,24,16,8,0,0.3333,1200.00");
    expect(text).toContain("source,facebook,");

    expect(await seriousViolations(page)).toEqual([]);
  });

  it.each([
    [360, 640],
    [768, 1024],
    [1280, 800],
  ])("at %dx%d draws failures by week, money, the worst areas and products, each with its numbers one tap away; the period applies when chosen", { timeout: 90_000 }, async (width, height) => {
    await page.setViewportSize({ width, height });
    try {
      await page.goto(`${server.url}/app/deliveries/analytics?days=90`, { waitUntil: "networkidle" });
      for (const title of ["Failures by week", "Money lost and what prepaid could save", "Worst areas", "Worst products"]) {
        await until(() => page.getByRole("heading", { level: 2, name: title }).count()).toBe(1);
      }
      // Four drawings (the money one once a cost is set: the test above set it).
      await until(() => page.locator("[inert] svg").count()).toBeGreaterThanOrEqual(4);
      await until(() => page.getByText(/Most failures: 411 \(8 of 24 decided\)\./).count()).toBe(1);
      // By keyboard: the first "Show the numbers" opens its table.
      const show = page.getByRole("button", { name: "Show the numbers" }).first();
      await show.focus();
      await page.keyboard.press("Enter");
      await until(() => page.getByRole("button", { name: "Hide the numbers" }).count()).toBe(1);
      await until(() => page.locator("table", { hasText: "Week (from Monday)" }).first().isVisible()).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `admin-delivery-analytics-charts-${width}`);
      // The period applies as soon as it is chosen: no "Show" button.
      expect(await page.getByRole("button", { name: "Show", exact: true }).count()).toBe(0);
      await page.getByLabel("Period").selectOption("30");
      await until(() => new URL(page.url()).searchParams.get("days")).toBe("30");
      await until(() => page.getByText(/in the last 30 days:/).count()).toBe(1);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});
