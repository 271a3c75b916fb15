import * as uninstalled from "~/routes/webhooks.app.uninstalled";
import * as dataRequest from "~/routes/webhooks.customers.data_request";
import * as customersRedact from "~/routes/webhooks.customers.redact";
import * as shopRedact from "~/routes/webhooks.shop.redact";
import { prisma } from "~/core/db.server";
import { markPhoneVerified } from "~/otp/verified-phones.server";
import { sessionStorage } from "~/core/shopify/app.server";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import { callRoute } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { signedWebhook } from "../helpers/webhooks";
import { hitRateLimit } from "~/core/rate-limit/rate-limit.server";
import { sendLimitKey } from "~/otp/otp.server";

const PHONE = "+212600000003";
const OTHER = "+212600000004";

afterEach(() => vi.restoreAllMocks());

async function shopWithCustomers() {
  const shop = await installShop();
  await markPhoneVerified(shop.id, PHONE);
  await markPhoneVerified(shop.id, OTHER);
  await prisma.selection.create({ data: { shopId: shop.id, phone: PHONE, mode: "cod", verified: true, source: "verify-otp", orderGid: "gid://shopify/Order/9007199254740993001", orderName: "#1001" } });
  await prisma.selection.create({ data: { shopId: shop.id, phone: PHONE, mode: "prepaid", source: "create-checkout" } });
  await prisma.selection.create({ data: { shopId: shop.id, phone: OTHER, mode: "cod", source: "create-checkout" } });
  await prisma.job.create({ data: { kind: "order-tags", key: `${SHOP}|gid://shopify/Order/1`, shop: SHOP, payload: '{"orderGid":"gid://shopify/Order/1","tags":[]}', nextAttemptAt: new Date() } });
  // What the one-time codes keep per phone: a pending code's hash, send counters, a blocklist entry.
  for (const phone of [PHONE, OTHER]) {
    await prisma.otpChallenge.create({
      data: { id: `c-${phone}`, shopId: shop.id, phone, codeHash: "00", sentAt: 1n, expiresAt: 2n, maxAttempts: 5 },
    });
    await hitRateLimit(sendLimitKey(shop.id, phone), 3, 600);
    await prisma.blockedPhone.create({ data: { shopId: shop.id, phone } });
    await prisma.messageDelivery.create({ data: { shopId: shop.id, phone, purpose: "otp", channel: "sms", status: "delivered" } });
  }
  // A confirmation after purchase for each customer, on orders no selection names.
  for (const [phone, order] of [[PHONE, "9007199254740993002"], [OTHER, "9007199254740993003"]]) {
    await prisma.orderConfirmation.create({
      data: { id: `oc-${order}`, shopId: shop.id, orderGid: `gid://shopify/Order/${order}`, orderName: `#${order.slice(-4)}`, phone, tokenHash: `h-${order}`, deadlineAt: new Date("2026-12-01T00:00:00Z") },
    });
    await prisma.job.create({
      data: { kind: "order-confirmation.deadline", key: `${SHOP}|gid://shopify/Order/${order}`, shop: SHOP, payload: `{"confirmationId":"oc-${order}"}`, nextAttemptAt: new Date() },
    });
  }
  return shop;
}

describe("every webhook route refuses a bad HMAC with 401", () => {
  const routes: [string, Parameters<typeof callRoute>[0]][] = [
    ["app/uninstalled", uninstalled],
    ["customers/data_request", dataRequest],
    ["customers/redact", customersRedact],
    ["shop/redact", shopRedact],
  ];
  for (const [topic, route] of routes) {
    it(topic, async () => {
      await shopWithCustomers();
      const res = await callRoute(route, signedWebhook(topic, { shop_domain: SHOP }, { secret: "not-the-secret" }));
      expect(res.status).toBe(401);
      expect(await prisma.selection.count()).toBe(3);
      expect(await prisma.session.count()).toBe(1);
    });
  }
});

