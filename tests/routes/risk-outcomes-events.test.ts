import * as carrier from "~/routes/webhooks.fulfillment_events.create";
import * as cancelled from "~/routes/webhooks.orders.cancelled";
import * as fulfilled from "~/routes/webhooks.orders.fulfilled";
import * as updated from "~/routes/webhooks.orders.updated";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as createCheckout from "~/routes/proxy.create-checkout";
import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import { prisma } from "~/core/db.server";
import { readFulfillmentEvent } from "~/core/shopify/webhook-payloads";
import * as handlers from "../mocks/shopify/handlers";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { fulfillmentEventBody, orderCreatedPayload, provenOrderPayload, signedWebhook } from "../helpers/webhooks";

/**
 * Outcomes from a carrier's tracking (fulfillment_events/create) and a failure tag the merchant removes
 * again (orders/updated), docs/risk.md: each order counts once per phone and postal code, whatever
 * Shopify redelivers, and an older state of an order never overrides a newer one.
 */
const PHONE = "+919812345678";
const twilio = useFakeTwilio();
const shopify = useFakeShopify((f) => handlers.installDefaultHandlers(f));
beforeEach(() => handlers.installDefaultHandlers(shopify));

const ADDRESS = { first_name: "Asha", phone: PHONE, address1: "Flat 12, Shanti Apartments, MG Road", city: "Mumbai", province: "Maharashtra", zip: "400 001", country_code: "IN" };
const CARD = { gateway: "shopify_payments", payment_gateway_names: ["shopify_payments"] };
const order = (overrides: Record<string, unknown> = {}) => orderCreatedPayload({ phone: PHONE, shipping_address: ADDRESS, ...overrides });
type Order = ReturnType<typeof order>;

/** orders/create, so the order has its record (a carrier's event names only the order). */
const create = async (o: Order) => expect((await callRoute(ordersCreate, signedWebhook("orders/create", o))).status).toBe(200);
const carrierEvent = (o: Order, status: string, webhookId?: string, body = fulfillmentEventBody(o.admin_graphql_api_id, status)) =>
  callRoute(carrier, signedWebhook("fulfillment_events/create", null, { rawBody: body, webhookId }));
/** An orders/updated delivery of the order's state at `minute` (its updated_at). */
const update = (o: Order, minute: number, state: Record<string, unknown>, webhookId?: string) =>
  callRoute(updated, signedWebhook("orders/updated", { ...o, ...state, updated_at: new Date(Date.UTC(2026, 10, 20, 10, minute)).toISOString() }, { webhookId }));
const rowOf = (o: Order) => prisma.orderOutcome.findFirst({ where: { orderGid: o.admin_graphql_api_id }, select: { outcome: true, reason: true, phone: true, postalCode: true } });
/** The counts the score reads: the phone's failed and delivered orders, the postal code's orders and failures. */
const counts = async () => ({
  phoneFailed: await prisma.orderOutcome.count({ where: { phone: PHONE, outcome: "failed" } }),
  phoneDelivered: await prisma.orderOutcome.count({ where: { phone: PHONE, outcome: "delivered" } }),
  postalOrders: await prisma.orderOutcome.count({ where: { postalCode: "400001", outcome: { in: ["delivered", "failed"] } } }),
  postalFailed: await prisma.orderOutcome.count({ where: { postalCode: "400001", outcome: "failed" } }),
});

beforeEach(async () => {
  await installShop({ riskHighThreshold: 25 });
});

