import { overageVerificationsUnderCap, planOf, type Plan } from "~/shared/plans";

/**
 * Why the app cannot verify shoppers right now (docs/contract.md, "When the app cannot verify"): codes
 * switched off, no active plan, or this month's allowance used up. While paused no shopper can get a
 * proof, so by default checkout offers cash on delivery to everyone again; a merchant may choose to
 * keep it hidden instead (Shop.keepCodHiddenWhenPaused).
 */
export type PauseReason = "otp_off" | "no_subscription" | "allowance_used" | "usage_cap_reached";

export type PauseShop = {
  otpEnabled: boolean;
  subscriptionStatus: string;
  subscriptionPlan: string | null;
  usageChargesEnabled: boolean;
  usageChargesRefused: string | null;
  /** The month (YYYY-MM-01) an abnormal burn of the allowance was seen (app/enforcement/burn.server.ts). */
  burnMonth?: string | null;
};

/**
 * The month's allowance: the plan's, doubled in a month where an abnormal burn was seen (someone using
 * it up with numbers of their own): protection continues on the reserve, at no charge, while the
 * merchant, told at once, decides. `month`: the allowance's month (allowanceMonthStart), omitted: no reserve.
 */
export function monthAllowance(shop: Pick<PauseShop, "burnMonth">, plan: Plan, month?: string): number {
  return month && shop.burnMonth === month ? plan.monthlyVerifications * 2 : plan.monthlyVerifications;
}

/** Whether verifications past the allowance are charged as usage: a paid plan, the merchant's opt-in, Shopify not refusing. */
export function usageChargesOn(shop: PauseShop): boolean {
  const plan = planOf(shop);
  return Boolean(plan && plan.overagePrice > 0 && shop.usageChargesEnabled && !shop.usageChargesRefused);
}

/** `used`: the shop's verifications this calendar month (UTC); the next one would be `used + 1`. `month`: as in `monthAllowance`. */
export function pauseReason(shop: PauseShop, used: number, month?: string): PauseReason | null {
  if (!shop.otpEnabled) return "otp_off";
  const plan = planOf(shop);
  if (!plan) return "no_subscription";
  const allowance = monthAllowance(shop, plan, month);
  if (used < allowance) return null;
  if (!usageChargesOn(shop)) return shop.usageChargesRefused === "cap_reached" ? "usage_cap_reached" : "allowance_used";
  return used < allowance + overageVerificationsUnderCap(plan) ? null : "usage_cap_reached";
}

/**
 * How many verifications a month the shop may have before `pauseReason` pauses it (otp on, the given
 * plan): `pauseReason(shop, used)` is null exactly when `used` is below it. 0 when it pauses whatever
 * the count (codes off, no plan). A statement that must decide in the database compares with it.
 */
export function verificationsAllowed(shop: PauseShop, month?: string): number {
  const plan = planOf(shop);
  if (!shop.otpEnabled || !plan) return 0;
  const allowance = monthAllowance(shop, plan, month);
  return usageChargesOn(shop) ? allowance + overageVerificationsUnderCap(plan) : allowance;
}

/**
 * Whether checkout should hide COD from carts without a proof: the merchant's choice, only once shoppers can
 * verify on the storefront (`storefrontReadyAt`: the app's block on the live theme, or the merchant's word),
 * and while paused their pause choice.
 */
export function codHiddenAtCheckout(
  shop: { enforceAtCheckout: boolean; keepCodHiddenWhenPaused: boolean; storefrontReadyAt: Date | null },
  pause: PauseReason | null,
): boolean {
  return shop.enforceAtCheckout && shop.storefrontReadyAt !== null && (pause === null || shop.keepCodHiddenWhenPaused);
}

/** The share of the allowance at which the admin warns that verification will soon pause. */
export const ALLOWANCE_WARNING_SHARE = 0.8;

export type AllowanceLevel = "ok" | "near" | "used_up";

export function allowanceLevel(used: number, allowance: number): AllowanceLevel {
  if (allowance <= 0) return "ok";
  if (used >= allowance) return "used_up";
  return used >= allowance * ALLOWANCE_WARNING_SHARE ? "near" : "ok";
}
