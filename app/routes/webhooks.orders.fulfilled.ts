import { methodNotAllowed } from "~/http/responses.server";
import { webhookRoute } from "~/http/webhook.server";
import { learnOrderOutcome } from "~/risk/outcomes.server";
import { deliveryHandled, recordDelivery } from "~/core/shopify/webhook-deliveries.server";
import { orderCreatedPayload } from "~/core/shopify/webhook-payloads";
import { log } from "~/core/utils/log.server";

/**
 * orders/fulfilled: what became of an order, learnt for the risk score (docs/risk.md): a fulfilled COD order counts as delivered until a cancellation says otherwise.
 * Counted only when the body is a fulfilled order of this shop (docs/webhooks.md); 503 when Shopify could
 * not confirm the order is the shop's. Idempotent per event, and the outcome itself is one row per order.
 */
export const webhook = webhookRoute("orders/fulfilled", async ({ shop, topic, webhookId, payload }) => {
  if (await deliveryHandled(webhookId)) return "done";
  const order = orderCreatedPayload.safeParse(payload);
  if (order.success) {
    if ((await learnOrderOutcome(shop, order.data, "delivered")) === "retry") return "retry";
  }
  else log.warn("orders/fulfilled payload not understood; ignored", { shop, issues: order.error.issues.slice(0, 3) });
  await recordDelivery(webhookId, topic, shop);
  return "done";
});

export const action = webhook.action;

export async function loader() {
  return methodNotAllowed(["POST"]);
}