describe("app/uninstalled", () => {
  it("removes the sessions, marks the shop uninstalled and keeps its data; a redelivery keeps the first time", async () => {
    await shopWithCustomers();
    await sessionStorage.loadSession(`offline_${SHOP}`); // warm the cache, which must be dropped too
    const first = new Date("2026-11-01T10:00:00Z");
    vi.spyOn(clock, "now").mockReturnValue(first);
    expect((await callRoute(uninstalled, signedWebhook("app/uninstalled", { id: 1, domain: SHOP, myshopify_domain: SHOP }, { webhookId: "u1" }))).status).toBe(200);
    vi.spyOn(clock, "now").mockReturnValue(new Date("2026-11-01T11:00:00Z"));
    expect((await callRoute(uninstalled, signedWebhook("app/uninstalled", { id: 1, domain: SHOP, myshopify_domain: SHOP }, { webhookId: "u1" }))).status).toBe(200);
    expect((await callRoute(uninstalled, signedWebhook("app/uninstalled", { id: 1, domain: SHOP, myshopify_domain: SHOP }, { webhookId: "u2" }))).status).toBe(200);

    expect(await prisma.session.count()).toBe(0);
    expect(await sessionStorage.loadSession(`offline_${SHOP}`)).toBeUndefined();
    expect((await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).uninstalledAt).toEqual(first);
    expect(await prisma.selection.count()).toBe(3);
    expect(await prisma.verifiedCustomer.count()).toBe(2);
  });
});

describe("customers/data_request", () => {
  it("stores a report of what is held for the customer's phone and requested orders, for the merchant; the log names counts only", async () => {
    const shop = await shopWithCustomers();
    const info = vi.spyOn(log, "info");
    const raw = `{"shop_id":954889,"shop_domain":"${SHOP}","orders_requested":[9007199254740993001],"customer":{"id":191167,"email":"john@example.com","phone":"+212 600 000 003"},"data_request":{"id":9999}}`;
    const res = await callRoute(dataRequest, signedWebhook("customers/data_request", null, { rawBody: raw }));
    expect(res.status).toBe(200);
    const [, fields] = info.mock.calls.find(([m]) => m === "customers/data_request stored")!;
    expect(fields).toMatchObject({
      shop: SHOP,
      dataRequestId: 9999,
      stored: true,
      records: { verifiedMarks: 1, selections: 2, pendingCodes: 1, blocklistEntries: 1, messages: 1, orderConfirmations: 1 },
    });
    expect(JSON.stringify(info.mock.calls)).not.toContain(PHONE);
    const [row] = await prisma.dataRequestReport.findMany({ where: { shopId: shop.id } });
    expect(row).toMatchObject({ requestKey: "dr:9999", customerId: "191167", customerEmail: "john@example.com", customerPhone: PHONE, ordersRequested: '["9007199254740993001"]' });
    const report = JSON.parse(row.report);
    expect(report.selections.map((x: { orderGid: string | null }) => x.orderGid)).toContain("gid://shopify/Order/9007199254740993001");
    expect(report.orderConfirmations).toEqual([
      expect.objectContaining({ orderGid: "gid://shopify/Order/9007199254740993002", orderName: "#3002", status: "pending" }),
    ]);
    expect(await prisma.selection.count()).toBe(3); // a report changes nothing
  });
});