describe("fulfillment_events/create: the carrier's delivered and failure", () => {
  it("delivered counts as delivered and failure as failed, once per order however often and concurrently Shopify delivers; other statuses say nothing", async () => {
    const a = order();
    const b = order();
    const card = order(CARD);
    for (const o of [a, b, card]) await create(o);
    for (const status of ["confirmed", "in_transit", "out_for_delivery", "attempted_delivery"]) expect((await carrierEvent(a, status)).status).toBe(200);
    expect(await rowOf(a)).toBeNull();

    expect((await carrierEvent(a, "delivered", "e-a")).status).toBe(200);
    expect((await carrierEvent(a, "delivered", "e-a")).status).toBe(200);
    await Promise.all(Array.from({ length: 10 }, (_, i) => carrierEvent(a, "delivered", `e-a-${i}`)));
    await Promise.all([...Array.from({ length: 10 }, (_, i) => carrierEvent(b, "failure", `e-b-${i}`)), carrierEvent(b, "delivered", "e-b-d")]);
    // A delivery after a failure does not turn the order back; a card order is not learnt.
    await carrierEvent(b, "delivered", "e-b-late");
    await carrierEvent(card, "delivered", "e-card");
    // The phone comes from the order's record; a carrier's event carries no address.
    expect(await rowOf(a)).toEqual({ outcome: "delivered", reason: "carrier:delivered", phone: PHONE, postalCode: null });
    expect(await rowOf(b)).toEqual({ outcome: "failed", reason: "carrier:failure", phone: PHONE, postalCode: null });
    expect(await rowOf(card)).toBeNull();
    expect(await counts()).toMatchObject({ phoneFailed: 1, phoneDelivered: 1 });
  });

  it("joins what orders/fulfilled learnt (the postal code stays); an order the app never recorded as COD is not learnt", async () => {
    const a = order();
    await create(a);
    await callRoute(fulfilled, signedWebhook("orders/fulfilled", { ...a, fulfillment_status: "fulfilled" }));
    expect(await rowOf(a)).toEqual({ outcome: "delivered", reason: "fulfilled", phone: PHONE, postalCode: "400001" });
    await carrierEvent(a, "failure");
    expect(await rowOf(a)).toEqual({ outcome: "failed", reason: "carrier:failure", phone: PHONE, postalCode: "400001" });
    const unknown = order();
    expect((await carrierEvent(unknown, "failure")).status).toBe(200);
    expect(await rowOf(unknown)).toBeNull();
  });

  it("replays a refused shopper: after the carrier's failure the same phone gets no COD on its next attempt (high at 25)", async () => {
    const a = provenOrderPayload(PHONE, { shipping_address: ADDRESS }); // placed with the phone's proof
    await create(a);
    await carrierEvent(a, "failure");
    expect((await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE } }))).status).toBe(200);
    const verified = await jsonOf(await callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body: { phone: PHONE, otp: twilio.twilio.codeFor(PHONE) } })));
    expect(verified).toMatchObject({ allowedModes: ["prepaid", "partial"], risk: { band: "high", reasons: [{ code: "rto_prone_phone" }] } });
    const res = await callRoute(createCheckout, signedRequest("/create-checkout", { method: "POST", body: { phone: PHONE, selectedMode: "cod", variantId: "1", proof: verified.proof } }));
    expect(await jsonOf(res)).toMatchObject({ code: "cod_not_allowed" });
  });

  it("reads the order id beyond 2^53 from the raw body; a delivery naming no order or no status is answered 200 and learnt from nothing; another topic's is refused", async () => {
    const a = order();
    const body = fulfillmentEventBody(a.admin_graphql_api_id, "delivered");
    expect(readFulfillmentEvent(body, JSON.parse(body))).toEqual({ orderGid: a.admin_graphql_api_id, status: "delivered" });
    // JSON.parse loses the id's last digits: the raw body's are read.
    expect(String(JSON.parse(body).order_id)).not.toBe(a.admin_graphql_api_id.split("/").pop());
    await create(a);
    expect((await carrierEvent(a, "delivered", undefined, fulfillmentEventBody(a.admin_graphql_api_id, "delivered").replace(/"order_id":\d+,/, ""))).status).toBe(200);
    expect((await carrierEvent(a, "", undefined, fulfillmentEventBody(a.admin_graphql_api_id, ""))).status).toBe(200);
    expect(await rowOf(a)).toBeNull();
    const wrongTopic = await callRoute(carrier, signedWebhook("orders/fulfilled", a));
    expect(wrongTopic.status).toBe(400);
    expect(await prisma.orderOutcome.count()).toBe(0);
  });
});

