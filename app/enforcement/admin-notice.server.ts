import { adminShop } from "~/core/settings/shop.server";
import { enforcementState } from "./payment-customization.server";
import { planOf } from "~/shared/plans";
import { usageChargesOn, type AllowanceLevel, type PauseReason } from "./pause";
import { verificationStatus } from "./pause.server";

/** What the banner on every admin page says (app/admin/verification-banner.tsx): null when all is well. */
export type VerificationNotice =
  | { kind: "paused"; why: PauseReason; codHidden: boolean; updating: boolean; used: number; allowance: number }
  | { kind: "near_allowance"; used: number; allowance: number; keepCodHiddenWhenPaused: boolean; usage: UsageTerms | null }
  | { kind: "usage_charging"; used: number; allowance: number; usage: UsageTerms }
  | null;

/** The plan's usage charges when the merchant turned them on (null when off or on Free). */
type UsageTerms = { price: number; cap: number; spent: number };

export async function verificationNotice(domain: string): Promise<VerificationNotice> {
  const shop = await adminShop(domain);
  const status = await verificationStatus(shop);
  const { used, allowance } = status;
  if (status.pause) {
    const state = enforcementState(shop, status.pause);
    // With enforcement off in Settings nothing was hidden in the first place.
    const { codHidden, updating } = state.state === "paused" ? state : { codHidden: false, updating: false };
    return { kind: "paused", why: status.pause, codHidden, updating, used, allowance };
  }
  const plan = planOf(shop);
  const usage = plan && usageChargesOn(shop) ? { price: plan.overagePrice, cap: plan.usageCap, spent: Math.max(0, used - allowance) * plan.overagePrice } : null;
  const level: AllowanceLevel = status.level;
  if (level === "used_up" && usage) return { kind: "usage_charging", used, allowance, usage };
  return level === "near" ? { kind: "near_allowance", used, allowance, keepCodHiddenWhenPaused: shop.keepCodHiddenWhenPaused, usage } : null;
}
