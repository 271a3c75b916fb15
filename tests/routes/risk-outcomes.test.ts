import * as cancelled from "~/routes/webhooks.orders.cancelled";
import * as fulfilled from "~/routes/webhooks.orders.fulfilled";
import * as updated from "~/routes/webhooks.orders.updated";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as customersRedact from "~/routes/webhooks.customers.redact";
import * as createCheckout from "~/routes/proxy.create-checkout";
import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import { prisma } from "~/core/db.server";
import * as handlers from "../mocks/shopify/handlers";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { orderCreatedPayload, provenOrderPayload, signedWebhook } from "../helpers/webhooks";

/**
 * Outcomes are learnt (docs/risk.md): orders/cancelled (failed) and orders/fulfilled (delivered) count
 * each COD order once per phone and postal code, however often Shopify delivers, and the score uses
 * them on the next attempt.
 */
const PHONE = "+919812345678";
const twilio = useFakeTwilio();
const shopify = useFakeShopify((f) => handlers.installDefaultHandlers(f));
beforeEach(() => handlers.installDefaultHandlers(shopify));

const ADDRESS = { first_name: "Asha", phone: PHONE, address1: "Flat 12, Shanti Apartments, MG Road", city: "Mumbai", province: "Maharashtra", zip: "400 001", country_code: "IN" };
const order = (overrides: Record<string, unknown> = {}) => orderCreatedPayload({ phone: PHONE, shipping_address: ADDRESS, cancelled_at: new Date().toISOString(), ...overrides });
const proven = (overrides: Record<string, unknown> = {}) => provenOrderPayload(PHONE, { shipping_address: ADDRESS, cancelled_at: new Date().toISOString(), ...overrides });
/** A delivery as Shopify sends it: an orders/fulfilled body is a fulfilled order (`fulfillment_status: fulfilled`). */
const send = (route: typeof cancelled | typeof fulfilled | typeof updated, topic: string, payload: object, webhookId: string) =>
  callRoute(route, signedWebhook(topic, topic === "orders/fulfilled" ? { ...payload, fulfillment_status: "fulfilled" } : payload, { webhookId }));
const outcomes = () => prisma.orderOutcome.findMany({ select: { orderGid: true, phone: true, postalCode: true, outcome: true }, orderBy: { orderGid: "asc" } });
const reasons = () => prisma.orderOutcome.findMany({ select: { orderGid: true, outcome: true, reason: true }, orderBy: { orderGid: "asc" } });
const byGid = <T extends { orderGid: string }>(rows: T[]) => rows.sort((x, y) => x.orderGid.localeCompare(y.orderGid));

describe("orders/cancelled and orders/fulfilled", () => {
  it("count each COD order once: retries, both events in either order, twenty at once; a cancellation wins", async () => {
    await installShop();
    const a = order();
    const b = order();
    const card = order({ gateway: "shopify_payments", payment_gateway_names: ["shopify_payments"] });
    expect((await send(cancelled, "orders/cancelled", a, "c-a")).status).toBe(200);
    expect((await send(cancelled, "orders/cancelled", a, "c-a")).status).toBe(200);
    await Promise.all(Array.from({ length: 20 }, (_, i) => send(cancelled, "orders/cancelled", a, `c-a-${i}`)));
    await send(fulfilled, "orders/fulfilled", a, "f-a");
    await send(fulfilled, "orders/fulfilled", b, "f-b");
    await send(cancelled, "orders/cancelled", b, "c-b");
    await send(fulfilled, "orders/fulfilled", card, "f-card");
    expect(await outcomes()).toEqual(
      [
        { orderGid: a.admin_graphql_api_id, phone: PHONE, postalCode: "400001", outcome: "failed" },
        { orderGid: b.admin_graphql_api_id, phone: PHONE, postalCode: "400001", outcome: "failed" },
      ].sort((x, y) => x.orderGid.localeCompare(y.orderGid)),
    );
  });

  it("refuses a delivery of another topic (400) and learns nothing", async () => {
    await installShop();
    const res = await callRoute(cancelled, signedWebhook("orders/fulfilled", order(), { webhookId: "x" }));
    expect(res.status).toBe(400);
    expect(await outcomes()).toEqual([]);
  });
});

