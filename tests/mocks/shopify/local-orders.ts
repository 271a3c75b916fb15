import crypto from "node:crypto";
import { LOCAL_DEFAULTS } from "../../../app/server/app-proxy-signature.mjs";
import { learnOrder, orderCreatedPayload, payOrderOnline, type OrderCreatedPayload, type OrderStores } from "./learnt-orders";

/**
 * Local mode's orders: what the app is told about is first an order in the fake store.
 *   POST /local/orders?shop=<domain>      an orders/create payload: the store holds the order (npm run local:order posts it
 *                                         here before delivering the webhook; the checkout's pay button learns its own)
 *   GET  /local/order-payment?order=<n>   the stand-in for Shopify's payment page of an order with a balance (the pay-now
 *                                         offer's link is Shopify's https one, on the shop's domain: open this one instead)
 *   POST /local/order-payment/pay?order=<n>  the shopper pays online: the balance is paid, and orders/paid is delivered to
 *                                         the app (LOCAL_APP_URL), signed with its secret, as Shopify delivers it
 *   POST /local/orders/event?order=<n>&status=<s>  the carrier's tracking status (out_for_delivery, attempted_delivery,
 *                                         failure, delivered): the order is fulfilled (one fulfillment, its events kept) and
 *                                         fulfillment_events/create is delivered to the app
 */
export type LocalOrders = {
  learn: (shop: string, payload: unknown) => OrderCreatedPayload;
  /** Learns the order unless the store holds it already (a redelivery, or the same id under another shop's header). */
  learnOnce: (shop: string, payload: unknown) => void;
  /** Keeps a carrier's status on an order the store holds for `shop` (a test's own fulfillment_events/create). */
  carrierEvent: (shop: string, orderGid: string, status: string, eventGid: string | null) => void;
  payloads: Map<string, { shop: string; payload: Record<string, unknown> }>;
  /** Each shipped order's fulfillment and the carrier's statuses on it, in order. */
  fulfillments: Map<string, { id: number; events: string[] }>;
};

