import { methodNotAllowed } from "~/http/responses.server";
import { webhookRoute } from "~/http/webhook.server";
import { kickJobWorker } from "~/core/jobs/worker.server";
import { deliveryHandled, recordDelivery } from "~/core/shopify/webhook-deliveries.server";
import { orderCreatedPayload } from "~/core/shopify/webhook-payloads";
import { queueOrderPaid } from "~/orders/prepaid-offer-paid.server";
import { log } from "~/core/utils/log.server";

/**
 * orders/paid: a COD order the app recorded may have moved to prepaid (docs/prepaid-offer.md). Only a
 * durable job is queued here; it reads the order's payments back from Shopify before anything changes,
 * so neither a forged-looking payload nor cash recorded by hand makes an order prepaid. Idempotent on
 * X-Shopify-Webhook-Id, and the job is one per order.
 */
export const webhook = webhookRoute("orders/paid", async ({ shop, topic, webhookId, payload }) => {
  if (await deliveryHandled(webhookId)) return "done";
  const order = orderCreatedPayload.safeParse(payload);
  if (order.success) await queueOrderPaid(shop, order.data.admin_graphql_api_id);
  else log.warn("orders/paid payload not understood; ignored", { shop, issues: order.error.issues.slice(0, 3) });
  await recordDelivery(webhookId, topic, shop);
  kickJobWorker();
  return "done";
});

export const action = webhook.action;

export async function loader() {
  return methodNotAllowed(["POST"]);
}