describe("orders/updated: a failure tag removed again", () => {
  it("undoes the failure the tag learnt: the row and the phone's and postal code's counts move back, once, however often Shopify redelivers", async () => {
    const a = order();
    await create(a);
    await update(a, 1, { tags: "RTO" }, "u1");
    expect(await counts()).toEqual({ phoneFailed: 1, phoneDelivered: 0, postalOrders: 1, postalFailed: 1 });
    for (const id of ["u2", "u2", "u2-again"]) expect((await update(a, 2, { tags: "vip" }, id)).status).toBe(200);
    // Nothing learnt is left: the row keeps the order's state only, not its phone or postal code.
    expect(await rowOf(a)).toEqual({ outcome: "none", reason: null, phone: null, postalCode: null });
    expect(await counts()).toEqual({ phoneFailed: 0, phoneDelivered: 0, postalOrders: 0, postalFailed: 0 });
    // The tagged state delivered again later (a new delivery id): older than the state applied, ignored.
    await update(a, 1, { tags: "RTO" }, "u1-late");
    expect(await counts()).toMatchObject({ phoneFailed: 0, postalFailed: 0 });
    // The merchant tags it again: failed once more.
    await update(a, 3, { tags: "RTO, vip" }, "u3");
    expect(await rowOf(a)).toEqual({ outcome: "failed", reason: "tag:RTO", phone: PHONE, postalCode: "400001" });
    expect(await counts()).toMatchObject({ phoneFailed: 1, postalFailed: 1 });
  });

  it("an order seen delivered goes back to delivered; the score no longer counts the phone's failure", async () => {
    const a = order();
    await create(a);
    await callRoute(fulfilled, signedWebhook("orders/fulfilled", { ...a, fulfillment_status: "fulfilled" }));
    await update(a, 1, { tags: "returned" });
    expect(await rowOf(a)).toMatchObject({ outcome: "failed", reason: "tag:returned" });
    await update(a, 2, { tags: "" });
    expect(await rowOf(a)).toMatchObject({ outcome: "delivered", reason: "fulfilled" });
    expect(await counts()).toEqual({ phoneFailed: 0, phoneDelivered: 1, postalOrders: 1, postalFailed: 0 });
    const next = order();
    await create(next);
    const record = await prisma.orderRecord.findFirstOrThrow({ where: { orderGid: next.admin_graphql_api_id } });
    const codes = (JSON.parse(record.riskReasons!) as { reasons: { code: string }[] }).reasons.map((r) => r.code);
    expect(codes).toContain("good_history");
    expect(codes).not.toContain("rto_prone_phone");
  });

  it("two states out of order: the removal arriving before the tagged state leaves the order unfailed; concurrent deliveries of both end on the newer", async () => {
    const a = order();
    const b = order();
    await update(a, 2, { tags: "" });
    expect(await rowOf(a)).toEqual({ outcome: "none", reason: null, phone: null, postalCode: null });
    await update(a, 1, { tags: "RTO" });
    expect(await rowOf(a)).toMatchObject({ outcome: "none" });
    await Promise.all(Array.from({ length: 10 }, (_, i) => [update(b, 1, { tags: "RTO" }, `b1-${i}`), update(b, 2, { tags: "" }, `b2-${i}`)]).flat());
    expect(await rowOf(b)).toMatchObject({ outcome: "none" });
    expect(await counts()).toMatchObject({ phoneFailed: 0, postalFailed: 0 });
  });

  it("keeps the failure when other evidence remains: the newer state is refunded or cancelled, or the carrier reported a failure", async () => {
    const [refunded, cancelledOrder, carrierFailed, cancelledFirst] = [order(), order(), order(), order()];
    for (const o of [refunded, cancelledOrder, carrierFailed, cancelledFirst]) {
      await create(o);
      await update(o, 1, { tags: "RTO" });
    }
    await update(refunded, 2, { tags: "", financial_status: "refunded" });
    await update(cancelledOrder, 2, { tags: "", cancelled_at: new Date().toISOString() });
    await carrierEvent(carrierFailed, "failure");
    await update(carrierFailed, 2, { tags: "" });
    await callRoute(cancelled, signedWebhook("orders/cancelled", { ...cancelledFirst, cancelled_at: new Date().toISOString() }));
    await update(cancelledFirst, 2, { tags: "" });
    expect(await rowOf(refunded)).toMatchObject({ outcome: "failed", reason: "refunded" });
    expect(await rowOf(cancelledOrder)).toMatchObject({ outcome: "failed", reason: "cancelled" });
    expect(await rowOf(carrierFailed)).toMatchObject({ outcome: "failed", reason: "carrier:failure" });
    expect(await rowOf(cancelledFirst)).toMatchObject({ outcome: "failed", reason: "cancelled" });
    expect(await counts()).toMatchObject({ phoneFailed: 4 });
  });

  it("a card order's updates write nothing", async () => {
    const card = order(CARD);
    await update(card, 1, { tags: "RTO" });
    await update(card, 2, { tags: "" });
    expect(await prisma.orderOutcome.count()).toBe(0);
  });
});
