import { methodNotAllowed } from "~/http/responses.server";
import { webhookRoute } from "~/http/webhook.server";
import { learnCarrierEvent } from "~/risk/outcomes.server";
import { actOnCarrierEvent } from "~/delivery/events.server";
import { kickJobWorker } from "~/core/jobs/worker.server";
import { deliveryHandled, recordDelivery } from "~/core/shopify/webhook-deliveries.server";
import { readFulfillmentEvent } from "~/core/shopify/webhook-payloads";
import { log } from "~/core/utils/log.server";

/**
 * fulfillment_events/create: a carrier's tracking status, learnt for the risk score (docs/risk.md): a
 * COD order `delivered` counts as delivered, `failure` as failed; and acted on after dispatch
 * (docs/delivery.md): `out_for_delivery` queues the delivery-day reminder, `attempted_delivery` and
 * `failure` open the failed-delivery recovery. Other statuses are read and left.
 * Idempotent on X-Shopify-Webhook-Id, and the outcome itself is one row per order: the many events of
 * one shipment count the order once.
 */
export const webhook = webhookRoute("fulfillment_events/create", async ({ shop, topic, webhookId, payload, rawBody }) => {
  if (await deliveryHandled(webhookId)) return "done";
  const event = readFulfillmentEvent(rawBody, payload);
  if (event) {
    if ((await learnCarrierEvent(shop, event)) === "retry") return "retry";
    const acted = await actOnCarrierEvent(shop, event);
    if (acted === "retry") return "retry";
    if (acted) kickJobWorker();
  }
  else log.warn("fulfillment_events/create payload not understood; ignored", { shop });
  await recordDelivery(webhookId, topic, shop);
  return "done";
});

export const action = webhook.action;

export async function loader() {
  return methodNotAllowed(["POST"]);
}
