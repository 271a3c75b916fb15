import { methodNotAllowed } from "~/http/responses.server";
import { webhookRoute } from "~/http/webhook.server";
import { kickJobWorker } from "~/core/jobs/worker.server";
import { orderCreated } from "~/orders/order-created.server";
import { deliveryHandled, recordDelivery } from "~/core/shopify/webhook-deliveries.server";
import { orderCreatedPayload } from "~/core/shopify/webhook-payloads";
import { log } from "~/core/utils/log.server";

/**
 * orders/create: verified as every webhook is (bad HMAC 401), idempotent on X-Shopify-Webhook-Id. The order
 * is read back from the shop named in the header first (an order it does not have is ignored: 200, nothing
 * written or sent; Shopify not answering: 503, delivered again). Links the order to the shopper's selection
 * and queues its tags and address check; besides that read, only database work happens before the 200 (two
 * round trips: app/orders/order-created.server.ts), the jobs themselves run in the background worker (app/core/jobs).
 */
export const webhook = webhookRoute("orders/create", async ({ shop, topic, webhookId, payload }) => {
  const order = orderCreatedPayload.safeParse(payload);
  // The delivery is recorded with the order's writes, once they are all done; a redelivery finds it there.
  if (order.success) {
    const created = await orderCreated(order.data, { webhookId, topic, shop });
    if (created === "retry") return "retry";
    if (!created) return "done";
  } else {
    if (await deliveryHandled(webhookId)) return "done";
    // Retrying cannot fix a payload we cannot read: record it and answer 200.
    log.warn("orders/create payload not understood; ignored", { shop, issues: order.error.issues.slice(0, 3) });
    await recordDelivery(webhookId, topic, shop);
  }
  // The jobs start once this delivery's own database work is done, so they do not hold up the answer.
  kickJobWorker();
  return "done";
});

export const action = webhook.action;

export async function loader() {
  return methodNotAllowed(["POST"]);
}
