import { z } from "zod";
import { declareJob, enqueueJob } from "~/core/jobs/queue.server";
import { kickJobWorker } from "~/core/jobs/worker.server";
import { getShop } from "~/core/settings/shop.server";
import { allowanceMonthStart, overageVerificationsUnderCap, planOf } from "~/shared/plans";
import { noteAllowanceUse } from "./enforcement-jobs.server";
import { monthAllowance, usageChargesOn } from "./pause";
import { clock } from "~/core/utils/clock.server";
import { verificationStatus } from "./pause.server";

/**
 * One verification past the plan's allowance, to charge as a Shopify usage record. Declared here,
 * where verifications are counted against the allowance; run by app/billing/usage-charges.server.ts
 * (`usageChargeJob`), which holds the Shopify side.
 */
export const USAGE_CHARGE = declareJob({
  kind: "usage-charge",
  payload: z.object({ verificationId: z.string().min(1).max(100), amount: z.number().positive(), description: z.string().max(255) }),
});

/**
 * After a verification was counted (`verificationId`: the consumed challenge, unique): past the
 * allowance with usage charges on, it is charged (one job per verification, within the cap); when no
 * further verification can run this month, checkout stops hiding COD.
 */
export async function verificationCounted(domain: string, verificationId: string, usedThisMonth?: number): Promise<void> {
  const shop = await getShop(domain);
  const plan = shop && planOf(shop);
  if (!shop || !plan) return;
  // `usedThisMonth`: the caller read it when it counted this verification (verify-otp does).
  const used = usedThisMonth ?? (await verificationStatus(shop)).used;
  // The burn reserve is never charged: usage charges start past the month's whole allowance.
  const past = used - monthAllowance(shop, plan, allowanceMonthStart(clock.now(), shop.timezone));
  if (past > 0 && past <= overageVerificationsUnderCap(plan) && usageChargesOn(shop)) {
    const description = `Verification past the ${plan.label} plan's ${plan.monthlyVerifications.toLocaleString("en-US")} this month`;
    await enqueueJob(USAGE_CHARGE, { shop: domain, key: `${domain}|${verificationId}`, payload: { verificationId, amount: plan.overagePrice, description } });
    kickJobWorker();
  }
  await noteAllowanceUse(domain, used);
}
