import { getShop } from "~/core/settings/shop.server";
import type { OrderCreated } from "~/core/shopify/webhook-payloads";
import { deliveryHandled, recordDelivery, type Delivery } from "~/core/shopify/webhook-deliveries.server";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import { linkOrderAndQueueTags, readOrderCreated } from "./link.server";
import { readOrderFacts, shopCountryOf } from "~/core/shopify/order-facts";

/**
 * orders/create's work, all of it database work so Shopify gets its answer at once: read the order's
 * facts once (app/core/shopify/order-facts.ts), then two round trips: one statement reads what the
 * decision needs (the delivery handled before?, the shopper's selection, the phones' standing, the risk
 * facts, the deposit code's selection), and one writes the link, the order's tags job, its confirmation
 * after purchase, its record, its risk-panel job, the customer's tag, the balance of a partial order paid
 * with a deposit code, the address check when the shop asked for it, and the delivery's record
 * (app/orders/link.server.ts). The jobs run in the background worker (app/core/jobs).
 */
/** Returns false for a delivery handled before (nothing done). */
export async function orderCreated(order: OrderCreated, delivery: Delivery): Promise<boolean> {
  const shop = await getShop(delivery.shop);
  if (!shop) {
    if (await deliveryHandled(delivery.webhookId)) return false;
    log.warn("orders/create for a shop we do not know; ignored", { shop: delivery.shop });
    await recordDelivery(delivery.webhookId, delivery.topic, delivery.shop);
    return true;
  }
  const facts = readOrderFacts(order, { codMethodNames: shop.codMethodNames, country: shopCountryOf(shop), hosts: [shop.domain, shop.primaryDomain] }, clock.now());
  const reads = await readOrderCreated(shop, facts, delivery.webhookId);
  if (reads.seen) return false;
  await linkOrderAndQueueTags(shop, facts, reads, delivery);
  return true;
}
