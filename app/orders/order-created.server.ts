import { queueAddressCheck } from "~/address-correction/address-correction.server";
import { getShop } from "~/core/settings/shop.server";
import type { OrderCreated } from "~/core/shopify/webhook-payloads";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import { queueDepositBalance } from "./deposit-balance.server";
import { linkOrderAndQueueTags } from "./link.server";
import { readOrderFacts, shopCountryOf } from "~/core/shopify/order-facts";

/**
 * orders/create's work, all of it database work so Shopify gets its answer at once: read the order's
 * facts once (app/core/shopify/order-facts.ts), link the order to the shopper's selection, queue its tags,
 * the balance of a partial order paid with a deposit code, and the address check when the shop asked for it. The jobs run in the background worker (app/core/jobs).
 */
export async function orderCreated(shopDomain: string, order: OrderCreated) {
  const shop = await getShop(shopDomain);
  if (!shop) {
    log.warn("orders/create for a shop we do not know; ignored", { shop: shopDomain });
    return;
  }
  const facts = readOrderFacts(order, { codMethodNames: shop.codMethodNames, country: shopCountryOf(shop) }, clock.now());
  await linkOrderAndQueueTags(shop, facts);
  await queueDepositBalance(shop, facts);
  await queueAddressCheck(shop, facts);
}
