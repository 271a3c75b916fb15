import crypto from "node:crypto";
import { env } from "~/env.server";
import { SHOP } from "./shops";

/**
 * A webhook delivery as Shopify sends it: the raw JSON body, its base64 HMAC-SHA256 under the app's
 * secret in X-Shopify-Hmac-Sha256, and the headers `authenticate.webhook` requires
 * (@shopify/shopify-api lib/webhooks/validate: topic, api version, shop domain, webhook id).
 */
export function signedWebhook(
  topic: string,
  payload: unknown,
  opts: { shop?: string; secret?: string; webhookId?: string; apiVersion?: string; path?: string; hmac?: string } = {},
): Request {
  const body = JSON.stringify(payload);
  const hmac = opts.hmac ?? crypto.createHmac("sha256", opts.secret ?? env.SHOPIFY_API_SECRET).update(body, "utf8").digest("base64");
  return new Request(`https://app.example.com${opts.path ?? `/webhooks/${topic}`}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-shopify-hmac-sha256": hmac,
      "x-shopify-topic": topic,
      "x-shopify-api-version": opts.apiVersion ?? "2026-10",
      "x-shopify-shop-domain": opts.shop ?? SHOP,
      "x-shopify-webhook-id": opts.webhookId ?? crypto.randomUUID(),
      "x-shopify-triggered-at": new Date().toISOString(),
      "x-shopify-event-id": crypto.randomUUID(),
    },
    body,
  });
}
