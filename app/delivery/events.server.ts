import { query, sql } from "~/core/db/sql.server";
import { getShop, type Shop } from "~/core/settings/shop.server";
import type { FulfillmentEvent, OrderCreated } from "~/core/shopify/webhook-payloads";
import { orderIsShops } from "~/risk/outcomes.server";
import { parseTagList } from "~/shared/lists";
import { openDeliveryRecovery } from "./recovery.server";
import { queueDeliveryReminder } from "./reminder.server";

/** The carrier's statuses that mean a delivery attempt failed (Shopify's lower-case FulfillmentEventStatus names). */
export const FAILED_ATTEMPT_STATUSES = ["attempted_delivery", "failure"];

/**
 * What a carrier's event means after dispatch (docs/delivery.md): `out_for_delivery` queues the order's
 * reminder, `attempted_delivery` and `failure` open its recovery. The risk score learns from the same
 * event on its own (app/risk/outcomes.server.ts). Returns what it did, for the log; `retry` when Shopify
 * could not say whether the order is the shop's (the webhook answers 503 and comes again).
 */
export async function actOnCarrierEvent(shopDomain: string, event: FulfillmentEvent): Promise<"reminder" | "recovery" | "retry" | null> {
  const isReminder = event.status === "out_for_delivery";
  const isFailure = FAILED_ATTEMPT_STATUSES.includes(event.status);
  if (!isReminder && !isFailure) return null;
  const shop = await getShop(shopDomain);
  if (!shop || shop.uninstalledAt || !(isReminder ? shop.deliveryReminder : shop.deliveryRecovery)) return null;
  const mine = await ownOrder(shop, event.orderGid);
  if (mine !== true) return mine === "retry" ? "retry" : null;
  if (isReminder) return (await queueDeliveryReminder(shop, event.orderGid)) ? "reminder" : null;
  return (await openDeliveryRecovery(shop, event.orderGid, event.status)) ? "recovery" : null;
}

/**
 * Whether the order is one the shop really has, before anyone is texted about it. A webhook's body is
 * signed but names no shop, so another shop's genuine event (and its orders/create before it) could be
 * replayed under this shop's header: the order's COD record is not enough. Known: the order already has a
 * reminder or recovery here (written after this same check), or an outcome (app/risk/outcomes.server.ts,
 * which asks the same); else Shopify is asked with the shop's own token (`order(id:)`, null when not its own).
 */
async function ownOrder(shop: Pick<Shop, "id" | "domain">, orderGid: string): Promise<boolean | "retry"> {
  const [row] = await query<{ cod: unknown; known: unknown }>(sql`
    SELECT (SELECT 1 FROM "OrderRecord" WHERE "shopId" = ${shop.id} AND "orderGid" = ${orderGid} AND "cod" = ${true}) AS "cod",
      (SELECT 1 WHERE EXISTS (SELECT 1 FROM "DeliveryReminder" WHERE "shopId" = ${shop.id} AND "orderGid" = ${orderGid})
        OR EXISTS (SELECT 1 FROM "DeliveryRecovery" WHERE "shopId" = ${shop.id} AND "orderGid" = ${orderGid})) AS "known"`);
  // Only a COD order the app recorded is ever texted: nothing to ask Shopify about otherwise.
  if (row?.cod == null) return false;
  if (row.known != null) return true;
  return orderIsShops(shop, orderGid);
}

/** The first of the order's tags that the merchant names as a courier's failed attempt (compared without case), or null. */
export function failedAttemptTag(tags: string | null | undefined, failureTags: string): string | null {
  const named = parseTagList(failureTags);
  if (!named.length) return null;
  return (tags ?? "").split(",").map((t) => t.trim()).find((t) => t && named.includes(t.toLowerCase())) ?? null;
}

/** orders/updated: a courier app's failed-attempt tag on the shop's own order opens its recovery (once per order); `retry` as above. */
export async function actOnOrderTags(shopDomain: string, order: Pick<OrderCreated, "admin_graphql_api_id" | "tags">): Promise<boolean | "retry"> {
  const shop = await getShop(shopDomain);
  if (!shop || shop.uninstalledAt) return false;
  const tag = failedAttemptTag(order.tags, shop.deliveryFailureTags);
  if (!tag || !shop.deliveryRecovery) return false;
  const mine = await ownOrder(shop, order.admin_graphql_api_id);
  if (mine !== true) return mine;
  return openDeliveryRecovery(shop, order.admin_graphql_api_id, `tag:${tag}`);
}
