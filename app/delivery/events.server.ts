import { getShop } from "~/core/settings/shop.server";
import type { FulfillmentEvent, OrderCreated } from "~/core/shopify/webhook-payloads";
import { parseTagList } from "~/risk/tags";
import { openDeliveryRecovery } from "./recovery.server";
import { queueDeliveryReminder } from "./reminder.server";

/** The carrier's statuses that mean a delivery attempt failed (Shopify's lower-case FulfillmentEventStatus names). */
export const FAILED_ATTEMPT_STATUSES = ["attempted_delivery", "failure"];

/**
 * What a carrier's event means after dispatch (docs/delivery.md): `out_for_delivery` queues the order's
 * reminder, `attempted_delivery` and `failure` open its recovery. The risk score learns from the same
 * event on its own (app/risk/outcomes.server.ts). Returns what it did, for the log.
 */
export async function actOnCarrierEvent(shopDomain: string, event: FulfillmentEvent): Promise<"reminder" | "recovery" | null> {
  const isReminder = event.status === "out_for_delivery";
  const isFailure = FAILED_ATTEMPT_STATUSES.includes(event.status);
  if (!isReminder && !isFailure) return null;
  const shop = await getShop(shopDomain);
  if (!shop || shop.uninstalledAt) return null;
  if (isReminder) return (await queueDeliveryReminder(shop, event.orderGid)) ? "reminder" : null;
  return (await openDeliveryRecovery(shop, event.orderGid, event.status)) ? "recovery" : null;
}

/** The first of the order's tags that the merchant names as a courier's failed attempt (compared without case), or null. */
export function failedAttemptTag(tags: string | null | undefined, failureTags: string): string | null {
  const named = parseTagList(failureTags);
  if (!named.length) return null;
  return (tags ?? "").split(",").map((t) => t.trim()).find((t) => t && named.includes(t.toLowerCase())) ?? null;
}

/** orders/updated: a courier app's failed-attempt tag on the order opens its recovery (once per order). */
export async function actOnOrderTags(shopDomain: string, order: Pick<OrderCreated, "admin_graphql_api_id" | "tags">): Promise<boolean> {
  const shop = await getShop(shopDomain);
  if (!shop || shop.uninstalledAt) return false;
  const tag = failedAttemptTag(order.tags, shop.deliveryFailureTags);
  return tag ? openDeliveryRecovery(shop, order.admin_graphql_api_id, `tag:${tag}`) : false;
}
