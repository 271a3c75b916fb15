import type { ActionFunctionArgs } from "@remix-run/node";
import { answer, methodNotAllowed, unavailable } from "~/http/responses.server";
import { authenticateWebhook } from "~/http/webhook.server";
import { learnOrderOutcome } from "~/risk/outcomes.server";
import { deliveryHandled, recordDelivery } from "~/core/shopify/webhook-deliveries.server";
import { orderCreatedPayload } from "~/core/shopify/webhook-payloads";
import { log } from "~/core/utils/log.server";

/**
 * orders/fulfilled: what became of an order, learnt for the risk score (docs/risk.md): a fulfilled COD order counts as delivered until a cancellation says otherwise.
 * Counted only when the body is a fulfilled order of this shop (docs/webhooks.md); 503 when Shopify could
 * not confirm the order is the shop's. Idempotent per event, and the outcome itself is one row per order.
 */
export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    const { shop, topic, webhookId, payload } = await authenticateWebhook(request, "orders/fulfilled");
    if (await deliveryHandled(webhookId)) return new Response(null, { status: 200 });
    const order = orderCreatedPayload.safeParse(payload);
    if (order.success) {
      if ((await learnOrderOutcome(shop, order.data, "delivered")) === "retry") return unavailable();
    }
    else log.warn("orders/fulfilled payload not understood; ignored", { shop, issues: order.error.issues.slice(0, 3) });
    await recordDelivery(webhookId, topic, shop);
    return new Response(null, { status: 200 });
  }, "webhooks/orders/fulfilled");
}

export async function loader() {
  return methodNotAllowed(["POST"]);
}
