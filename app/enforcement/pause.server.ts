import { countSince } from "~/core/db/daily-stats.server";
import type { Shop } from "~/core/settings/shop.server";
import { allowanceMonthStart, planOf } from "~/shared/plans";
import { clock } from "~/core/utils/clock.server";
import { allowanceLevel, monthAllowance, pauseReason, type AllowanceLevel, type PauseReason } from "./pause";

export type VerificationStatus = {
  pause: PauseReason | null;
  /** Verifications this calendar month (UTC) against the plan's allowance (0 without a plan). */
  used: number;
  allowance: number;
  level: AllowanceLevel;
};

/** Whether the shop can verify shoppers now, and how much of the month's allowance is used: one sum over ≤31 rows. */
export async function verificationStatus(
  shop: Pick<Shop, "id" | "otpEnabled" | "subscriptionStatus" | "subscriptionPlan" | "usageChargesEnabled" | "usageChargesRefused" | "burnMonth" | "timezone">,
  now: Date = clock.now(),
): Promise<VerificationStatus> {
  const month = allowanceMonthStart(now, shop.timezone);
  const used = await countSince(shop.id, "otp_verified", month);
  const plan = planOf(shop);
  // The month's allowance, the burn reserve included when one was opened this month (app/enforcement/burn.server.ts).
  const allowance = plan ? monthAllowance(shop, plan, month) : 0;
  return { pause: pauseReason(shop, used, month), used, allowance, level: allowanceLevel(used, allowance) };
}
