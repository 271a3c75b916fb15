import * as analytics from "~/routes/app.deliveries_.analytics";
import * as oldAddress from "~/routes/app.analytics";
import * as download from "~/routes/app.analytics.download.$days";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as ordersCancelled from "~/routes/webhooks.orders.cancelled";
import * as ordersFulfilled from "~/routes/webhooks.orders.fulfilled";
import { prisma } from "~/core/db.server";
import { clock } from "~/core/utils/clock.server";
import { loadDeliveryAnalytics, type DeliveryAnalytics } from "~/dashboard/delivery-analytics.server";
import { shopDayStart } from "~/shared/shop-day";
import * as handlers from "../mocks/shopify/handlers";
import { useFakeShopify } from "../helpers/fake-shopify";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { callRoute } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/**
 * Delivery analytics through the real routes: COD orders arrive by orders/create (signed, as Shopify
 * sends them: national phones, zips with spaces, products, a traffic source), their fate by orders/fulfilled
 * and orders/cancelled; the admin page and its CSV read them back.
 */
useFakeShopify((f) => handlers.installDefaultHandlers(f));

let phoneSeq = 10_000;
async function codOrder(o: { zip: string; product: string; source?: string; outcome?: "delivered" | "failed"; gateway?: string }) {
  const phone = `98765${String((phoneSeq += 1)).padStart(5, "0")}`;
  const order = orderCreatedPayload({
    phone: null,
    gateway: o.gateway ?? "Cash on Delivery (COD)",
    payment_gateway_names: [o.gateway ?? "Cash on Delivery (COD)"],
    total_price: "799.00",
    shipping_address: { first_name: "Asha", phone, zip: o.zip, country_code: "IN" },
    billing_address: { first_name: "Asha", phone: null, country_code: "IN" },
    line_items: [{ id: 1, product_id: 632910392, title: o.product, quantity: 1, price: "799.00" }, { id: 2, product_id: null, title: "Gift wrap", quantity: 1, price: "0.00" }],
    note_attributes: o.source ? [{ name: "_cod_source", value: o.source }] : [],
  });
  expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
  if (o.outcome === "delivered") expect((await callRoute(ordersFulfilled, signedWebhook("orders/fulfilled", { ...order, fulfillment_status: "fulfilled" }))).status).toBe(200);
  if (o.outcome === "failed") expect((await callRoute(ordersCancelled, signedWebhook("orders/cancelled", { ...order, cancelled_at: new Date().toISOString() }))).status).toBe(200);
  return order;
}

async function many(n: number, o: Parameters<typeof codOrder>[0]) {
  for (let i = 0; i < n; i++) await codOrder(o);
}

const load = async (query = "") => (await callAdminRoute<DeliveryAnalytics>(analytics, await adminRequest(`/app/deliveries/analytics${query}`))).data!;

async function seedShop() {
  await installShop({ currency: "INR", otpEnabled: false, codFailureCost: 150 });
  // Pune 411 001: 30 COD orders, 18 delivered, 6 failed, 6 open; written with a space as shoppers type it.
  await many(18, { zip: "411 001", product: "Kurta", source: "utm_source=facebook&utm_medium=cpc", outcome: "delivered" });
  await many(6, { zip: "411 001", product: "Kurta", source: "utm_source=facebook&utm_medium=cpc", outcome: "failed" });
  await many(6, { zip: "411 001", product: "Kurta" });
  // Delhi 110 001: 3 failed, 3 delivered (enough to be among the worst, too few for a rate).
  await many(3, { zip: "110001", product: "Saree", outcome: "failed" });
  await many(3, { zip: "110001", product: "Saree", outcome: "delivered" });
  // Bengaluru 560 001: 1 failed of 3 decided: too few for the worst list.
  await codOrder({ zip: "560001", product: "Saree", outcome: "failed" });
  await many(2, { zip: "560001", product: "Saree", outcome: "delivered" });
  // Not COD: paid at checkout. Moved to prepaid afterwards: no longer COD.
  await codOrder({ zip: "411001", product: "Kurta", gateway: "shopify_payments", outcome: "failed" });
  const moved = await codOrder({ zip: "411001", product: "Kurta" });
  await prisma.orderRecord.updateMany({ where: { orderGid: moved.admin_graphql_api_id }, data: { prepaidAt: new Date() } });
}

