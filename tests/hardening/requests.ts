import crypto from "node:crypto";
import { signedProxyQuery } from "../../app/server/app-proxy-signature.mjs";

/** What the hardening suites send to a running server (server.mjs in local mode: the demo shop, the local secret). */
export const SECRET = "local-dev-api-secret";
export const DEMO_SHOP = "demo-shop.myshopify.com";

export const PROXY_ROUTES: { path: string; method: "GET" | "POST"; body?: unknown }[] = [
  { path: "/api/config", method: "GET" },
  { path: "/send-otp", method: "POST", body: { phone: "+14155550100" } },
  { path: "/verify-otp", method: "POST", body: { phone: "+14155550100", otp: "123456" } },
  { path: "/create-checkout", method: "POST", body: { phone: "+14155550100", selectedMode: "prepaid", variantId: "1" } },
  { path: "/api/address-correction.request", method: "POST", body: { phone: "+14155550100" } },
  { path: "/api/address-correction.status", method: "GET" },
  { path: "/ac/some-token", method: "GET" },
];

export const WEBHOOK_TOPICS = [
  "app/uninstalled",
  "app_subscriptions/update",
  "orders/create",
  "customers/data_request",
  "customers/redact",
  "fulfillment_events/create",
  "shop/redact",
  "shop/update",
];

/** A URL under /proxy signed as Shopify's app proxy signs it. */
export function signedProxyUrl(base: string, path: string, options: { shop?: string; extra?: [string, string][] } = {}) {
  const q = signedProxyQuery({ secret: SECRET, shop: options.shop ?? DEMO_SHOP, extra: options.extra ?? [] });
  return `${base}/proxy${path}?${q}`;
}

/** fetch() init for a webhook delivery signed with the app's secret over the exact raw body. */
export function signedWebhookInit(topic: string, rawBody: string, headers: Record<string, string | null> = {}): RequestInit {
  const h: Record<string, string> = {
    "content-type": "application/json",
    "x-shopify-hmac-sha256": crypto.createHmac("sha256", SECRET).update(rawBody, "utf8").digest("base64"),
    "x-shopify-topic": topic,
    "x-shopify-shop-domain": DEMO_SHOP,
    "x-shopify-api-version": "2026-10",
    "x-shopify-webhook-id": crypto.randomUUID(),
    "x-shopify-event-id": crypto.randomUUID(),
    "x-shopify-triggered-at": new Date().toISOString(),
  };
  for (const [k, v] of Object.entries(headers)) {
    if (v === null) delete h[k];
    else h[k] = v;
  }
  // A resend of one delivery (the same webhook id) is the same event, as Shopify sends it.
  if (headers["x-shopify-webhook-id"] && !("x-shopify-event-id" in headers)) h["x-shopify-event-id"] = `event-${headers["x-shopify-webhook-id"]}`;
  return { method: "POST", headers: h, body: rawBody };
}

/** A plausible payload per topic (enough for each route to do its work). */
export function webhookPayload(topic: string): Record<string, unknown> {
  const id = 820982911946154500 + Math.floor(Math.random() * 1e6);
  switch (topic) {
    case "orders/create":
      return { id, admin_graphql_api_id: `gid://shopify/Order/${id}`, name: "#1001", phone: "+14155550100", gateway: "Cash on Delivery (COD)", payment_gateway_names: ["Cash on Delivery (COD)"], note_attributes: [], tags: "" };
    case "app_subscriptions/update":
      return { app_subscription: { admin_graphql_api_id: "gid://shopify/AppSubscription/1", name: "COD Verify Pro", status: "ACTIVE" } };
    case "customers/data_request":
      return { shop_domain: DEMO_SHOP, customer: { id: 1, phone: "+14155550100" }, orders_requested: [1], data_request: { id: 9 } };
    case "customers/redact":
      return { shop_domain: DEMO_SHOP, customer: { id: 1, phone: "+14155550100" }, orders_to_redact: [1] };
    case "fulfillment_events/create":
      return { id: 1, fulfillment_id: 2, order_id: id, status: "delivered", shop_id: 1 };
    case "shop/redact":
      return { shop_domain: DEMO_SHOP };
    default:
      return { id: 1, domain: DEMO_SHOP, myshopify_domain: DEMO_SHOP };
  }
}
