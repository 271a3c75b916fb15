import { execute, sql } from "~/core/db/sql.server";
import { readOrderFacts, shopCountryOf, type OrderFacts } from "~/core/shopify/order-facts";
import { getShop } from "~/core/settings/shop.server";
import type { OrderCreated } from "~/core/shopify/webhook-payloads";
import { clock } from "~/core/utils/clock.server";
import { normalizePostalCode } from "./signals";
import { parseTagList } from "./tags";

export type OrderOutcome = "delivered" | "failed";
/** What told the app (OrderOutcome.reason): the event, or the tag as the order carried it (`tag:RTO`). */
export type OutcomeReason = "cancelled" | "fulfilled" | "refunded" | `tag:${string}`;

/**
 * Learns what became of an order (docs/risk.md): delivered (orders/fulfilled) or failed (orders/cancelled,
 * a whole refund, a failure tag). One atomic statement: the first event inserts the order's row, a later
 * failure turns a delivered order into a failed one (with its reason), and nothing else changes it, so
 * each order counts once per phone and postal code however often and in whatever order Shopify delivers
 * (the delivery's webhook id is recorded by the route as well). Only COD orders are learnt: the score is
 * about cash on delivery.
 */
export async function recordOrderOutcome(
  shopId: string,
  facts: Pick<OrderFacts, "gid" | "phones" | "shippingAddress" | "isCod">,
  outcome: OrderOutcome,
  reason: OutcomeReason,
  decidedAt: Date = clock.now(),
) {
  if (!facts.isCod) return 0;
  const phone = facts.phones[0] ?? null;
  const postalCode = normalizePostalCode(facts.shippingAddress?.zip);
  return execute(sql`
    INSERT INTO "OrderOutcome" ("shopId", "orderGid", "phone", "postalCode", "outcome", "reason", "decidedAt")
    VALUES (${shopId}, ${facts.gid}, ${phone}, ${postalCode}, ${outcome}, ${reason.slice(0, 100)}, ${decidedAt})
    ON CONFLICT ("shopId", "orderGid") DO UPDATE SET "outcome" = 'failed', "reason" = excluded."reason", "decidedAt" = excluded."decidedAt"
    WHERE excluded."outcome" = 'failed' AND "OrderOutcome"."outcome" <> 'failed'`);
}

/** orders/fulfilled and orders/cancelled: the order read once into its facts (app/core/shopify/order-facts.ts), then learnt. */
export async function learnOrderOutcome(shopDomain: string, order: OrderCreated, outcome: OrderOutcome) {
  const shop = await getShop(shopDomain);
  if (!shop) return 0;
  const facts = readOrderFacts(order, { codMethodNames: shop.codMethodNames, country: shopCountryOf(shop) }, clock.now());
  return recordOrderOutcome(shop.id, facts, outcome, outcome === "failed" ? "cancelled" : "fulfilled");
}

/**
 * What an order's current state says of its outcome, or null: a tag the merchant lists as a failure
 * (theirs or a shipping app's, e.g. `RTO`; compared without case), else a whole refund (financial
 * status `refunded`: paid on delivery, then returned and paid back). A partial refund says nothing.
 */
export function failureOf(order: Pick<OrderCreated, "tags" | "financial_status">, failureTags: string[]): OutcomeReason | null {
  const tags = (order.tags ?? "").split(",").map((t) => t.trim()).filter(Boolean);
  const tag = tags.find((t) => failureTags.includes(t.toLowerCase()));
  if (tag) return `tag:${tag}`;
  if (order.financial_status === "refunded") return "refunded";
  return null;
}

/** orders/updated: a failure tag or a whole refund makes a COD order failed (once; docs/risk.md). Anything else is not an outcome. */
export async function learnOrderUpdate(shopDomain: string, order: OrderCreated) {
  const shop = await getShop(shopDomain);
  if (!shop) return 0;
  const reason = failureOf(order, parseTagList(shop.riskFailureTags));
  if (!reason) return 0;
  const facts = readOrderFacts(order, { codMethodNames: shop.codMethodNames, country: shopCountryOf(shop) }, clock.now());
  return recordOrderOutcome(shop.id, facts, "failed", reason);
}
