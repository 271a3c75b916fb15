import * as ordersCreate from "~/routes/webhooks.orders.create";
import { prisma } from "~/core/db.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import { JOB_KINDS } from "~/server-build";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/**
 * orders/create's HMAC is the app's, over the body alone, and the body names no shop: a captured delivery
 * replayed under another installed shop's header must write nothing and text no one. The order is read
 * back from the shop in the header (`order(id:)` with its token) before anything is written or sent.
 */
const shopify = useFakeShopify();
const twilio = useFakeTwilio();
const OTHER = "other-shop.myshopify.com";
const PHONE = "+212600000077";

beforeEach(() => handlers.installDefaultHandlers(shopify));

const deliver = (order: unknown, options: Parameters<typeof signedWebhook>[2] = {}) => callRoute(ordersCreate, signedWebhook("orders/create", order, options));
const codOrder = () => orderCreatedPayload({ phone: PHONE, customer: { id: 91, admin_graphql_api_id: "gid://shopify/Customer/91", phone: PHONE, tags: "" } });

/** What the app holds for a shop's order: its record, its confirmation after purchase, its jobs. */
async function heldFor(domain: string, orderGid: string) {
  const shop = await prisma.shop.findUniqueOrThrow({ where: { domain } });
  return {
    records: await prisma.orderRecord.count({ where: { shopId: shop.id, orderGid } }),
    confirmations: await prisma.orderConfirmation.count({ where: { shopId: shop.id, orderGid } }),
    jobs: await prisma.job.count({ where: { shop: domain } }),
  };
}

describe("orders/create under another shop's header", () => {
  it("the shop's own delivery is acted on; the same signed body under another installed shop's header writes nothing and texts no one", async () => {
    await installShop();
    await installShop({ domain: OTHER });
    const order = codOrder();
    shopify.on(OPERATIONS.orderReadBack, handlers.orderReadBack(), "admin");
    shopify.own(SHOP, order.admin_graphql_api_id);

    expect((await deliver(order)).status).toBe(200);
    await runDueJobs(JOB_KINDS, 100);
    expect(await heldFor(SHOP, order.admin_graphql_api_id)).toMatchObject({ records: 1, confirmations: 1 });
    const texts = twilio.twilio.messages.length;
    expect(texts).toBeGreaterThan(0);

    // The same body (and so the same valid HMAC), under the other shop's header and a new webhook id.
    const replayed = await deliver(order, { shop: OTHER });
    expect(replayed.status).toBe(200);
    await runDueJobs(JOB_KINDS, 100);
    expect(await heldFor(OTHER, order.admin_graphql_api_id)).toEqual({ records: 0, confirmations: 0, jobs: 0 });
    expect(twilio.twilio.messages).toHaveLength(texts);
    // Asked of the other shop, with its own token, once per delivery.
    const asked = shopify.callsTo(OPERATIONS.orderReadBack);
    expect(asked.map((c) => [c.shop, c.variables.id])).toEqual([
      [SHOP, order.admin_graphql_api_id],
      [OTHER, order.admin_graphql_api_id],
    ]);
    // A redelivery of the replay is answered from its record: Shopify is not asked again.
    expect((await deliver(order, { shop: OTHER, webhookId: "replay-1" })).status).toBe(200);
    expect((await deliver(order, { shop: OTHER, webhookId: "replay-1" })).status).toBe(200);
    expect(shopify.callsTo(OPERATIONS.orderReadBack)).toHaveLength(3);
  });

  it("answers 503 and writes nothing while Shopify cannot say whose the order is; its redelivery is acted on", async () => {
    await installShop();
    const order = codOrder();
    shopify.on(OPERATIONS.orderReadBack, () => ({ status: 502 }), "admin");
    const first = await deliver(order, { webhookId: "wh-1" });
    expect(first.status).toBe(503);
    expect(first.headers.get("Retry-After")).toBeTruthy();
    expect(await heldFor(SHOP, order.admin_graphql_api_id)).toEqual({ records: 0, confirmations: 0, jobs: 0 });

    shopify.on(OPERATIONS.orderReadBack, handlers.orderReadBack(), "admin");
    expect((await deliver(order, { webhookId: "wh-1" })).status).toBe(200);
    expect(await heldFor(SHOP, order.admin_graphql_api_id)).toMatchObject({ records: 1, confirmations: 1 });
  });
});
