import { getShop } from "~/core/settings/shop.server";
import type { OrderCreated } from "~/core/shopify/webhook-payloads";
import { deliveryHandled, recordDelivery, type Delivery } from "~/core/shopify/webhook-deliveries.server";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import { linkOrderAndQueueTags, readOrderCreated } from "./link.server";
import { readOrderFacts, shopCountryOf } from "~/core/shopify/order-facts";
import { shopHasOrder } from "~/core/shopify/order-owner.server";
import { env } from "~/core/env.server";

/**
 * orders/create's work, database work but for one read-back, so Shopify gets its answer at once: read the order's
 * facts once (app/core/shopify/order-facts.ts), ask the shop whether the order is its own (the body is
 * signed by the app, not the shop), then two round trips: one statement reads what the
 * decision needs (the delivery handled before?, the shopper's selection, the phones' standing, the risk
 * facts, the deposit code's selection), and one writes the link, the order's tags job, its confirmation
 * after purchase, its record, its risk-panel job, the customer's tag, the balance of a partial order paid
 * with a deposit code, the address check when the shop asked for it, and the delivery's record
 * (app/orders/link.server.ts). The jobs run in the background worker (app/core/jobs).
 */
/**
 * Returns false for a delivery handled before (nothing done), `retry` when Shopify could not say whether
 * the order is the shop's (the webhook answers 503 and Shopify delivers it again).
 */
export async function orderCreated(order: OrderCreated, delivery: Delivery): Promise<boolean | "retry"> {
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
  // Nothing is written or texted for an order the shop does not have: another shop's body replayed under its header.
  const mine = await ownOrder(shop.domain, facts.gid);
  if (mine === "retry") return "retry";
  if (!mine) {
    await recordDelivery(delivery.webhookId, delivery.topic, delivery.shop);
    return true;
  }
  await linkOrderAndQueueTags(shop, facts, reads, delivery);
  return true;
}

/**
 * The order read back from the shop it arrived under, before anything is written or sent (app/core/shopify/order-owner.server.ts):
 * one Admin API call per new order, the one call orders/create makes before its answer. The production build
 * run in local mode (a demo on one machine, never a store: no Shopify beside it) has no one to ask.
 */
function ownOrder(shopDomain: string, orderGid: string): Promise<boolean | "retry"> {
  if (env.localMode && env.production) return Promise.resolve(true);
  return shopHasOrder(shopDomain, orderGid, "orders/create");
}
