import { authenticate } from "~/core/shopify/app.server";
import { authenticateWebhook, deliveryKey, type WebhookTopic } from "~/http/webhook.server";
import { installShop, SHOP } from "../helpers/shops";
import { signedWebhook } from "../helpers/webhooks";

// Webhook deliveries are checked by the app itself (node:crypto, no admin client built per delivery);
// the library's authenticate.webhook is the reference. Both must take the same decision on every
// delivery below: accepted with the same shop, topic, delivery id and payload, or refused as a bad
// HMAC (the library's 401) or a bad delivery (any other refusal).

type Verdict = { accepted: { shop: string; topic: string; webhookId: string; apiVersion: string; payload: unknown } } | { refused: "hmac" | "bad" };

async function libraryVerdict(request: Request): Promise<Verdict> {
  try {
    const body = await request.clone().text();
    const { shop, topic, webhookId, apiVersion, payload } = await authenticate.webhook(request);
    if (payload === null || typeof payload !== "object" || Array.isArray(payload)) return { refused: "bad" };
    // The app records a delivery under its event (X-Shopify-Event-Id, else the webhook id) and body: the same decision, keyed per event.
    const event = request.headers.get("x-shopify-event-id") || webhookId;
    return { accepted: { shop, topic, webhookId: deliveryKey(topic, event, body), apiVersion, payload } };
  } catch (thrown) {
    return { refused: thrown instanceof Response && thrown.status === 401 ? "hmac" : "bad" };
  }
}

async function appVerdict(request: Request): Promise<Verdict> {
  try {
    // Each delivery goes to its own topic's route (a replay to another route: webhook-binding.test.ts).
    const route = (request.headers.get("x-shopify-topic") ?? "orders/create") as WebhookTopic;
    const { shop, topic, webhookId, apiVersion, payload } = await authenticateWebhook(request, route);
    return { accepted: { shop, topic, webhookId, apiVersion, payload } };
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    const body = (await thrown.json()) as { code: string };
    expect([401, 400]).toContain(thrown.status);
    return { refused: thrown.status === 401 && body.code === "invalid_hmac" ? "hmac" : "bad" };
  }
}

const order = { id: 1, admin_graphql_api_id: "gid://shopify/Order/1", note: "é ü ✓" };
const cases: Record<string, () => Request> = {
  "a good delivery": () => signedWebhook("orders/create", order, { webhookId: "w-1" }),
  "a dotted topic": () => signedWebhook("app_subscriptions/update", { app_subscription: {} }, { webhookId: "w-2" }),
  "the wrong secret": () => signedWebhook("orders/create", order, { secret: "another-secret" }),
  "a changed body": () => {
    const good = signedWebhook("orders/create", order);
    return new Request(good.url, { method: "POST", headers: good.headers, body: JSON.stringify({ ...order, id: 2 }) });
  },
  "no HMAC header": () => signedWebhook("orders/create", order, { headers: { "x-shopify-hmac-sha256": null } }),
  "an empty HMAC header": () => signedWebhook("orders/create", order, { headers: { "x-shopify-hmac-sha256": "" } }),
  "an HMAC in hex instead of base64": () => signedWebhook("orders/create", order, { headers: { "x-shopify-hmac-sha256": "ab".repeat(32) } }),
  "no topic": () => signedWebhook("orders/create", order, { headers: { "x-shopify-topic": null } }),
  "no shop header": () => signedWebhook("orders/create", order, { headers: { "x-shopify-shop-domain": null } }),
  "no API version": () => signedWebhook("orders/create", order, { headers: { "x-shopify-api-version": null } }),
  "no delivery id": () => signedWebhook("orders/create", order, { headers: { "x-shopify-webhook-id": null } }),
  "a shop header that is not a shop domain": () => signedWebhook("orders/create", order, { shop: "evil.example.com" }),
  "a shop header with a path": () => signedWebhook("orders/create", order, { shop: `${SHOP}/x` }),
  "an empty body": () => signedWebhook("orders/create", null, { rawBody: "" }),
  "a body that is not JSON": () => signedWebhook("orders/create", null, { rawBody: "not json" }),
  "a JSON array": () => signedWebhook("orders/create", null, { rawBody: "[1,2]" }),
  "a JSON string": () => signedWebhook("orders/create", null, { rawBody: '"x"' }),
  "upper-case header names": () => {
    const good = signedWebhook("orders/create", order, { webhookId: "w-3" });
    const headers = new Headers();
    for (const [k, v] of good.headers) headers.set(k.toUpperCase(), v);
    return new Request(good.url, { method: "POST", headers, body: JSON.stringify(order) });
  },
};

describe("authenticateWebhook agrees with the library's authenticate.webhook", () => {
  beforeEach(async () => {
    await installShop();
  });

  for (const [name, make] of Object.entries(cases)) {
    it(name, async () => {
      expect(await appVerdict(make())).toEqual(await libraryVerdict(make()));
    });
  }

  it("accepts a good delivery and refuses a bad HMAC (the reference is not vacuous)", async () => {
    expect(await libraryVerdict(cases["a good delivery"]())).toMatchObject({ accepted: { shop: SHOP, topic: "ORDERS_CREATE", webhookId: expect.stringMatching(/^ORDERS_CREATE:event-w-1:/) } });
    expect(await libraryVerdict(cases["the wrong secret"]())).toEqual({ refused: "hmac" });
  });
});
