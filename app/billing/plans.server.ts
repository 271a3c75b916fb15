import { countSince } from "~/core/db/daily-stats.server";
import { env } from "~/core/env.server";
import { adminShop, getShop, type Shop } from "~/core/settings/shop.server";
import { allowanceMonthStart, FREE_PLAN, overageVerificationsUnderCap, PAID_PLANS, planById, planOf, type Plan } from "~/shared/plans";
import type { AdminContext } from "~/core/shopify/app.server";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import { requestEnforcementSync } from "~/enforcement/enforcement-jobs.server";
import { recordSubscriptionUpdate } from "./subscription.server";
import { verificationStatus } from "~/enforcement/pause.server";
import type { PauseReason } from "~/enforcement/pause";

type Billing = AdminContext["billing"];

/**
 * Charges are test charges everywhere but production, and in production on a development store (which
 * cannot pay real ones: Shopify's plan.partnerDevelopment, Shop.developmentStore). A store transferred to
 * a merchant leaves its development plan (shop/update) and pays real charges from then on.
 */
export const isTest = (shop: Pick<Shop, "developmentStore">) => !env.production || shop.developmentStore;

/**
 * Where Shopify's approval page sends the merchant back: this page inside the Shopify admin
 * (admin.shopify.com/store/<store>/apps/<api key>/app/plans), so the app opens embedded with a session
 * token, and Shopify adds `charge_id`. A local development server has no admin around it: its own URL.
 */
export function approvalReturnUrl(domain: string, localAdmin: boolean): string {
  if (localAdmin) return `${env.SHOPIFY_APP_URL}/app/plans?shop=${encodeURIComponent(domain)}`;
  return `https://admin.shopify.com/store/${encodeURIComponent(domain.replace(/\.myshopify\.com$/, ""))}/apps/${encodeURIComponent(env.SHOPIFY_API_KEY)}/app/plans`;
}

/** The id Shop.subscriptionId holds on the Free plan, which has no Shopify subscription. */
export const FREE_SUBSCRIPTION_ID = "free";

export type PlanUsage = {
  plan: Plan | null;
  /** Verifications this calendar month (the shop's, in its time zone), the unit of the allowance. */
  used: number;
  allowance: number;
  /** The first day of the month the allowance counts, YYYY-MM-DD (the shop's month). */
  since: string;
};

/** The shop's plan and its verifications this month: a sum over at most 31 DailyStat rows. */
export async function planUsage(shop: Pick<Shop, "id" | "subscriptionStatus" | "subscriptionPlan" | "timezone">, now: Date = clock.now()): Promise<PlanUsage> {
  const since = allowanceMonthStart(now, shop.timezone);
  const plan = planOf(shop);
  return { plan, used: await countSince(shop.id, "otp_verified", since), allowance: plan?.monthlyVerifications ?? 0, since };
}

/**
 * Brings the shop's row up to date with Shopify when the merchant may just have approved a charge
 * (back from the approval page, before the webhook arrives): the active paid subscription Shopify
 * reports replaces what we hold. Shopify not answering leaves the row as it is.
 */
export async function reconcileSubscription(shop: Shop, billing: Billing): Promise<Shop> {
  const check = await billing.check({ plans: PAID_PLANS.map((p) => p.name), isTest: isTest(shop) }).catch((error: unknown) => {
    log.warn("billing: the subscription check failed", { shop: shop.domain, error: String(error) });
    return null;
  });
  const active = check?.appSubscriptions.find((s) => s.status === "ACTIVE");
  if (!active || (active.id === shop.subscriptionId && shop.subscriptionStatus === "active")) return shop;
  // Only over the row this answer was compared with: a notice handled while Shopify was asked is newer.
  const read = { subscriptionId: shop.subscriptionId, subscriptionStatus: shop.subscriptionStatus };
  if (await recordSubscriptionUpdate(shop.domain, { id: active.id, name: active.name, status: active.status }, read)) {
    await requestEnforcementSync(shop.domain, "plan_changed");
  }
  return (await getShop(shop.domain)) ?? shop;
}

export type ChoosePlanOutcome = { ok: true; plan: Plan } | { ok: false; code: "unknown_plan" | "already_on_plan" | "cancel_failed" };

/**
 * The merchant picks a plan on /app/plans. A paid plan goes to Shopify's approval page (the library
 * throws the redirect; Shopify replaces a current paid subscription once the new one is approved).
 * Free cancels the current paid subscription, if any, and is recorded at once.
 */
