import * as ordersCreate from "~/routes/webhooks.orders.create";
import { FIXED_RESOURCE_ROUTES } from "~/server-build";
import { prisma } from "~/core/db.server";
import { installShop } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";
import { asServerReads, bothWays as sameBothWays } from "../helpers/wire";
import { useFakeShopify } from "../helpers/fake-shopify";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";

/**
 * orders/create has two ways in, as the storefront's JSON routes do: Remix's (a web Request to `action`, a
 * Response back) and the production server's (`webhook.wire`: what server.mjs read, what it writes). The
 * same deliveries get the same status, headers and body both ways, and the server's way does the same work.
 */

type WebhookModule = { action: (args: { request: Request }) => Promise<Response>; webhook: typeof ordersCreate.webhook };

/** The same delivery both ways (tests/helpers/wire.ts), to `route` (orders/create unless named). */
const bothWays = (make: () => Request, route: WebhookModule = ordersCreate) => sameBothWays(route, route.webhook.wire, make);

const order = orderCreatedPayload({ phone: "+212612345678" });
// orders/create reads the order back from the shop before acting on it.
const shopify = useFakeShopify();
beforeEach(() => shopify.on(OPERATIONS.orderReadBack, handlers.orderReadBack(), "admin"));

describe("orders/create's two ways in", () => {
  beforeEach(async () => {
    await installShop();
  });

  it("refuse alike: a wrong HMAC, no HMAC, a missing header, another topic, a body that is not JSON, a JSON array, a stranger shop header", async () => {
    const cases: Array<[() => Request, number, string]> = [
      [() => signedWebhook("orders/create", order, { secret: "another-secret" }), 401, "invalid_hmac"],
      [() => signedWebhook("orders/create", order, { headers: { "x-shopify-hmac-sha256": null } }), 400, "invalid_request"],
      [() => signedWebhook("orders/create", order, { headers: { "x-shopify-webhook-id": null } }), 400, "invalid_request"],
      [() => signedWebhook("orders/create", order, { headers: { "x-shopify-topic": "orders/paid" } }), 400, "topic_mismatch"],
      [() => signedWebhook("orders/create", null, { rawBody: "not json" }), 400, "invalid_request"],
      [() => signedWebhook("orders/create", null, { rawBody: "[1,2]" }), 400, "invalid_request"],
      [() => signedWebhook("orders/create", order, { shop: "evil.example.com" }), 400, "invalid_request"],
    ];
    for (const [make, status, code] of cases) {
      const wire = await bothWays(make);
      expect(wire.status).toBe(status);
      expect(JSON.parse(wire.text)).toMatchObject({ code });
    }
    // Nothing was recorded for a refused delivery.
    expect(await prisma.webhookDelivery.count()).toBe(0);
  });

  it("answer a good delivery 200 with no body, once and again for its redelivery, and record the order the server's way", async () => {
    const payload = orderCreatedPayload({ phone: "+212612345679" });
    const make = () => signedWebhook("orders/create", payload, { webhookId: "wire-1" });
    const first = await ordersCreate.webhook.wire(await asServerReads(make()));
    expect(first).toEqual({ status: 200, headers: {}, text: "" });
    const record = await prisma.orderRecord.findFirst({ where: { orderGid: payload.admin_graphql_api_id } });
    expect(record).toMatchObject({ orderName: payload.name, phone: "+212612345679", cod: true });
    expect(await prisma.webhookDelivery.count()).toBe(1);
    // The redelivery, Remix's way and the server's: 200 both, nothing written twice.
    await bothWays(make);
    expect(await prisma.orderRecord.count({ where: { orderGid: payload.admin_graphql_api_id } })).toBe(1);
    expect(await prisma.webhookDelivery.count()).toBe(1);
  });

  it("read the body as a web Request's text() does: UTF-8, names in any script, a leading byte-order mark dropped", async () => {
    const payload = orderCreatedPayload({ phone: "+212612345680", shipping_address: { first_name: "أمينة ✓", phone: null, country_code: "MA" } });
    const body = JSON.stringify(payload);
    const wire = await ordersCreate.webhook.wire(await asServerReads(signedWebhook("orders/create", null, { rawBody: body })));
    expect(wire.status).toBe(200);
    // Signed over the text without the mark, sent with it: both ways decode it away and the HMAC holds.
    const signed = signedWebhook("orders/create", null, { rawBody: body, webhookId: "bom-1" });
    const withMark = () => new Request(signed.url, { method: "POST", headers: signed.headers, body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body)]) });
    expect((await bothWays(withMark)).status).toBe(200);
    expect(await prisma.orderRecord.count({ where: { orderGid: payload.admin_graphql_api_id } })).toBe(1);
  });

  it("every webhook route has the server's way, and refuses alike both ways", async () => {
    const webhooks = Object.entries(FIXED_RESOURCE_ROUTES).filter(([path]) => path.startsWith("/webhooks/"));
    expect(webhooks.length).toBe(12);
    for (const [path, route] of webhooks) {
      expect(route.webhook, path).toBeDefined();
      const topic = path.slice("/webhooks/".length);
      const payload = { id: 1, shop_domain: "test-shop.myshopify.com", myshopify_domain: "test-shop.myshopify.com" };
      const bad = await bothWays(() => signedWebhook(topic, payload, { secret: "another-secret" }), route as WebhookModule);
      expect(bad.status, path).toBe(401);
      const other = await bothWays(() => signedWebhook(topic, payload, { headers: { "x-shopify-topic": "carts/create" } }), route as WebhookModule);
      expect(JSON.parse(other.text), path).toMatchObject({ code: "topic_mismatch" });
    }
  });
});