describe("orders/updated: failure tags and whole refunds", () => {
  it("a COD order tagged RTO (any case) or refunded in whole fails once, however often and concurrently Shopify delivers; a delivered one turns failed", async () => {
    await installShop();
    const rto = order({ cancelled_at: null, tags: "vip, rto" });
    const refunded = order({ cancelled_at: null, financial_status: "refunded" });
    const delivered = order({ cancelled_at: null });
    const partial = order({ cancelled_at: null, financial_status: "partially_refunded", tags: "gift" });
    const card = order({ cancelled_at: null, tags: "RTO", gateway: "shopify_payments", payment_gateway_names: ["shopify_payments"] });
    // Retries of one delivery, twenty concurrent deliveries of separate updates of one order.
    expect((await send(updated, "orders/updated", rto, "u-rto")).status).toBe(200);
    expect((await send(updated, "orders/updated", rto, "u-rto")).status).toBe(200);
    await Promise.all(Array.from({ length: 20 }, (_, i) => send(updated, "orders/updated", rto, `u-rto-${i}`)));
    await send(updated, "orders/updated", refunded, "u-ref");
    await send(fulfilled, "orders/fulfilled", delivered, "f-del");
    await send(updated, "orders/updated", { ...delivered, tags: "Returned" }, "u-del");
    await send(updated, "orders/updated", partial, "u-partial");
    await send(updated, "orders/updated", card, "u-card");
    // A later cancellation does not count the order again; as firmer evidence than a tag it becomes the reason (a tag's removal must not undo it).
    await send(cancelled, "orders/cancelled", { ...rto, cancelled_at: new Date().toISOString() }, "c-rto");
    expect(await reasons()).toEqual(
      byGid([
        { orderGid: rto.admin_graphql_api_id, outcome: "failed", reason: "cancelled" },
        { orderGid: refunded.admin_graphql_api_id, outcome: "failed", reason: "refunded" },
        { orderGid: delivered.admin_graphql_api_id, outcome: "failed", reason: "tag:Returned" },
      ]),
    );
  });

  it("reads the merchant's own failure tags from the Risk page's list", async () => {
    await installShop({ riskFailureTags: "courier-returned" });
    const rto = order({ cancelled_at: null, tags: "RTO" });
    const own = order({ cancelled_at: null, tags: "Courier-Returned" });
    await send(updated, "orders/updated", rto, "u-1");
    await send(updated, "orders/updated", own, "u-2");
    expect(await reasons()).toEqual([{ orderGid: own.admin_graphql_api_id, outcome: "failed", reason: "tag:Courier-Returned" }]);
  });

  it("replays a refused shopper: after the RTO tag arrives, the same phone gets no COD on its next attempt (high at 25)", async () => {
    await installShop({ riskHighThreshold: 25 });
    const verifyAndCheckout = async () => {
      expect((await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE } }))).status).toBe(200);
      const verified = await jsonOf(await callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body: { phone: PHONE, otp: twilio.twilio.codeFor(PHONE) } })));
      const res = await callRoute(createCheckout, signedRequest("/create-checkout", { method: "POST", body: { phone: PHONE, selectedMode: "cod", variantId: "1", proof: verified.proof } }));
      return { verified, status: res.status, body: await jsonOf(res) };
    };
    const before = await verifyAndCheckout();
    expect(before.verified.allowedModes).toContain("cod");
    expect(before.status).toBe(200);
    const placed = proven({ cancelled_at: null });
    expect((await callRoute(ordersCreate, signedWebhook("orders/create", placed))).status).toBe(200);
    await send(updated, "orders/updated", { ...placed, tags: "RTO" }, "u-rto");
    const after = await verifyAndCheckout();
    expect(after.verified).toMatchObject({ allowedModes: ["prepaid", "partial"], risk: { band: "high", reasons: [{ code: "rto_prone_phone" }] } });
    expect(after).toMatchObject({ status: 403, body: { code: "cod_not_allowed" } });
  });
});

