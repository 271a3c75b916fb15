/**
 * The app's plans: a monthly allowance of verifications (codes confirmed by shoppers, storefront and
 * after purchase alike) and a flat price. The price is the whole charge: messages are not marked up or
 * billed per message. Free needs no Shopify charge; the others are recurring app subscriptions through
 * the library's billing API (app/core/shopify/app.server.ts), named by `name`.
 */
import { shopMonthStart } from "./shop-day";

export type PlanId = "free" | "starter" | "pro" | "scale";

export type Plan = {
  id: PlanId;
  /** The subscription's name at Shopify (and in Shop.subscriptionPlan). */
  name: string;
  label: string;
  /** USD every 30 days; 0 for Free. */
  price: number;
  monthlyVerifications: number;
  /**
   * Past the allowance, a merchant who opted in keeps verifying at this price (USD) per verification,
   * as Shopify usage charges on the plan's usage line item, up to `usageCap` (USD per month, the capped
   * amount the merchant approves with the plan). 0 on Free: it has no Shopify subscription.
   */
  overagePrice: number;
  usageCap: number;
};

export const PLANS: readonly Plan[] = [
  { id: "free", name: "COD Verify Free", label: "Free", price: 0, monthlyVerifications: 50, overagePrice: 0, usageCap: 0 },
  { id: "starter", name: "COD Verify Starter", label: "Starter", price: 14.99, monthlyVerifications: 500, overagePrice: 0.04, usageCap: 20 },
  { id: "pro", name: "COD Verify Pro", label: "Pro", price: 39.99, monthlyVerifications: 2_000, overagePrice: 0.03, usageCap: 60 },
  { id: "scale", name: "COD Verify Scale", label: "Scale", price: 99.99, monthlyVerifications: 6_000, overagePrice: 0.02, usageCap: 120 },
];

export const FREE_PLAN: Plan = PLANS[0];
export const PAID_PLANS: readonly Plan[] = PLANS.filter((p) => p.price > 0);

export function planById(id: string): Plan | null {
  return PLANS.find((p) => p.id === id) ?? null;
}

/**
 * The plan a shop is on: none until the merchant chose one (the subscription is not active), else the
 * plan its subscription names; an active subscription whose name is not in the table counts as Free.
 */
export function planOf(shop: { subscriptionStatus: string; subscriptionPlan: string | null }): Plan | null {
  if (shop.subscriptionStatus !== "active") return null;
  return PLANS.find((p) => p.name === shop.subscriptionPlan) ?? FREE_PLAN;
}

/** The usage line item's terms, as the merchant reads them on Shopify's approval page. */
export function usageTerms(plan: Plan): string {
  return `$${plan.overagePrice.toFixed(2)} per verification past ${plan.monthlyVerifications.toLocaleString("en-US")} a month, only if you turn it on in the app`;
}

/** Verifications past the allowance that the cap still pays for, in a month. */
export function overageVerificationsUnderCap(plan: Plan): number {
  return plan.overagePrice > 0 ? Math.floor((plan.usageCap + 1e-9) / plan.overagePrice) : 0;
}

/** The first day (YYYY-MM-DD) of the calendar month the allowance is counted in: the shop's month, in its time zone. */
export function allowanceMonthStart(now: Date, timezone: string | null | undefined): string {
  return shopMonthStart(now, timezone);
}
