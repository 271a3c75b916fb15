import fs from "node:fs";
import type { Page } from "playwright-core";
import { seriousViolations, until } from "../helpers/browser";
import { useAdminBrowser } from "../helpers/admin-browser";
import { deliverOrderCreated, deliverWebhook, type RunningServer } from "../helpers/server";
import { orderCreatedPayload } from "../helpers/webhooks";
import { shot } from "./modal-helpers";

/**
 * A customer's data request as the merchant meets it (local mode, App Bridge absent): Shopify's
 * customers/data_request arrives (twice), the Data requests page lists it once, the report reads on
 * screen, the JSON file downloads, and axe finds no serious or critical violation.
 */
describe("the Data requests page in Chromium", () => {
  const admin = useAdminBrowser();
  let server: RunningServer;
  let page: Page;
  beforeAll(() => {
    ({ server, page } = admin);
  });

  it("with no request yet, says so once: no count and no pages under the empty state", async () => {
    expect((await page.goto(`${server.url}/app/data-requests`, { waitUntil: "networkidle" }))?.status()).toBe(200);
    const text = await page.locator("main, body").first().innerText();
    expect(text).toContain("No data requests");
    expect(text).not.toMatch(/\b0 requests\b/);
  });

  it("lists a request once, shows its report and downloads it as JSON", { timeout: 90_000 }, async () => {
    const order = orderCreatedPayload({ phone: "+212600000091", shipping_address: { phone: "+212600000091", country_code: "MA" } });
    expect((await deliverOrderCreated(server, order)).status).toBe(200);
    const id = order.admin_graphql_api_id.split("/").pop();
    const request = `{"shop_id":1,"shop_domain":"demo-shop.myshopify.com","orders_requested":[${id}],"customer":{"id":191167,"email":"amina@example.com","phone":"+212 600-000091"},"data_request":{"id":9999}}`;
    for (let i = 0; i < 2; i++) expect((await deliverWebhook(server, "customers/data_request", request)).status).toBe(200);

    const response = await page.goto(`${server.url}/app/data-requests`, { waitUntil: "networkidle" });
    expect(response?.status()).toBe(200);
    const table = page.getByRole("table");
    await until(() => table.getByRole("row").count()).toBe(2);
    const row = await table.getByRole("row").nth(1).innerText();
    expect(row).toContain("amina@example.com");
    expect(row).toContain("+2126•••0091");
    expect(row).not.toContain("+212600000091");
    expect(await seriousViolations(page)).toEqual([]);

    await table.getByRole("link", { name: /View the report/ }).click();
    await until(() => page.getByRole("heading", { level: 2, name: /Report of/ }).count()).toBe(1);
    const report = page.getByRole("region", { name: /Report of/ });
    const text = await report.innerText();
    expect(text).toContain("amina@example.com · +212600000091 · customer 191167");
    expect(text).toMatch(/Texts sent \(1\)[\s\S]*Order confirmation\s+SMS/);
    expect(text).toMatch(/Orders \(1\)\s+Order\s+Phone\s+Way to pay\s+Verification\s+Risk score\s+Risk band\s+Behaviour readings \(risk\)\s+Order value\s+Postal code\s+Traffic source\s+Placed\s+#\d+\s+\+212600000091\s+—\s+Pending/);
    expect(text).toContain("Nothing held of: verified phone numbers");
    // The order's risk score is shown above: the empty outcomes section does not say "nothing held of … risk score".
    expect(text).toContain("what became of orders (delivered or failed)");
    expect(text).not.toMatch(/Nothing held of:[^\n]*risk score/);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "admin-data-requests-report");

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download JSON of this report" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^cod-verify-data-request-\d{4}-\d\d-\d\d-customer-191167\.json$/);
    const file = JSON.parse(fs.readFileSync((await download.path())!, "utf8"));
    expect(file).toMatchObject({ app: "COD Verify", customer: { id: "191167", phone: "+212600000091" }, ordersRequested: [id], data: { orders: [{ orderGid: order.admin_graphql_api_id }] } });
  });
});
