import { adminShop } from "~/core/settings/shop.server";
import { enforcementState } from "./payment-customization.server";
import { allowanceMonthStart, planOf } from "~/shared/plans";
import { clock } from "~/core/utils/clock.server";
import { usageChargesOn, type AllowanceLevel, type PauseReason } from "./pause";
import { verificationStatus } from "./pause.server";

/** What the banner on every admin page says (app/admin/verification-banner.tsx): null when all is well. */
export type VerificationNotice =
  | { kind: "paused"; why: PauseReason; codHidden: boolean; updating: boolean; used: number; allowance: number; burn?: BurnNotice }
  | ({ kind: "burn"; used: number; allowance: number } & BurnNotice)
  | { kind: "near_allowance"; used: number; allowance: number; keepCodHiddenWhenPaused: boolean; usage: UsageTerms | null }
  | { kind: "usage_charging"; used: number; allowance: number; usage: UsageTerms }
  | null;

/**
 * An abnormal burn of the allowance seen this month (app/enforcement/burn.server.ts): when, what, and the
 * reserve it opened (as many verifications again as the plan's allowance, free of charge).
 */
type BurnNotice = { seenAt: string; detail: string; reserve: number };

/** The plan's usage charges when the merchant turned them on (null when off or on Free). */
type UsageTerms = { price: number; cap: number; spent: number };

export async function verificationNotice(domain: string): Promise<VerificationNotice> {
  const shop = await adminShop(domain);
  const status = await verificationStatus(shop);
  const { used, allowance } = status;
  const plan = planOf(shop);
  const burn: BurnNotice | null =
    plan && shop.burnMonth === allowanceMonthStart(clock.now(), shop.timezone) && shop.burnSeenAt
      ? { seenAt: shop.burnSeenAt.toISOString(), detail: shop.burnDetail ?? "", reserve: plan.monthlyVerifications }
      : null;
  if (status.pause) {
    const state = enforcementState(shop, status.pause);
    // With enforcement off in Settings nothing was hidden in the first place. While Shopify is being updated
    // the banner says where checkout is going (what the plan's confirmation just said), and that it is on its way.
    const { codHidden: now, updating } = state.state === "paused" ? state : { codHidden: false, updating: false };
    const codHidden = updating ? !now : now;
    return { kind: "paused", why: status.pause, codHidden, updating, used, allowance, ...(burn ? { burn } : {}) };
  }
  // The merchant is told at once, and until the month ends: someone may be burning the allowance.
  if (burn) return { kind: "burn", used, allowance, ...burn };
  const usage = plan && usageChargesOn(shop) ? { price: plan.overagePrice, cap: plan.usageCap, spent: Math.max(0, used - allowance) * plan.overagePrice } : null;
  const level: AllowanceLevel = status.level;
  if (level === "used_up" && usage) return { kind: "usage_charging", used, allowance, usage };
  return level === "near" ? { kind: "near_allowance", used, allowance, keepCodHiddenWhenPaused: shop.keepCodHiddenWhenPaused, usage } : null;
}
