import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { InvalidShopError } from "@shopify/shopify-api";
import { authenticate } from "~/core/shopify/app.server";
import { env } from "~/core/env.server";
import { observeWebhook } from "~/core/metrics.server";
import { shopDomainPattern } from "~/http/app-proxy.server";
import { jsonError, methodNotAllowed, responseForError, unavailable } from "~/http/responses.server";
import { bothWays, wireRequest, type WireRequest } from "~/http/storefront.server";

/**
 * What a webhook route gets: the shop, the topic as the library names it (`ORDERS_CREATE`), the delivery's
 * idempotency id (`webhookId`: see deliveryKey), the payload and the body as it came (the text the HMAC signs).
 */
export type WebhookContext = { shop: string; topic: string; webhookId: string; apiVersion: string; payload: Record<string, unknown>; rawBody: string };

/** The topics the app serves, as `shopify.app.toml` names them; each route passes its own. */
export type WebhookTopic =
  | "app/uninstalled"
  | "app_subscriptions/update"
  | "customers/data_request"
  | "customers/redact"
  | "fulfillment_events/create"
  | "orders/create"
  | "orders/cancelled"
  | "orders/fulfilled"
  | "orders/updated"
  | "orders/paid"
  | "shop/redact"
  | "shop/update";

/**
 * The topics whose body names the shop, and the field that names it. The HMAC covers the body only,
 * not the headers: without this, one signed body could be replayed under another shop's header.
 */
const SHOP_IN_BODY: Partial<Record<WebhookTopic, "myshopify_domain" | "shop_domain">> = {
  "app/uninstalled": "myshopify_domain",
  "customers/data_request": "shop_domain",
  "customers/redact": "shop_domain",
  "shop/redact": "shop_domain",
};

/**
 * The webhook guard, with every refusal as a JSON error:
 *   405 `method_not_allowed` (with Allow) for anything but POST;
 *   401 `invalid_hmac` for a wrong HMAC;
 *   400 `invalid_request` for an empty body, missing Shopify headers (the HMAC's included), a shop
 *     header that is not a shop domain, or a body that is not a JSON object: a retry cannot fix those,
 *     and nothing is stored for them;
 *   400 `topic_mismatch` when the X-Shopify-Topic header is not the route's topic, and 400
 *     `shop_mismatch` when a topic whose body names the shop (SHOP_IN_BODY) names another shop than
 *     the header: the HMAC signs the body alone, so a captured body must not be replayed to another
 *     route or under another shop's header.
 * Lone UTF-16 surrogates (`\ud800` escapes) are stripped from the payload's strings: no database
 * accepts them, and a retry would not fix them.
 * Database failures pass through to the route's `answer`, which turns them into 503 (Shopify retries).
 *
 * Deliveries are checked here as `authenticate.webhook` checks them (see verifyWebhookHmac), without
 * the admin API client and session lookup it builds for every delivery, which no route uses: that was
 * most of a delivery's cost (docs/performance.md). Shopify's newer event deliveries (`shopify-event-*`
 * headers) still go through the library.
 */
export async function authenticateWebhook(request: Request | WireRequest, route: WebhookTopic): Promise<WebhookContext> {
  const delivery = await verifiedDelivery(wireRequest(request));
  if (delivery.topic !== topicKey(route)) throw topicMismatch(route);
  const field = SHOP_IN_BODY[route];
  if (field) {
    const named = delivery.payload[field];
    if (typeof named !== "string" || named.toLowerCase() !== delivery.shop.toLowerCase()) throw shopMismatch(field);
  }
  return delivery;
}

/**
 * What a webhook's work comes to: `done` is answered 200 with no body (the work is done, or there was
 * none to do), `retry` 503 `unavailable` with Retry-After, so Shopify delivers it again.
 */
export type WebhookOutcome = "done" | "retry";

/**
 * A webhook route: the guard (the checks above, for the route's topic), then `handler` with the verified
 * delivery. Its two ways in (`action`, Remix's; `wire`, the production server's) are the storefront's
 * JSON routes' own (`bothWays`, app/http/storefront.server.ts): the same guard and handler, the same
 * answers: a guard's refusal as it was thrown, an error as `answer()` gives it (503 `unavailable` when
 * the database failed, else 500 `internal_error`),
 * another method 405.
 */
export function webhookRoute(route: WebhookTopic, handler: (delivery: WebhookContext) => Promise<WebhookOutcome>) {
  const where = `webhooks/${route}`;
  async function run(request: WireRequest): Promise<Response | null> {
    const answered = await settle(request);
    observeWebhook(route, answered === null ? "done" : answered.status >= 500 ? "retry" : "refused", request.header("x-shopify-triggered-at"));
    return answered;
  }
  async function settle(request: WireRequest): Promise<Response | null> {
    try {
      return (await handler(await authenticateWebhook(request, route))) === "done" ? null : unavailable();
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      return responseForError(thrown, where);
    }
  }
  return bothWays("POST", run);
}

export type WebhookRoute = ReturnType<typeof webhookRoute>;

/** `app/uninstalled` → `APP_UNINSTALLED`, as the library stores topics. */
function topicKey(topic: string): string {
  return topic.toUpperCase().replace(/\/|\./g, "_");
}

/** A body past this is refused before it is decoded (the server cuts every body off at 1 MiB too). */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;
/** UTF-8, a leading byte-order mark dropped: as a web Request's text() reads a body. */
const utf8 = new TextDecoder();

