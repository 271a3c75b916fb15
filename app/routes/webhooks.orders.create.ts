import type { ActionFunctionArgs } from "@remix-run/node";
import { authenticate } from "~/shopify/app.server";
import { getShop } from "~/settings/shop.server";
import { orderPayload } from "~/orders/order-payload";
import { linkOrderAndQueueTags } from "~/orders/link.server";
import { kickTagWorker } from "~/orders/tag-jobs.server";
import { deliveryHandled, recordDelivery } from "~/shopify/webhook-deliveries.server";
import { log } from "~/utils/log.server";
import { requestCorrectionForNewOrderLater, type OrderCreatedPayload } from "~/address-correction/address-correction.server";

/**
 * orders/create: verified by the library (bad HMAC 401), idempotent on X-Shopify-Webhook-Id. Links the
 * order to the shopper's selection and queues its tags; only database work happens before the 200,
 * the tagging itself runs in the tag worker (app/orders/tag-jobs.server.ts).
 */
export async function action({ request }: ActionFunctionArgs) {
  const { shop, topic, webhookId, payload } = await authenticate.webhook(request);
  if (await deliveryHandled(webhookId)) return new Response(null, { status: 200 });
  const shopRow = await getShop(shop);
  const order = orderPayload.safeParse(payload);
  if (!shopRow) {
    log.warn("orders/create for a shop we do not know; ignored", { shop });
  } else if (!order.success) {
    // Retrying cannot fix a payload we cannot read: record it and answer 200.
    log.warn("orders/create payload not understood; ignored", { shop, issues: order.error.issues.slice(0, 3) });
  } else {
    await linkOrderAndQueueTags(shopRow, order.data);
  }
  await recordDelivery(webhookId, topic, shop);
  // Tagging starts once this delivery's own database work is done, so it does not hold up the answer.
  kickTagWorker();
  // So does the optional address check (an SMS when the shop turned it on and the address looks wrong).
  if (shopRow && order.success) requestCorrectionForNewOrderLater(shopRow, order.data as OrderCreatedPayload);
  return new Response(null, { status: 200 });
}