const json = (status: number, body: unknown) => ({ status, type: "application/json; charset=utf-8", body: JSON.stringify(body) });
const esc = (v: unknown) => String(v).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function installLocalOrders(stores: OrderStores): LocalOrders {
  const { fake } = stores;
  const payloads = new Map<string, { shop: string; payload: Record<string, unknown> }>();
  const learn = (shop: string, payload: unknown) => {
    // The payment page Shopify gives the order is https on the shop's domain (the app follows no other); locally
    // the same order is paid at /local/order-payment?order=<n>.
    const learnt = learnOrder(stores, shop, payload);
    payloads.set(learnt.admin_graphql_api_id, { shop, payload: payload as Record<string, unknown> });
    return learnt;
  };
  const learnOnce = (shop: string, payload: unknown) => {
    const parsed = orderCreatedPayload.safeParse(payload);
    if (!parsed.success || payloads.has(parsed.data.admin_graphql_api_id)) return;
    // An order another shop holds is not this shop's to learn: Shopify has one order per id, in one shop.
    const owner = fake.ownerOf(parsed.data.admin_graphql_api_id);
    if (owner && owner !== shop) return;
    learn(shop, payload);
  };

  fake.page("/local/orders", ({ method, url, body }) => {
    if (method !== "POST") return json(405, { error: "Use POST with an orders/create payload.", code: "method_not_allowed" });
    const shop = url.searchParams.get("shop") || LOCAL_DEFAULTS.shop;
    try {
      const raw: unknown = JSON.parse(body || "null");
      const id = orderCreatedPayload.safeParse(raw).data?.admin_graphql_api_id;
      const owner = id ? (payloads.get(id)?.shop ?? fake.ownerOf(id)) : undefined;
      // One order per id, in one shop: another shop cannot place (or take over) an order the store holds.
      if (owner && owner !== shop) return json(409, { error: "Another shop's order has this id.", code: "order_of_another_shop" });
      const order = learn(shop, raw);
      return json(200, { order: { id: order.admin_graphql_api_id, name: order.name, shop } });
    } catch (error) {
      return json(400, { error: `Not an orders/create payload the store can hold: ${String((error as Error).message).slice(0, 300)}`, code: "invalid_order" });
    }
  });

  const orderOf = (url: URL) => `gid://shopify/Order/${url.searchParams.get("order") ?? ""}`;
  fake.page("/local/order-payment", ({ url }) => {
    const id = orderOf(url);
    const order = stores.prepaid.orders.get(id);
    if (!order) return { status: 404, type: "text/plain; charset=utf-8", body: "No such order in the local store." };
    const due = stores.prepaid.outstanding(order);
    const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pay for your order</title></head><body style="font-family:system-ui;max-width:36rem;margin:2rem auto;padding:0 1rem">
<h1>Pay for order ${esc(stores.orders.get(id)?.name ?? id)}</h1><p>Local mode: this page stands in for Shopify's payment page of an order.</p>
${due > 0 ? `<p>Due: <strong>${esc(due.toFixed(2))} ${esc(order.currency)}</strong></p><form method="post" action="/local/order-payment/pay?order=${esc(url.searchParams.get("order"))}"><button>Pay ${esc(due.toFixed(2))} online</button></form>` : "<p>Nothing is left to pay.</p>"}
</body></html>`;
    return { status: 200, type: "text/html; charset=utf-8", body };
  });

  fake.page("/local/order-payment/pay", ({ method, url }) => {
    if (method !== "POST") return json(405, { error: "Use POST.", code: "method_not_allowed" });
    const id = orderOf(url);
    const paid = payOrderOnline(stores, id);
    if (!paid.ok) return json(409, { error: "Nothing is left to pay on this order.", code: "nothing_due" });
    const known = payloads.get(id);
    if (known) void deliverWebhook("orders/paid", known.shop, { ...known.payload, financial_status: "paid" });
    return json(200, { order: id, paid: paid.amount, ordersPaid: known ? "delivered to the app" : "not delivered: the store does not know the order's payload" });
  });

  let eventSeq = 4_000_000;
  const fulfillments = new Map<string, { id: number; events: string[] }>();
  /** The order ships: one fulfillment, its events in order, and the order fulfilled as Shopify shows it. */
  const ship = (id: string, status: string) => {
    const f = fulfillments.get(id) ?? { id: ++eventSeq, events: [] };
    f.events.push(status);
    fulfillments.set(id, f);
    const placed = stores.orders.get(id);
    if (placed) placed.displayFulfillmentStatus = "FULFILLED";
    const prepaid = stores.prepaid.orders.get(id);
    if (prepaid) prepaid.displayFulfillmentStatus = "FULFILLED";
    return f;
  };
  /** A test's own carrier event: kept on an order this store holds for that shop (another shop's order is not touched). */
  const seenEvents = new Set<string>();
  const carrierEvent = (shop: string, id: string, status: string, eventGid: string | null) => {
    if (payloads.get(id)?.shop !== shop || (eventGid && seenEvents.has(eventGid))) return;
    if (eventGid) seenEvents.add(eventGid);
    ship(id, status);
  };
  fake.page("/local/orders/event", ({ method, url }) => {
    if (method !== "POST") return json(405, { error: "Use POST.", code: "method_not_allowed" });
    const id = orderOf(url);
    const status = url.searchParams.get("status") ?? "";
    const known = payloads.get(id);
    if (!known) return json(404, { error: "The local store does not hold this order: place it with npm run local:order first.", code: "unknown_order" });
    if (!/^(label_printed|label_purchased|confirmed|in_transit|out_for_delivery|attempted_delivery|ready_for_pickup|picked_up|delivered|failure|carrier_picked_up)$/.test(status)) {
      return json(400, { error: "status must be one of Shopify's fulfillment event statuses, such as out_for_delivery, attempted_delivery, failure or delivered.", code: "invalid_status" });
    }
    const f = ship(id, status);
    const now = new Date().toISOString();
    // order_id goes in as written: Shopify's ids pass 2^53, which a JavaScript number would round.
    const event = {
      id: ++eventSeq,
      fulfillment_id: f.id,
      status,
      message: null,
      happened_at: now,
      country: "IN",
      shop_id: 1,
      created_at: now,
      updated_at: now,
      admin_graphql_api_id: `gid://shopify/FulfillmentEvent/${eventSeq}`,
    };
    void deliverWebhook("fulfillment_events/create", known.shop, `{"order_id":${id.split("/").pop()},${JSON.stringify(event).slice(1)}`);
    return json(200, { order: id, fulfillment: { id: f.id, events: f.events }, delivered: "fulfillment_events/create" });
  });

  return { learn, learnOnce, carrierEvent, payloads, fulfillments };
}

/** Delivers a webhook to the running app as Shopify does (HMAC-SHA256 of the body with the app's secret). */
export async function deliverWebhook(topic: string, shop: string, payload: unknown): Promise<number | null> {
  const appUrl = (process.env.LOCAL_APP_URL ?? process.env.SHOPIFY_APP_URL ?? "").replace(/\/+$/, "");
  if (!appUrl) return null;
  const body = typeof payload === "string" ? payload : JSON.stringify(payload);
  const secret = process.env.SHOPIFY_API_SECRET ?? LOCAL_DEFAULTS.secret;
  try {
    const res = await fetch(`${appUrl}/webhooks/${topic}`, {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        "x-shopify-hmac-sha256": crypto.createHmac("sha256", secret).update(body).digest("base64"),
        "x-shopify-topic": topic,
        "x-shopify-shop-domain": shop,
        "x-shopify-webhook-id": crypto.randomUUID(),
        "x-shopify-event-id": crypto.randomUUID(),
        "x-shopify-api-version": "2026-10",
        "x-shopify-triggered-at": new Date().toISOString(),
      },
    });
    process.stdout.write(`[fake Shopify] delivered ${topic} to the app: ${res.status}\n`);
    return res.status;
  } catch (error) {
    process.stderr.write(`[fake Shopify] could not deliver ${topic} to ${appUrl}: ${String(error)}\n`);
    return null;
  }
}