describe("customers/redact", () => {
  it("deletes the customer's verified mark and selections (by phone and by order), leaving other customers", async () => {
    const shop = await shopWithCustomers();
    const raw = `{"shop_id":954889,"shop_domain":"${SHOP}","customer":{"id":191167,"email":"john@example.com","phone":"${PHONE}"},"orders_to_redact":[9007199254740993001]}`;
    expect((await callRoute(customersRedact, signedWebhook("customers/redact", null, { rawBody: raw, webhookId: "r1" }))).status).toBe(200);
    expect(await prisma.selection.findMany({ select: { phone: true } })).toEqual([{ phone: OTHER }]);
    expect(await prisma.verifiedCustomer.findMany({ where: { shopId: shop.id }, select: { phone: true } })).toEqual([{ phone: OTHER }]);
    expect(await prisma.otpChallenge.findMany({ select: { phone: true } })).toEqual([{ phone: OTHER }]);
    expect(await prisma.blockedPhone.findMany({ select: { phone: true } })).toEqual([{ phone: OTHER }]);
    expect(await prisma.rateCounter.findMany({ select: { key: true } })).toEqual([{ key: sendLimitKey(shop.id, OTHER) }]);
    expect(await prisma.messageDelivery.findMany({ select: { phone: true } })).toEqual([{ phone: OTHER }]);
    expect(await prisma.orderConfirmation.findMany({ select: { phone: true } })).toEqual([{ phone: OTHER }]);
    // The jobs of the customer's orders go too, those named in the payload and those found by phone.
    expect((await prisma.job.findMany({ select: { key: true } })).map((j) => j.key).sort()).toEqual([
      `${SHOP}|gid://shopify/Order/1`,
      `${SHOP}|gid://shopify/Order/9007199254740993003`,
    ]);
    // A redelivery is harmless.
    expect((await callRoute(customersRedact, signedWebhook("customers/redact", null, { rawBody: raw, webhookId: "r1" }))).status).toBe(200);
    expect(await prisma.selection.count()).toBe(1);
  });

  it("finds the customer by order alone when the payload has no phone", async () => {
    await shopWithCustomers();
    const raw = `{"shop_id":954889,"shop_domain":"${SHOP}","customer":{"id":191167,"email":"john@example.com","phone":null},"orders_to_redact":[9007199254740993001]}`;
    await callRoute(customersRedact, signedWebhook("customers/redact", null, { rawBody: raw }));
    // The linked selection goes, and with it the phone's verified mark; the phone's unlinked selection too.
    expect(await prisma.verifiedCustomer.count({ where: { phone: PHONE } })).toBe(0);
    expect(await prisma.selection.count({ where: { phone: PHONE } })).toBe(0);
    expect(await prisma.selection.count({ where: { phone: OTHER } })).toBe(1);
  });

  it("finds the customer through a confirmation after purchase when the order is all the payload names", async () => {
    const shop = await shopWithCustomers();
    const LATER = "+212600000005";
    await markPhoneVerified(shop.id, LATER);
    await prisma.orderConfirmation.update({ where: { id: "oc-9007199254740993002" }, data: { phone: LATER } });
    const raw = `{"shop_id":954889,"shop_domain":"${SHOP}","customer":{"id":191168,"phone":null},"orders_to_redact":[9007199254740993002]}`;
    expect((await callRoute(customersRedact, signedWebhook("customers/redact", null, { rawBody: raw }))).status).toBe(200);
    expect(await prisma.orderConfirmation.count({ where: { orderGid: "gid://shopify/Order/9007199254740993002" } })).toBe(0);
    expect(await prisma.verifiedCustomer.count({ where: { phone: LATER } })).toBe(0);
    expect(await prisma.job.count({ where: { key: `${SHOP}|gid://shopify/Order/9007199254740993002` } })).toBe(0);
    // Nobody else's rows move.
    expect(await prisma.orderConfirmation.count()).toBe(1);
    expect(await prisma.verifiedCustomer.count({ where: { phone: { in: [PHONE, OTHER] } } })).toBe(2);
  });
});

describe("shop/redact", () => {
  it("deletes everything held for the shop and nothing of another shop", async () => {
    await shopWithCustomers();
    const other = await installShop({ domain: "other-shop.myshopify.com" });
    await markPhoneVerified(other.id, PHONE);
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() - 49 * 60 * 60 * 1000));
    await callRoute(uninstalled, signedWebhook("app/uninstalled", { domain: SHOP, myshopify_domain: SHOP }));
    vi.mocked(clock.now).mockRestore();
    const res = await callRoute(shopRedact, signedWebhook("shop/redact", { shop_id: 954889, shop_domain: SHOP }, { webhookId: "s1" }));
    expect(res.status).toBe(200);
    expect(await prisma.shop.findUnique({ where: { domain: SHOP } })).toBeNull();
    expect(await prisma.selection.count()).toBe(0);
    expect(await prisma.verifiedCustomer.findMany({ select: { shopId: true } })).toEqual([{ shopId: other.id }]);
    expect(await prisma.job.count()).toBe(0);
    expect(await prisma.otpChallenge.count()).toBe(0);
    expect(await prisma.blockedPhone.count()).toBe(0);
    expect(await prisma.rateCounter.count()).toBe(0);
    expect(await prisma.orderConfirmation.count()).toBe(0);
    expect(await prisma.messageDelivery.count()).toBe(0);
    expect(await prisma.session.findMany({ select: { shop: true } })).toEqual([{ shop: "other-shop.myshopify.com" }]);
    expect(await prisma.webhookDelivery.findMany({ select: { id: true } })).toEqual([{ id: expect.stringMatching(/^SHOP_REDACT:event-s1:/) }]);
    // Again (a redelivery): still 200.
    expect((await callRoute(shopRedact, signedWebhook("shop/redact", { shop_domain: SHOP }, { webhookId: "s1" }))).status).toBe(200);
  });
});
