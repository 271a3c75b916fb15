import crypto from "node:crypto";
import { env } from "~/core/env.server";
import { issueProof, PROOF_ATTRIBUTE } from "~/otp/proof.server";
import { carrierReported, orderPlaced } from "../mocks/shopify/learnt-orders";
import { SHOP } from "./shops";

export type SignedWebhookOptions = {
  shop?: string;
  /** X-Shopify-Webhook-Id: the same id means the same delivery (a redelivery). */
  webhookId?: string;
  /** X-Shopify-Event-Id: the same id across deliveries means the same event (two subscriptions of one topic). */
  eventId?: string;
  secret?: string;
  apiVersion?: string;
  /** Send this exact raw body (e.g. with numeric ids beyond 2^53) instead of JSON.stringify(payload). */
  rawBody?: string;
  /** Tamper with the request after signing. */
  headers?: Record<string, string | null>;
};

/**
 * A webhook delivery as Shopify sends it: base64 HMAC-SHA256 of the raw body under the app's secret, and the
 * headers the library requires. An orders/create is first an order in every running fake store (local mode's,
 * ../mocks/shopify/learnt-orders.ts), as Shopify holds the order before it tells the app; a fulfillment_events/create
 * is first the carrier's event on that store's order (it ships).
 */
export function signedWebhook(topic: string, payload: unknown, options: SignedWebhookOptions = {}): Request {
  const body = options.rawBody ?? JSON.stringify(payload);
  if (topic === "orders/create") orderPlaced(options.shop ?? SHOP, options.rawBody === undefined ? payload : parsedOrNull(options.rawBody));
  if (topic === "fulfillment_events/create") carrierReported(options.shop ?? SHOP, body);
  const hmac = crypto.createHmac("sha256", options.secret ?? env.SHOPIFY_API_SECRET).update(body, "utf8").digest("base64");
  const headers = new Headers({
    "content-type": "application/json",
    "x-shopify-hmac-sha256": hmac,
    "x-shopify-topic": topic,
    "x-shopify-shop-domain": options.shop ?? SHOP,
    "x-shopify-api-version": options.apiVersion ?? "2026-10",
    "x-shopify-webhook-id": options.webhookId ?? crypto.randomUUID(),
    // One event per webhook id here: a redelivery (the same webhook id) is the same event, as Shopify sends it.
    "x-shopify-event-id": options.eventId ?? (options.webhookId ? `event-${options.webhookId}` : crypto.randomUUID()),
    "x-shopify-triggered-at": new Date().toISOString(),
  });
  for (const [k, v] of Object.entries(options.headers ?? {})) {
    if (v === null) headers.delete(k);
    else headers.set(k, v);
  }
  return new Request(`https://app.example.com/webhooks/${topic}`, { method: "POST", headers, body });
}

function parsedOrNull(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

let orderSeq = 820982911946154500n;

/** An orders/create payload shaped like Shopify's sample (REST Order), with a fresh id beyond 2^53. */
export function orderCreatedPayload(overrides: Record<string, unknown> = {}) {
  const id = (orderSeq += 1n);
  return {
    id: Number(id),
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${1000 + Number(id % 1000n)}`,
    created_at: new Date().toISOString(),
    token: "b1946ac92492d2347c6235b4d2611184",
    cart_token: null,
    checkout_token: null,
    phone: null,
    email: "buyer@example.com",
    financial_status: "pending",
    gateway: "Cash on Delivery (COD)",
    payment_gateway_names: ["Cash on Delivery (COD)"],
    note_attributes: [],
    tags: "",
    customer: { id: 1153106273, email: "buyer@example.com", phone: null },
    billing_address: { first_name: "Amina", phone: null, country_code: "MA" },
    shipping_address: { first_name: "Amina", phone: null, country_code: "MA" },
    line_items: [{ id: 866550311, variant_id: 808950810, quantity: 1, price: "199.00" }],
    ...overrides,
  };
}

/**
 * A COD order placed with the shopper's proof (the `_cod_proof` attribute verify-otp's proof puts on
 * the cart): orders/create records it verified by proof, so its phone proved it (the risk history).
 */
export function provenOrderPayload(phone: string, overrides: Record<string, unknown> = {}, shop = SHOP) {
  const proof = issueProof(shop, { phone, mode: "cod", selectionId: "none" }).token;
  return orderCreatedPayload({ phone, note_attributes: [{ name: PROOF_ATTRIBUTE, value: proof }], ...overrides });
}

let fulfillmentEventSeq = 1000;

/**
 * A fulfillment_events/create raw body shaped like Shopify's (REST FulfillmentEvent) for the order of
 * `orderGid`, its numeric ids written as digits (beyond 2^53, as Shopify's JSON carries them).
 */
export function fulfillmentEventBody(orderGid: string, status: string, overrides: Record<string, unknown> = {}): string {
  const orderId = orderGid.replace("gid://shopify/Order/", "");
  const id = (fulfillmentEventSeq += 1);
  const rest = JSON.stringify({
    fulfillment_id: 255858046,
    status,
    message: null,
    happened_at: new Date().toISOString(),
    city: null,
    province: null,
    country: "IN",
    zip: null,
    address1: null,
    latitude: null,
    longitude: null,
    shop_id: 690933842,
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    estimated_delivery_at: null,
    admin_graphql_api_id: `gid://shopify/FulfillmentEvent/${id}`,
    ...overrides,
  });
  return `{"id":${id},"order_id":${orderId},${rest.slice(1)}`;
}