describe("the score learns them", () => {
  it("a shopper whose two COD orders were refused gets no COD on the next attempt (high at 50)", async () => {
    await installShop({ riskHighThreshold: 50 });
    // Placed with the phone's proof: only history the phone proved counts against it.
    for (const [i, o] of [proven(), proven()].entries()) {
      expect((await callRoute(ordersCreate, signedWebhook("orders/create", { ...o, cancelled_at: null }))).status).toBe(200);
      await send(cancelled, "orders/cancelled", o, `c-${i}`);
    }
    expect((await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE } }))).status).toBe(200);
    const verified = await jsonOf(await callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body: { phone: PHONE, otp: twilio.twilio.codeFor(PHONE) } })));
    expect(verified).toMatchObject({ allowedModes: ["prepaid", "partial"], risk: { band: "high", reasons: [{ code: "rto_prone_phone" }] } });
    const res = await callRoute(createCheckout, signedRequest("/create-checkout", { method: "POST", body: { phone: PHONE, selectedMode: "cod", variantId: "1", proof: verified.proof } }));
    expect(await jsonOf(res)).toMatchObject({ code: "cod_not_allowed" });
  });

  it("delivered orders count as good history, and a postal code whose COD orders fail is flagged on the next order there", async () => {
    const shop = await installShop();
    // 20 delivered orders elsewhere, and 4 failed to 400001 (the shop's rate 4/24; the code's smoothed (4 + 20·1/6)/24).
    for (let i = 0; i < 20; i++) await send(fulfilled, "orders/fulfilled", order({ phone: `+9198000000${String(i).padStart(2, "0")}`, shipping_address: { ...ADDRESS, phone: null, zip: "560001" } }), `f-${i}`);
    for (let i = 0; i < 4; i++) await send(cancelled, "orders/cancelled", order({ phone: `+9197000000${i}0`, shipping_address: { ...ADDRESS, phone: null } }), `c-${i}`);
    await send(fulfilled, "orders/fulfilled", order(), "f-mine");
    const next = orderCreatedPayload({ phone: PHONE, shipping_address: ADDRESS });
    expect((await callRoute(ordersCreate, signedWebhook("orders/create", next))).status).toBe(200);
    const record = await prisma.orderRecord.findFirstOrThrow({ where: { shopId: shop.id, orderGid: next.admin_graphql_api_id } });
    const reasons = (JSON.parse(record.riskReasons!) as { reasons: { code: string; points: number }[] }).reasons;
    expect(reasons).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: "good_history", points: -10 }), expect.objectContaining({ code: "rto_prone_postal_code", points: 15 })]),
    );
  });
});

describe("the wider area when the postal code has few orders", () => {
  it("an order to a code with no outcomes of its own is flagged by its area's (codes starting 400) failures, one code more in the same area too", async () => {
    const shop = await installShop();
    for (let i = 0; i < 20; i++) await send(fulfilled, "orders/fulfilled", order({ phone: `+9198000001${String(i).padStart(2, "0")}`, shipping_address: { ...ADDRESS, phone: null, zip: "560001" } }), `f-${i}`);
    // 6 failed across 400002..400007, none to 400001; one failed to 401001 (another area).
    for (let i = 2; i < 8; i++) await send(cancelled, "orders/cancelled", order({ phone: `+9197000001${i}0`, shipping_address: { ...ADDRESS, phone: null, zip: `40000${i}` } }), `c-${i}`);
    await send(cancelled, "orders/cancelled", order({ phone: "+919700000999", shipping_address: { ...ADDRESS, phone: null, zip: "401001" } }), "c-other");
    const codesOf = async (zip: string) => {
      const next = orderCreatedPayload({ phone: PHONE, shipping_address: { ...ADDRESS, zip } });
      expect((await callRoute(ordersCreate, signedWebhook("orders/create", next))).status).toBe(200);
      const record = await prisma.orderRecord.findFirstOrThrow({ where: { shopId: shop.id, orderGid: next.admin_graphql_api_id } });
      return (JSON.parse(record.riskReasons!) as { reasons: { code: string; text: string }[] }).reasons;
    };
    // Shop 7/27 = 26%; area 400: (6 + 20 * 0.26) / 26 = 43%; 400001: 43% > 39%.
    expect(await codesOf("400 001")).toEqual(
      expect.arrayContaining([{ code: "rto_prone_postal_area", points: 15, text: "6 cash-on-delivery orders to postal codes starting 400 failed (43% against 26% for the shop)." }]),
    );
    expect((await codesOf("560002")).map((r) => r.code)).not.toContain("rto_prone_postal_area");
  });
});

describe("customers/redact", () => {
  it("deletes the customer's learnt outcomes (phone and postal code), by phone and by order", async () => {
    await installShop();
    await send(cancelled, "orders/cancelled", order(), "c-1");
    const other = order({ phone: "+919800000001", shipping_address: { ...ADDRESS, phone: null } });
    await send(cancelled, "orders/cancelled", other, "c-2");
    const raw = `{"shop_id":1,"shop_domain":"${SHOP}","customer":{"id":2,"phone":"${PHONE}"},"orders_to_redact":[]}`;
    expect((await callRoute(customersRedact, signedWebhook("customers/redact", null, { rawBody: raw, webhookId: "rr" }))).status).toBe(200);
    expect((await outcomes()).map((o) => o.orderGid)).toEqual([other.admin_graphql_api_id]);
  });
});
