import { z } from "zod";
import { prisma } from "~/core/db.server";
import { defineJob, enqueueJob } from "~/core/jobs/queue.server";
import { kickJobWorker } from "~/core/jobs/worker.server";
import { getShop } from "~/core/settings/shop.server";
import { allowanceMonthStart, planOf } from "~/shared/plans";
import { clock } from "~/core/utils/clock.server";
import { randomToken } from "~/core/utils/crypto.server";
import { syncPaymentCustomization } from "./payment-customization.server";
import { pauseReason } from "./pause";
import { verificationStatus } from "./pause.server";
import { nextMonthStart, shopDayStart } from "~/shared/shop-day";

/**
 * Checkout follows whether the shop can verify (docs/contract.md, "When the app cannot verify") through one
 * durable job kind: a run reads the shop as it is then and writes the whole desired state to Shopify
 * (syncPaymentCustomization), so a duplicate or a late run is harmless. It is queued on every
 * transition (plan change, subscription webhook, allowance used up, settings saved) and, from each
 * run, once for the first instant of the shop's next month (its time zone), when the allowance starts again.
 *
 * Keys: `<shop>|now` for transitions (a new request while one is queued or running makes it run
 * again: its `at` differs); `<shop>|allowance|<month>|<plan>` once per month and plan;
 * `<shop>|month|<YYYY-MM-01>` once per month.
 */
const payload = z.object({ reason: z.string().max(40), at: z.string().max(60) });

export const enforcementSyncJob = defineJob({
  kind: "enforcement-sync",
  payload,
  merge: (queued, incoming) => (queued.at === incoming.at ? null : incoming),
  run: async (_payload, job) => {
    const shop = await prisma.shop.findUnique({ where: { domain: job.shop } });
    if (!shop || shop.uninstalledAt) return { ok: true };
    const outcome = await syncPaymentCustomization(shop);
    await scheduleMonthStart(shop);
    return outcome.ok ? { ok: true } : { ok: false, error: outcome.error };
  },
});

export type SyncReason = "plan_changed" | "subscription_updated" | "settings_saved" | "installed" | "burn_seen" | "storefront_checked" | "storefront_confirmed" | "timezone_changed";

/** A transition: checkout is brought in step within a minute (the worker runs it after the response). */
export async function requestEnforcementSync(domain: string, reason: SyncReason): Promise<void> {
  await enqueueJob(enforcementSyncJob, { shop: domain, key: `${domain}|now`, payload: { reason, at: `${clock.now().toISOString()} ${randomToken(4)}` } });
  kickJobWorker();
}

/** The allowance starts again on the shop's 1st (its midnight): re-evaluate then. One job per shop and month. */
async function scheduleMonthStart(shop: { domain: string; timezone: string | null }): Promise<void> {
  const month = nextMonthStart(allowanceMonthStart(clock.now(), shop.timezone));
  const runAt = shopDayStart(month, shop.timezone);
  await enqueueJob(enforcementSyncJob, { shop: shop.domain, key: `${shop.domain}|month|${month}`, payload: { reason: "month_start", at: month }, runAt });
}

/**
 * After a verification was counted, or a send was refused for the allowance: when the month's
 * allowance (and the usage cap, if charged) is used up, checkout stops hiding COD (once per shop,
 * month, plan and reason).
 */
export async function noteAllowanceUse(domain: string, usedThisMonth?: number): Promise<void> {
  const shop = await getShop(domain);
  if (!shop) return;
  const plan = planOf(shop);
  const now = clock.now();
  const month = allowanceMonthStart(now, shop.timezone);
  // `usedThisMonth`: the shop's verifications this month when the caller has just read them.
  const pause = usedThisMonth === undefined ? (await verificationStatus(shop)).pause : pauseReason(shop, usedThisMonth, month);
  if (!plan || (pause !== "allowance_used" && pause !== "usage_cap_reached")) return;
  const at = `${month}|${plan.id}|${pause}`;
  const key = `${domain}|allowance|${at}`;
  if ((allowanceKeysQueued.get(key) ?? 0) > now.getTime()) return;
  await enqueueJob(enforcementSyncJob, { shop: domain, key, payload: { reason: "allowance_used", at } });
  if (allowanceKeysQueued.size >= ALLOWANCE_KEYS_KEPT) allowanceKeysQueued.clear();
  allowanceKeysQueued.set(key, now.getTime() + ALLOWANCE_KEY_KEPT_MS);
  kickJobWorker();
}

/*
 * The allowance keys this process queued lately, and until when it need not queue them again. Past the
 * allowance every counted verification gets to noteAllowanceUse (a burn is thousands of them), and
 * queuing a key that is queued already changes nothing (its `at` is the same, so the merge keeps the row
 * as it is) but costs two statements and a sweep of the worker. The queue's row is what makes it once;
 * this only skips calls that could change nothing, for much less time than a finished job is kept
 * (DONE_JOB_RETENTION_MS), so the row is still there.
 */
const allowanceKeysQueued = new Map<string, number>();
const ALLOWANCE_KEYS_KEPT = 1_000;
const ALLOWANCE_KEY_KEPT_MS = 10 * 60_000;

/** Forgets the allowance keys queued (the tests' emptied database no longer has their rows). */
export function forgetAllowanceKeysQueued(): void {
  allowanceKeysQueued.clear();
}
