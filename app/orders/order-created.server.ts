import { queueAddressCheck } from "~/address-correction/address-correction.server";
import { getShop } from "~/settings/shop.server";
import type { OrderCreated } from "~/shopify/webhook-payloads";
import { log } from "~/utils/log.server";
import { linkOrderAndQueueTags } from "./link.server";

/**
 * orders/create's work, all of it database work so Shopify gets its answer at once: link the order to
 * the shopper's selection, queue its tags, and queue the address check when the shop asked for it.
 * The jobs run in the background worker (app/jobs).
 */
export async function orderCreated(shopDomain: string, order: OrderCreated) {
  const shop = await getShop(shopDomain);
  if (!shop) {
    log.warn("orders/create for a shop we do not know; ignored", { shop: shopDomain });
    return;
  }
  await linkOrderAndQueueTags(shop, order);
  await queueAddressCheck(shop, order);
}
