import * as cancelled from "~/routes/webhooks.orders.cancelled";
import * as fulfilled from "~/routes/webhooks.orders.fulfilled";
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
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

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
const send = (route: typeof cancelled | typeof fulfilled, topic: string, payload: unknown, webhookId: string) =>
  callRoute(route, signedWebhook(topic, payload, { webhookId }));
const outcomes = () => prisma.orderOutcome.findMany({ select: { orderGid: true, phone: true, postalCode: true, outcome: true }, orderBy: { orderGid: "asc" } });

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

describe("the score learns them", () => {
  it("a shopper whose two COD orders were refused gets no COD on the next attempt (high at 50)", async () => {
    await installShop({ riskHighThreshold: 50 });
    for (const [i, o] of [order(), order()].entries()) await send(cancelled, "orders/cancelled", o, `c-${i}`);
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
