import { prisma } from "~/core/db.server";
import { forgetShop } from "~/core/settings/shop.server";

/** Shopify's AppSubscriptionStatus (ACTIVE, CANCELLED, ...) in our stored form (active, cancelled, ...). */
export function subscriptionStatusOf(status: string): string {
  const s = status.trim().toLowerCase();
  return s === "canceled" ? "cancelled" : s;
}

/**
 * Records a subscription's new state on the shop. A notice about another subscription than the one
 * we hold only replaces ours when it is active, or when we hold none: approving a new plan sends
 * ACTIVE for the new one and CANCELLED for the old one, in either order. `unlessChangedFrom`: what
 * the caller read before asking Shopify; when the row no longer holds it (a notice landed meanwhile),
 * nothing is written, as the caller's answer may be older than that notice.
 */
export async function recordSubscriptionUpdate(
  domain: string,
  subscription: { id: string; name?: string | null; status: string },
  unlessChangedFrom?: { subscriptionId: string | null; subscriptionStatus: string },
): Promise<boolean> {
  const status = subscriptionStatusOf(subscription.status);
  // One conditional statement (no read first), so an old plan's CANCELLED racing a new plan's ACTIVE
  // cannot overwrite it.
  const { count } = await prisma.shop.updateMany({
    where: {
      domain,
      ...(status === "active" ? {} : { OR: [{ subscriptionId: null }, { subscriptionId: subscription.id }] }),
      ...unlessChangedFrom,
    },
    data: {
      subscriptionStatus: status,
      subscriptionId: subscription.id,
      ...(subscription.name ? { subscriptionPlan: subscription.name } : {}),
      // A new plan is a new usage line item: what Shopify refused on the old one no longer holds.
      ...(status === "active" ? { usageChargesRefused: null } : {}),
    },
  });
  forgetShop(domain);
  return count > 0;
}