export async function choosePlan(shop: Shop, billing: Billing, planId: string, returnUrl: string): Promise<ChoosePlanOutcome> {
  const plan = planById(planId);
  if (!plan) return { ok: false, code: "unknown_plan" };
  const current = planOf(shop);
  if (current?.id === plan.id) return { ok: false, code: "already_on_plan" };
  if (plan.price > 0) {
    await billing.request({ plan: plan.name, isTest: isTest(shop), returnUrl });
    return { ok: true, plan }; // not reached: request() throws the way to the approval page
  }
  if (current && current.price > 0 && shop.subscriptionId && shop.subscriptionId !== FREE_SUBSCRIPTION_ID) {
    try {
      await billing.cancel({ subscriptionId: shop.subscriptionId, isTest: isTest(shop), prorate: true });
    } catch (error) {
      log.warn("billing: cancelling the paid subscription failed", { shop: shop.domain, error: String(error) });
      return { ok: false, code: "cancel_failed" };
    }
  }
  await recordSubscriptionUpdate(shop.domain, { id: FREE_SUBSCRIPTION_ID, name: FREE_PLAN.name, status: "ACTIVE" });
  // Hiding COD at checkout follows having a plan and its allowance (app/enforcement).
  await requestEnforcementSync(shop.domain, "plan_changed");
  return { ok: true, plan: FREE_PLAN };
}


/**
 * /app/plans: every plan, the shop's current one and its usage this month. Back from Shopify's
 * approval page (or with no paid plan on record) Shopify is asked first.
 */
export async function loadPlans(domain: string, billing: Billing, returning: boolean, change: string | null = null) {
  let shop = await adminShop(domain);
  const onPaidPlan = (planOf(shop)?.price ?? 0) > 0;
  if (returning || !onPaidPlan) shop = await reconcileSubscription(shop, billing);
  const usage = await planUsage(shop);
  const pausedNow = change ? (await verificationStatus(shop)).pause : null;
  return { usage, subscriptionStatus: shop.subscriptionStatus, test: isTest(shop), change: planChangePreview(shop, usage, change, pausedNow) };
}

/**
 * What a plan change will do, shown before the merchant confirms it (27.2): this month's use against
 * the new allowance, whether that already pauses verification, and what checkout does while paused.
 */
export type PlanChangePreview = {
  plan: Plan;
  from: Plan | null;
  used: number;
  /** Verification pauses at once: this month's use already reaches the new allowance. */
  pausesAtOnce: boolean;
  /** Verification is paused now (the plan's allowance or its cap, no plan) and the new plan has room: it resumes at once. */
  resumesAtOnce: boolean;
  keepCodHiddenWhenPaused: boolean;
  /**
   * Past the allowance, the new plan's usage charges: on (the merchant's setting, Shopify not refusing) or
   * off but offered; null where the plan has none (Free).
   */
  usage: { on: boolean; price: number; cap: number; extra: number } | null;
};

function planChangePreview(shop: Shop, usage: PlanUsage, change: string | null, pausedNow: PauseReason | null): PlanChangePreview | null {
  const plan = change ? planById(change) : null;
  if (!plan || plan.id === usage.plan?.id) return null;
  const extra = overageVerificationsUnderCap(plan);
  const charges = plan.overagePrice > 0 ? { on: shop.usageChargesEnabled && !shop.usageChargesRefused, price: plan.overagePrice, cap: plan.usageCap, extra } : null;
  const pausesAt = plan.monthlyVerifications + (charges?.on ? extra : 0);
  const pausesAtOnce = usage.used >= pausesAt;
  const resumesAtOnce = pausedNow !== null && pausedNow !== "otp_off" && !pausesAtOnce;
  return { plan, from: usage.plan, used: usage.used, pausesAtOnce, resumesAtOnce, keepCodHiddenWhenPaused: shop.keepCodHiddenWhenPaused, usage: charges };
}

/** The plans page's form: choose a plan (Free cancels a paid one). */
export async function choosePlanFor(domain: string, billing: Billing, planId: string, returnUrl: string): Promise<ChoosePlanOutcome> {
  return choosePlan(await adminShop(domain), billing, planId, returnUrl);
}

/**
 * Back from Shopify's approval page (`charge_id` in the return URL): the paid plan that charge made
 * the shop's, to say so once ("You are on the Pro plan"). Null when the charge is not the shop's
 * active subscription (declined, replaced since, or no charge at all). Call after loadPlans, which
 * has already asked Shopify.
 */
export async function planApprovedBy(domain: string, chargeId: string | null): Promise<Plan | null> {
  if (!chargeId || !/^\d{1,20}$/.test(chargeId)) return null;
  const shop = await adminShop(domain);
  const plan = planOf(shop);
  return plan && plan.price > 0 && shop.subscriptionId === `gid://shopify/AppSubscription/${chargeId}` ? plan : null;
}
