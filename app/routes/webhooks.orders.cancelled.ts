import { methodNotAllowed } from "~/http/responses.server";
import { webhookRoute } from "~/http/webhook.server";
import { bodyMatches, learnOrderOutcome } from "~/risk/outcomes.server";
import { deliveryHandled, recordDelivery } from "~/core/shopify/webhook-deliveries.server";
import { orderCreatedPayload } from "~/core/shopify/webhook-payloads";
import { closeOnOrderCancelled } from "~/orders/confirmation/confirmation.server";
import { log } from "~/core/utils/log.server";

/**
 * orders/cancelled: what became of an order, learnt for the risk score (docs/risk.md): a cancelled COD order counts as failed (refused, returned or called off).
 * Counted only when the body is a cancelled order of this shop (docs/webhooks.md); 503 when Shopify could
 * not confirm the order is the shop's. Idempotent per event, and the outcome itself is one row per order.
 */
export const webhook = webhookRoute("orders/cancelled", async ({ shop, topic, webhookId, payload }) => {
  if (await deliveryHandled(webhookId)) return "done";
  const order = orderCreatedPayload.safeParse(payload);
  if (order.success) {
    if ((await learnOrderOutcome(shop, order.data, "failed")) === "retry") return "retry";
    // A confirmation still awaited closes: a later WhatsApp press answers that the order was cancelled.
    // Only for a body that is a cancelled order (the topic header is not signed).
    if (bodyMatches(order.data, "failed")) await closeOnOrderCancelled(shop, order.data.admin_graphql_api_id);
  }
  else log.warn("orders/cancelled payload not understood; ignored", { shop, issues: order.error.issues.slice(0, 3) });
  await recordDelivery(webhookId, topic, shop);
  return "done";
});

export const action = webhook.action;

export async function loader() {
  return methodNotAllowed(["POST"]);
}
