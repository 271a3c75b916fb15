import { methodNotAllowed } from "~/http/responses.server";
import { webhookRoute } from "~/http/webhook.server";
import { learnOrderUpdate } from "~/risk/outcomes.server";
import { actOnOrderTags } from "~/delivery/events.server";
import { kickJobWorker } from "~/core/jobs/worker.server";
import { deliveryHandled, recordDelivery } from "~/core/shopify/webhook-deliveries.server";
import { orderCreatedPayload } from "~/core/shopify/webhook-payloads";
import { log } from "~/core/utils/log.server";

/**
 * orders/updated: a COD order tagged as failed (the Risk page's tags, e.g. a shipping app's `RTO`) or
 * refunded in whole is learnt as failed for the risk score (docs/risk.md). Any other update is read and
 * left. A courier app's failed-attempt tag (Settings, e.g. `NDR`) opens the order's failed-delivery
 * recovery (docs/delivery.md). Idempotent on X-Shopify-Webhook-Id, and the outcome itself is one row per order: the many
 * updates of one order count it once.
 */
export const webhook = webhookRoute("orders/updated", async ({ shop, topic, webhookId, payload }) => {
  if (await deliveryHandled(webhookId)) return "done";
  const order = orderCreatedPayload.safeParse(payload);
  if (order.success) {
    if ((await learnOrderUpdate(shop, order.data)) === "retry") return "retry";
    const acted = await actOnOrderTags(shop, order.data);
    if (acted === "retry") return "retry";
    if (acted) kickJobWorker();
  }
  else log.warn("orders/updated payload not understood; ignored", { shop, issues: order.error.issues.slice(0, 3) });
  await recordDelivery(webhookId, topic, shop);
  return "done";
});

export const action = webhook.action;

export async function loader() {
  return methodNotAllowed(["POST"]);
}