describe("/app/deliveries/analytics", () => {
  it("counts COD orders, failures and money lost by postal code, area, product, source and week; no rate from a handful", async () => {
    await seedShop();
    const a = await load();
    expect(a.totals).toMatchObject({ orders: 39, delivered: 23, failed: 10, open: 6, lost: 1500 });
    expect(a.totals.rate).toBeCloseTo(10 / 33, 6);
    const byCode = Object.fromEntries(a.breakdowns.postalCode.map((r) => [r.key, r]));
    expect(byCode["411001"]).toMatchObject({ orders: 30, delivered: 18, failed: 6, open: 6, rate: 0.25, lost: 900 });
    expect(byCode["110001"]).toMatchObject({ orders: 6, failed: 3, rate: null });
    expect(byCode["560001"]).toMatchObject({ orders: 3, failed: 1, rate: null });
    expect(a.breakdowns.area.map((r) => [r.key, r.orders])).toEqual(expect.arrayContaining([["411", 30], ["110", 6], ["560", 3]]));
    // The custom line (no product) is not a product.
    expect(a.breakdowns.product.map((r) => r.key).sort()).toEqual(["Kurta", "Saree"]);
    expect(a.breakdowns.source.find((r) => r.key === "facebook")).toMatchObject({ orders: 24, failed: 6 });
    expect(a.breakdowns.source.find((r) => r.key === "(unknown)")).toMatchObject({ orders: 15 });
    expect(a.breakdowns.week.reduce((s, r) => s + r.orders, 0)).toBe(39);
    expect(a.breakdowns.riskBand.reduce((s, r) => s + r.orders, 0)).toBe(39);
  });

  it("the worst postal codes and what prepaid-only on them would have saved", async () => {
    await seedShop();
    const a = await load("?days=30");
    expect(a.days).toBe(30);
    expect(a.worstPostalCodes.map((r) => [r.key, r.failed])).toEqual([["411001", 6], ["110001", 3]]);
    expect(a.whatIf).toEqual({ codes: ["411001", "110001"], failuresAvoided: 9, ordersAskedToPay: 36, deliveredAskedToPay: 21, moneySaved: 1350 });
  });

  it.each([
    ["Pacific/Kiritimati", "2026-11-30T11:30:00Z", "2026-12-01"], // +14:00: already tomorrow
    ["Pacific/Pago_Pago", "2026-11-30T10:30:00Z", "2026-11-29"], // -11:00: still yesterday
    ["Asia/Kathmandu", "2026-11-30T18:20:00Z", "2026-12-01"], // +05:45
    ["Pacific/Chatham", "2026-11-30T10:50:00Z", "2026-12-01"], // +13:45
  ])("names the CSV for its whole period in the shop's time zone (%s)", async (timezone, now, lastDay) => {
    vi.spyOn(clock, "now").mockReturnValue(new Date(now));
    try {
      await installShop({ currency: "INR", timezone });
      const answer = await callAdminRoute(download, await adminRequest("/app/analytics/download/30"), { days: "30" });
      // 30 days: the last one and the 29 before it.
      const first = new Date(Date.parse(`${lastDay}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
      expect(answer.response!.headers.get("content-disposition")).toBe(`attachment; filename="cod-delivery-analytics-last-30-days-${first}-to-${lastDay}.csv"`);
      // The period is those whole days of the shop's: an order at the first one's midnight is in it, one a second before is not.
      const shop = await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
      const start = shopDayStart(first, timezone).getTime();
      for (const [n, at] of [start - 1000, start].entries()) {
        await prisma.orderRecord.create({ data: { shopId: shop.id, orderGid: `gid://shopify/Order/edge${n}`, cod: true, status: "unverified", placedAt: new Date(at) } });
      }
      expect((await loadDeliveryAnalytics(shop, 30)).totals.orders).toBe(1);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it("downloads every breakdown as CSV, a formula-looking title quoted as text", async () => {
    await installShop({ currency: "INR", otpEnabled: false });
    await codOrder({ zip: "411001", product: "=HYPERLINK(\"http://x\")", outcome: "failed" });
    const answer = await callAdminRoute(download, await adminRequest("/app/analytics/download/365"), { days: "365" });
    const response = answer.response!;
    expect(response.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="cod-delivery-analytics-last-365-days-\d{4}-\d\d-\d\d-to-\d{4}-\d\d-\d\d\.csv"$/);
    const lines = (await response.text()).trim().split("\r\n");
    expect(lines[0]).toBe("dimension,value,cod_orders,delivered,failed,open,failure_rate,money_lost_INR");
    expect(lines[1]).toBe("all,all,1,0,1,0,,");
    expect(lines).toContain(`product,"'=HYPERLINK(""http://x"")",1,0,1,0,,`);
    expect(lines).toContain("postalCode,411001,1,0,1,0,,");
  });

  it("asks no cost of its own: the one cost, saved in Settings, is what money lost counts here, and a post to the page changes nothing", async () => {
    await installShop({ currency: "INR" });
    const settings = await import("~/routes/app.settings.$section");
    const costs = async (codFailureCost: string) => callAdminRoute(settings, await adminRequest("/app/settings/costs", { form: { codFailureCost, messageCost: "" } }), { section: "costs" });
    expect((await costs("180,50")).status).toBe(200);
    expect((await load()).codFailureCost).toBe(180.5);
    // Saved once, it saves again unchanged (one parser, one place: it drifted between two before).
    expect((await costs(String((await load()).codFailureCost))).status).toBe(200);
    expect("action" in (await import("~/routes/app.deliveries_.analytics"))).toBe(false);
  });

  it("answers its old address, /app/analytics, with a redirect to the Deliveries tab that keeps the period", async () => {
    await installShop();
    const answer = await callAdminRoute(oldAddress, await adminRequest("/app/analytics?days=90"));
    expect(answer.status).toBe(302);
    expect(answer.response?.headers.get("location")).toBe("/app/deliveries/analytics?days=90");
    const unsigned = await callAdminRoute(oldAddress, await adminRequest("/app/analytics", { unauthenticated: true }));
    expect(unsigned.response?.headers.get("location") ?? "").not.toContain("/app/deliveries/analytics");
  });

  it("sends the page the first 25 rows of each breakdown and how many there are; the CSV keeps every one", async () => {
    const shop = await installShop({ currency: "INR", otpEnabled: false });
    const placedAt = new Date();
    await prisma.orderRecord.createMany({
      data: Array.from({ length: 30 }, (_, i) => ({ shopId: shop.id, orderGid: `gid://shopify/Order/${500 + i}`, cod: true, status: "verified", products: JSON.stringify([`Product ${i}`]), placedAt })),
    });
    const a = (await load()) as DeliveryAnalytics & { sizes: Record<string, number> };
    expect(a.breakdowns.product).toHaveLength(25);
    expect(a.sizes.product).toBe(30);
    const csv = await (await callAdminRoute(download, await adminRequest("/app/analytics/download/30"), { days: "30" })).response!.text();
    expect(csv.split("\r\n").filter((line) => line.startsWith("product,"))).toHaveLength(30);
  });

  it("refuses a request without a session token", async () => {
    await installShop();
    const answer = await callAdminRoute(download, await adminRequest("/app/analytics/download/90", { unauthenticated: true }), { days: "90" });
    expect(answer.status).not.toBe(200);
    const otherPeriod = await callAdminRoute(download, await adminRequest("/app/analytics/download/7"), { days: "7" });
    expect(otherPeriod.status).toBe(404);
  });
});
