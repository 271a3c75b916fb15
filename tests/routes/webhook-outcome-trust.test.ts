import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as cancelled from "~/routes/webhooks.orders.cancelled";
import * as fulfilled from "~/routes/webhooks.orders.fulfilled";
import * as updated from "~/routes/webhooks.orders.updated";
import * as carrier from "~/routes/webhooks.fulfillment_events.create";
import { prisma } from "~/core/db.server";
import { OPERATIONS } from "~/core/shopify/operations";
import * as handlers from "../mocks/shopify/handlers";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { fulfillmentEventBody, orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/**
 * An outcome webhook counts only for what Shopify signed and the shop can confirm (docs/webhooks.md):
 * its body must say what its topic says (the topic header is not signed), the order must be the
 * header's shop's (read back from that shop when the app has not learnt it yet), and a delivered event
 * counts once however often and under however many webhook ids it arrives. These tests replay genuine
 * bodies with their HMAC, as an attacker holding one delivery can.
 */
useFakeTwilio();
const shopify = useFakeShopify((f) => handlers.installDefaultHandlers(f));
beforeEach(() => handlers.installDefaultHandlers(shopify));

const OTHER = "other-shop.myshopify.com";
const PHONE = "+919812345678";
const ADDRESS = { first_name: "Asha", phone: PHONE, address1: "Flat 12, Shanti Apartments, MG Road", city: "Mumbai", province: "Maharashtra", zip: "400 001", country_code: "IN" };
const order = (overrides: Record<string, unknown> = {}) => orderCreatedPayload({ phone: PHONE, shipping_address: ADDRESS, ...overrides });
const outcomes = () => prisma.orderOutcome.findMany({ select: { shopId: true, orderGid: true, outcome: true, reason: true } });
/** The fake Shopify knows which shop each of these orders belongs to. */
const owners = (entries: [string, string][]) => entries.forEach(([id, shop]) => shopify.own(shop, id));

describe("an outcome's body must match its topic", () => {
  it("an orders/create body and its HMAC replayed to orders/cancelled and orders/fulfilled learns nothing, and closes no confirmation", async () => {
    await installShop();
    const placed = order();
    expect((await callRoute(ordersCreate, signedWebhook("orders/create", placed))).status).toBe(200);
    const confirmation = await prisma.orderConfirmation.findFirstOrThrow();
    expect((await callRoute(cancelled, signedWebhook("orders/cancelled", placed))).status).toBe(200);
    expect((await callRoute(fulfilled, signedWebhook("orders/fulfilled", placed))).status).toBe(200);
    expect(await outcomes()).toEqual([]);
    expect(await prisma.orderConfirmation.findUniqueOrThrow({ where: { id: confirmation.id } })).toMatchObject({ status: "pending", closedAt: null, cancelledAt: null });
    // The genuine deliveries of those topics count.
    expect((await callRoute(cancelled, signedWebhook("orders/cancelled", { ...placed, cancelled_at: new Date().toISOString() }))).status).toBe(200);
    expect(await outcomes()).toMatchObject([{ orderGid: placed.admin_graphql_api_id, outcome: "failed", reason: "cancelled" }]);
  });

  it("an order's body replayed to fulfillment_events/create learns nothing (it names no fulfilment)", async () => {
    await installShop();
    const placed = order({ status: "delivered", order_id: 820982911946154 });
    await callRoute(ordersCreate, signedWebhook("orders/create", placed));
    expect((await callRoute(carrier, signedWebhook("fulfillment_events/create", placed))).status).toBe(200);
    expect(await outcomes()).toEqual([]);
  });
});

describe("an outcome counts only for the header's shop's own order", () => {
  it("GIVEN another shop's genuine orders/cancelled WHEN replayed under this shop's header THEN nothing is learnt for this shop, even after its orders/create was replayed here too", async () => {
    await installShop();
    await installShop({ domain: OTHER });
    const theirs = order({ cancelled_at: new Date().toISOString() });
    owners([[theirs.admin_graphql_api_id, OTHER]]);
    // The other shop's orders/create replayed here first: it leaves a record, which proves nothing.
    expect((await callRoute(ordersCreate, signedWebhook("orders/create", { ...theirs, cancelled_at: null }))).status).toBe(200);
    for (const route of [cancelled, updated] as const) {
      const topic = route === cancelled ? "orders/cancelled" : "orders/updated";
      expect((await callRoute(route, signedWebhook(topic, { ...theirs, tags: "RTO", updated_at: new Date().toISOString() }))).status).toBe(200);
    }
    expect((await callRoute(fulfilled, signedWebhook("orders/fulfilled", { ...theirs, fulfillment_status: "fulfilled" }))).status).toBe(200);
    const event = fulfillmentEventBody(theirs.admin_graphql_api_id, "failure");
    expect((await callRoute(carrier, signedWebhook("fulfillment_events/create", null, { rawBody: event }))).status).toBe(200);
    expect(await outcomes()).toEqual([]);
    // Each was asked of this shop, which does not have the order.
    expect(shopify.callsTo(OPERATIONS.orderReadBack).every((c) => c.shop === SHOP && c.variables.id === theirs.admin_graphql_api_id)).toBe(true);
    // Under its own shop's header the same delivery counts.
    expect((await callRoute(cancelled, signedWebhook("orders/cancelled", theirs, { shop: OTHER }))).status).toBe(200);
    const other = await prisma.shop.findUniqueOrThrow({ where: { domain: OTHER } });
    expect(await outcomes()).toEqual([{ shopId: other.id, orderGid: theirs.admin_graphql_api_id, outcome: "failed", reason: "cancelled" }]);
  });

  it("asks Shopify once per order: a later outcome of an order already learnt is not read back again", async () => {
    await installShop();
    const placed = order();
    await callRoute(fulfilled, signedWebhook("orders/fulfilled", { ...placed, fulfillment_status: "fulfilled" }));
    await callRoute(cancelled, signedWebhook("orders/cancelled", { ...placed, cancelled_at: new Date().toISOString() }));
    expect(shopify.callsTo(OPERATIONS.orderReadBack)).toHaveLength(1);
    expect(await outcomes()).toMatchObject([{ outcome: "failed", reason: "cancelled" }]);
  });

  it("answers 503 and records nothing when Shopify cannot confirm the order; Shopify's next delivery learns it", async () => {
    await installShop();
    const placed = order({ cancelled_at: new Date().toISOString() });
    shopify.on(OPERATIONS.orderReadBack, () => ({ status: 502 }), "admin");
    const first = await callRoute(cancelled, signedWebhook("orders/cancelled", placed, { webhookId: "w-1" }));
    expect(first.status).toBe(503);
    expect(await outcomes()).toEqual([]);
    expect(await prisma.webhookDelivery.count()).toBe(0);
    shopify.on(OPERATIONS.orderReadBack, handlers.orderReadBack(), "admin");
    expect((await callRoute(cancelled, signedWebhook("orders/cancelled", placed, { webhookId: "w-1" }))).status).toBe(200);
    expect(await outcomes()).toMatchObject([{ outcome: "failed" }]);
  });
});

describe("idempotent per event", () => {
  it("one event delivered under two webhook ids (two subscriptions) and redelivered is handled once", async () => {
    await installShop();
    const placed = order({ cancelled_at: new Date().toISOString() });
    const event = { eventId: "evt-42" };
    await callRoute(cancelled, signedWebhook("orders/cancelled", placed, { webhookId: "sub-a", ...event }));
    await callRoute(cancelled, signedWebhook("orders/cancelled", placed, { webhookId: "sub-b", ...event }));
    await callRoute(cancelled, signedWebhook("orders/cancelled", placed, { webhookId: "sub-a", ...event }));
    expect(await prisma.webhookDelivery.count()).toBe(1);
    expect(shopify.callsTo(OPERATIONS.orderReadBack)).toHaveLength(1);
  });

  it("a replayed body under a made-up event id cannot claim a real event's id in advance", async () => {
    await installShop();
    const stale = order({ cancelled_at: null, updated_at: "2026-11-20T10:00:00Z", tags: "" });
    const real = { ...stale, tags: "RTO", updated_at: "2026-11-20T10:05:00Z" };
    // The attacker guesses the next event id and sends an old signed body under it first.
    await callRoute(updated, signedWebhook("orders/updated", stale, { webhookId: "x", eventId: "evt-next" }));
    await callRoute(updated, signedWebhook("orders/updated", real, { webhookId: "y", eventId: "evt-next" }));
    expect(await outcomes()).toMatchObject([{ outcome: "failed", reason: "tag:RTO" }]);
  });
});
