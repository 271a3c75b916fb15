import { execute, sql } from "~/core/db/sql.server";
import { readOrderFacts, shopCountryOf, type OrderFacts } from "~/core/shopify/order-facts";
import { getShop } from "~/core/settings/shop.server";
import type { OrderCreated } from "~/core/shopify/webhook-payloads";
import { clock } from "~/core/utils/clock.server";
import { normalizePostalCode } from "./signals";

export type OrderOutcome = "delivered" | "failed";

/**
 * Learns what became of an order (orders/fulfilled: delivered; orders/cancelled: failed). One atomic
 * statement: the first event inserts the order's row, a later cancellation turns a delivered order into
 * a failed one, and nothing else changes it, so each order counts once per phone and postal code however
 * often Shopify delivers (the delivery's webhook id is recorded by the route as well). Only COD orders
 * are learnt: the score is about cash on delivery.
 */
export async function recordOrderOutcome(shopId: string, facts: Pick<OrderFacts, "gid" | "phones" | "shippingAddress" | "isCod">, outcome: OrderOutcome) {
  if (!facts.isCod) return 0;
  const phone = facts.phones[0] ?? null;
  const postalCode = normalizePostalCode(facts.shippingAddress?.zip);
  return execute(sql`
    INSERT INTO "OrderOutcome" ("shopId", "orderGid", "phone", "postalCode", "outcome", "decidedAt")
    VALUES (${shopId}, ${facts.gid}, ${phone}, ${postalCode}, ${outcome}, ${clock.now()})
    ON CONFLICT ("shopId", "orderGid") DO UPDATE SET "outcome" = 'failed', "decidedAt" = excluded."decidedAt"
    WHERE excluded."outcome" = 'failed' AND "OrderOutcome"."outcome" <> 'failed'`);
}

/** orders/fulfilled and orders/cancelled: the order read once into its facts (app/core/shopify/order-facts.ts), then learnt. */
export async function learnOrderOutcome(shopDomain: string, order: OrderCreated, outcome: OrderOutcome) {
  const shop = await getShop(shopDomain);
  if (!shop) return 0;
  const facts = readOrderFacts(order, { codMethodNames: shop.codMethodNames, country: shopCountryOf(shop) }, clock.now());
  return recordOrderOutcome(shop.id, facts, outcome);
}