async function verifiedDelivery(request: WireRequest): Promise<WebhookContext> {
  if (request.method !== "POST") throw methodNotAllowed(["POST"]);
  if (request.header("shopify-event-hmac-sha256") !== null) return throughLibrary(request.toRequest());
  const bytes = await request.body(WEBHOOK_BODY_LIMIT);
  if (bytes === "too_large") throw badDelivery("The webhook's body is too large.");
  const rawBody = utf8.decode(bytes);
  const hmac = request.header("x-shopify-hmac-sha256");
  if (!rawBody.length || !hmac) throw missingHeaders();
  if (!verifyWebhookHmac(rawBody, hmac, env.SHOPIFY_API_SECRET)) throw invalidHmac();
  const topic = request.header("x-shopify-topic");
  const shop = request.header("x-shopify-shop-domain");
  const apiVersion = request.header("x-shopify-api-version");
  const webhookId = request.header("x-shopify-webhook-id");
  if (!topic || !shop || !apiVersion || !webhookId) throw missingHeaders();
  const eventId = request.header("x-shopify-event-id");
  if (!shopDomainPattern().test(shop)) throw badShop();
  let payload: unknown;
  try {
    payload = parseWellFormed(rawBody);
  } catch {
    throw badDelivery("The webhook's body is not JSON.");
  }
  return { shop, topic: topicKey(topic), webhookId: deliveryKey(topicKey(topic), eventId || webhookId, rawBody), apiVersion, payload: asObject(payload), rawBody };
}

// ---- Idempotency (issue 33): one key per delivered event, however often and by however many subscriptions.
/**
 * The id a delivery is recorded under (WebhookDelivery): the topic, Shopify's event id
 * (X-Shopify-Event-Id: the same for every copy of one event, retries and duplicate subscriptions alike;
 * X-Shopify-Webhook-Id when absent) and a digest of the signed body. Headers are not signed, so the
 * body's digest keeps a replayed body under a made-up event id from claiming a real event's id in advance
 * (its body differs) while a redelivery (same event, same body) finds its record.
 */
export function deliveryKey(topic: string, eventId: string, rawBody: string): string {
  const digest = createHash("sha256").update(rawBody, "utf8").digest("base64url").slice(0, 22);
  return `${topic}:${eventId.slice(0, 100)}:${digest}`;
}

/**
 * Shopify's webhook HMAC, checked as `@shopify/shopify-api`'s validateHmacFromRequest does, with
 * node:crypto (synchronous) instead of WebCrypto: HMAC-SHA256 under the app's secret over the body
 * as text, base64, compared in constant time. A unit test holds it to the library's verdict.
 */
export function verifyWebhookHmac(rawBody: string, hmac: string, secret: string): boolean {
  const expected = Buffer.from(createHmac("sha256", secret).update(rawBody, "utf8").digest("base64"), "utf8");
  const given = Buffer.from(hmac, "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function throughLibrary(request: Request): Promise<WebhookContext> {
  let context: Awaited<ReturnType<typeof authenticate.webhook>>;
  let rawBody: string;
  try {
    rawBody = await request.clone().text();
    context = await authenticate.webhook(request);
  } catch (thrown) {
    if (thrown instanceof Response) {
      if (thrown.status === 401) throw invalidHmac();
      if (thrown.status === 405) throw methodNotAllowed(["POST"]);
      if (thrown.status < 500) throw missingHeaders();
      throw thrown;
    }
    if (thrown instanceof InvalidShopError || (thrown as Error)?.name === "InvalidShopError") throw badShop();
    if (thrown instanceof SyntaxError) throw badDelivery("The webhook's body is not JSON.");
    throw thrown;
  }
  const { shop, topic, webhookId, apiVersion, payload } = context;
  return { shop, topic: topicKey(topic), webhookId, apiVersion, payload: asObject(wellFormed(payload)), rawBody };
}

// A `\uD800`–`\uDFFF` escape in the raw text: the only way a lone surrogate reaches a parsed string
// (the body's bytes were decoded as UTF-8, which yields none). Checked first so ordinary deliveries
// parse without a reviver.
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** JSON.parse, with lone surrogates stripped from every string (paired ones, e.g. emoji, are kept). */
export function parseWellFormed(text: string): unknown {
  if (!SURROGATE_ESCAPE.test(text)) return JSON.parse(text);
  return JSON.parse(text, (_key, value: unknown) => (typeof value === "string" ? value.replace(LONE_SURROGATE, "") : value));
}

function wellFormed(value: unknown): unknown {
  if (typeof value === "string") return value.replace(LONE_SURROGATE, "");
  if (Array.isArray(value)) return value.map(wellFormed);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wellFormed(v)]));
  return value;
}

function asObject(payload: unknown): Record<string, unknown> {
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) {
    throw badDelivery("The webhook's body must be a JSON object.");
  }
  return payload as Record<string, unknown>;
}

const invalidHmac = () => jsonError(401, "invalid_hmac", "The webhook's HMAC is missing or wrong.");
const missingHeaders = () => badDelivery("The webhook is missing Shopify's headers.");
const badShop = () => badDelivery("The webhook's shop header is not a shop domain.");
const topicMismatch = (route: WebhookTopic) =>
  jsonError(400, "topic_mismatch", `This route serves ${route} deliveries only; the X-Shopify-Topic header names another topic.`);
const shopMismatch = (field: string) =>
  jsonError(400, "shop_mismatch", `The webhook's body (${field}) does not name the shop in the X-Shopify-Shop-Domain header.`);

function badDelivery(message: string) {
  return jsonError(400, "invalid_request", message);
}
