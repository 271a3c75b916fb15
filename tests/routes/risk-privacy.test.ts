import * as customersRedact from "~/routes/webhooks.customers.redact";
import * as dataRequest from "~/routes/webhooks.customers.data_request";
import * as shopRedact from "~/routes/webhooks.shop.redact";
import { prisma } from "~/core/db.server";
import { hitRateLimit } from "~/core/rate-limit/rate-limit.server";
import { riskCodesKey, riskIpKey } from "~/risk/assess.server";
import { callRoute } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { signedWebhook } from "../helpers/webhooks";

/** The risk score's data about a person goes with customers/redact and shop/redact (docs/risk.md). */
const PHONE = "+919812345678";
const OTHER = "+919800000001";

async function shopWithRiskData(extra: { uninstalledAt?: Date } = {}) {
  const shop = await installShop({ riskPrepaidPhones: `${PHONE}\n${OTHER}`, ...extra });
  await prisma.orderRecord.create({
    data: { shopId: shop.id, orderGid: "gid://shopify/Order/7", phone: PHONE, cod: true, status: "unverified", placedAt: new Date(), riskScore: 70, riskBand: "high", riskReasons: "{}", value: 999 },
  });
  await hitRateLimit(riskCodesKey(shop.id, PHONE), 1000, 86_400);
  await hitRateLimit(riskCodesKey(shop.id, OTHER), 1000, 86_400);
  await hitRateLimit(riskIpKey(shop.id, "203.0.113.9"), 1000, 86_400);
  return shop;
}

describe("customers/redact", () => {
  it("removes the phone from the prepaid-only list, its 24 h code counter and its orders' assessments; others stay", async () => {
    const shop = await shopWithRiskData();
    const raw = `{"shop_id":1,"shop_domain":"${SHOP}","customer":{"id":2,"phone":"${PHONE}"},"orders_to_redact":[]}`;
    expect((await callRoute(customersRedact, signedWebhook("customers/redact", null, { rawBody: raw, webhookId: "rr1" }))).status).toBe(200);
    expect((await prisma.shop.findUniqueOrThrow({ where: { id: shop.id } })).riskPrepaidPhones).toBe(OTHER);
    expect(await prisma.orderRecord.count()).toBe(0);
    expect((await prisma.rateCounter.findMany({ select: { key: true } })).map((r) => r.key).sort()).toEqual([riskCodesKey(shop.id, OTHER), riskIpKey(shop.id, "203.0.113.9")].sort());
  });
});

describe("customers/data_request", () => {
  it("reports what became of the customer's COD orders (outcome, reason, phone, postal code), by phone and by order, and no one else's", async () => {
    const shop = await shopWithRiskData();
    const at = new Date("2026-11-01T10:00:00Z");
    await prisma.orderOutcome.createMany({
      data: [
        { shopId: shop.id, orderGid: "gid://shopify/Order/7", phone: PHONE, postalCode: "400001", outcome: "failed", reason: "tag:RTO", decidedAt: at },
        { shopId: shop.id, orderGid: "gid://shopify/Order/8", phone: null, postalCode: "400002", outcome: "delivered", reason: "fulfilled", decidedAt: at },
        { shopId: shop.id, orderGid: "gid://shopify/Order/9", phone: OTHER, postalCode: "110001", outcome: "failed", reason: "cancelled", decidedAt: at },
      ],
    });
    const raw = `{"shop_id":1,"shop_domain":"${SHOP}","orders_requested":[8],"customer":{"id":2,"phone":"${PHONE}"},"data_request":{"id":4242}}`;
    expect((await callRoute(dataRequest, signedWebhook("customers/data_request", null, { rawBody: raw, webhookId: "dr1" }))).status).toBe(200);
    const { report } = await prisma.dataRequestReport.findFirstOrThrow({ where: { requestKey: "dr:4242" } });
    expect((JSON.parse(report) as { orderOutcomes: unknown[] }).orderOutcomes).toEqual([
      { orderGid: "gid://shopify/Order/7", orderName: null, phone: PHONE, postalCode: "400001", outcome: "failed", reason: "tag:RTO", decidedAt: at.toISOString() },
      { orderGid: "gid://shopify/Order/8", orderName: null, phone: null, postalCode: "400002", outcome: "delivered", reason: "fulfilled", decidedAt: at.toISOString() },
    ]);
  });
});

describe("shop/redact", () => {
  it("deletes every risk counter of the shop, IP counters included", async () => {
    await shopWithRiskData({ uninstalledAt: new Date(Date.now() - 49 * 3600_000) });
    const raw = `{"shop_id":1,"shop_domain":"${SHOP}"}`;
    expect((await callRoute(shopRedact, signedWebhook("shop/redact", null, { rawBody: raw, webhookId: "sr1" }))).status).toBe(200);
    expect(await prisma.rateCounter.count()).toBe(0);
    expect(await prisma.orderRecord.count()).toBe(0);
  });
});
