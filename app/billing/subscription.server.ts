import { z } from "zod";
import { prisma } from "~/core/db.server";
import { forgetShop, getShop } from "~/core/settings/shop.server";
import { shopifyGraphql } from "~/core/shopify/graphql.server";
import { SUBSCRIPTION_READ_BACK } from "~/core/shopify/operations";
import { log } from "~/core/utils/log.server";

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

const subscription = z.object({ id: z.string().min(1), name: z.string().nullish(), status: z.string().min(1) });
const readBack = z.object({
  currentAppInstallation: z.object({ activeSubscriptions: z.array(subscription), allSubscriptions: z.object({ nodes: z.array(subscription) }) }),
});

export type SubscriptionChange = { applied: boolean; status: string | null; source: "active" | "named" | "none" };

/**
 * app_subscriptions/update (docs/webhooks.md): the body is signed by Shopify but names no shop, so one
 * captured notice could be replayed under any shop's header. Nothing in it is taken as true: the
 * header's shop is asked (`currentAppInstallation`: its active subscriptions, and the subscription the
 * body names among its latest ones) and what Shopify answers is recorded. An active subscription wins (a new
 * plan's ACTIVE and the old plan's CANCELLED arrive in either order); else the named subscription's own
 * status, when it is this installation's; else nothing changes. Null when Shopify could not be asked:
 * the caller answers 503 and Shopify delivers again.
 */
export async function applySubscriptionNotice(domain: string, claimedId: string): Promise<SubscriptionChange | null> {
  // The shop first (a database that cannot be reached fails here, and the webhook answers 503).
  const shop = await getShop(domain);
  if (!shop || shop.uninstalledAt) return { applied: false, status: null, source: "none" };
  const result = await shopifyGraphql<unknown>("admin", domain, SUBSCRIPTION_READ_BACK);
  if (!result.ok) {
    if (result.cause === "no_session") return { applied: false, status: null, source: "none" }; // uninstalled: nothing to keep current
    log.warn("billing: the subscription could not be read back", { shop: domain, cause: result.cause, detail: result.detail });
    return null;
  }
  const parsed = readBack.safeParse(result.data);
  if (!parsed.success) {
    log.warn("billing: the subscription read back is not understood", { shop: domain, issues: parsed.error.issues.slice(0, 3) });
    return null;
  }
  const installation = parsed.data.currentAppInstallation;
  const active = installation.activeSubscriptions.find((s) => s.status === "ACTIVE");
  const named = installation.allSubscriptions.nodes.find((s) => s.id === claimedId);
  const chosen = active ? { s: active, source: "active" as const } : named ? { s: named, source: "named" as const } : null;
  if (!chosen) return { applied: false, status: null, source: "none" };
  const applied = await recordSubscriptionUpdate(domain, { id: chosen.s.id, name: chosen.s.name, status: chosen.s.status });
  return { applied, status: subscriptionStatusOf(chosen.s.status), source: chosen.source };
}
