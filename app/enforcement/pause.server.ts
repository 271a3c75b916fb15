import { countSince, countSinceValue } from "~/core/db/daily-stats.server";
import type { Sql } from "~/core/db/sql.server";
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

type StatusShop = Pick<Shop, "id" | "otpEnabled" | "subscriptionStatus" | "subscriptionPlan" | "usageChargesEnabled" | "usageChargesRefused" | "burnMonth" | "timezone">;

/** Whether the shop can verify shoppers now, and how much of the month's allowance is used: one sum over ≤31 rows. */
export async function verificationStatus(shop: StatusShop, now: Date = clock.now()): Promise<VerificationStatus> {
  return statusOf(shop, await countSince(shop.id, "otp_verified", allowanceMonthStart(now, shop.timezone)), now);
}

/** `verificationStatus`' sum as a scalar subquery, for a caller that reads it with other things (`statusOf` reads the value). */
export function verificationsUsedValue(shop: StatusShop, now: Date): Sql {
  return countSinceValue(shop.id, "otp_verified", allowanceMonthStart(now, shop.timezone));
}

/** `verificationStatus` from the month's verifications read by the caller (`verificationsUsedValue`). */
export function statusOf(shop: StatusShop, used: number, now: Date): VerificationStatus {
  const month = allowanceMonthStart(now, shop.timezone);
  const plan = planOf(shop);
  // The month's allowance, the burn reserve included when one was opened this month (app/enforcement/burn.server.ts).
  const allowance = plan ? monthAllowance(shop, plan, month) : 0;
  return { pause: pauseReason(shop, used, month), used, allowance, level: allowanceLevel(used, allowance) };
}
