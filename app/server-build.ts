/**
 * The server build's main module (remix.config.js `server`, the classic compiler's documented option):
 * `build/index.js` is this file bundled with the app. It hands server.mjs the Remix build, re-exported
 * whole as the compiler writes it, and the one list of background work this process runs, which
 * server.mjs starts (`startBackgroundWork`). Rendering stays in entry.server.tsx.
 */
import { z } from "zod";
import { addressCheckJob } from "~/address-correction/address-correction.server";
import { defineJob, pruneFinishedJobs, type AnyJobKind } from "~/jobs/queue.server";
import { startJobWorker } from "~/jobs/worker.server";
import { whatsappFallbackJob } from "~/message-status/sms-fallback-job.server";
import { usageChargeJob } from "~/billing/usage-charges.server";
import { enforcementSyncJob } from "~/enforcement/enforcement-jobs.server";
import { CONFIRMATION_JOBS } from "~/orders/confirmation/confirmation.server";
import { whatsappReplyJob } from "~/orders/confirmation/whatsapp-replies.server";
import { depositBalanceJob } from "~/orders/deposit-balance.server";
import { customerVerifiedTagJob, orderTagsJob } from "~/orders/tag-jobs.server";
import { blockedCustomersJob } from "~/otp/blocked-customers.server";
import { otpPurgeJob } from "~/otp/purge-job.server";
import { retentionJob, scheduleRetention } from "~/privacy/retention.server";
import { riskAssessmentJob } from "~/risk/assessment-job.server";
import { pruneDeliveries } from "~/shopify/webhook-deliveries.server";
import { clock } from "~/utils/clock.server";
// Registers the payment customization's creation with the install hook (onShopInstalled).
import "~/enforcement/payment-customization.server";

export * from "@remix-run/dev/server-build";

/**
 * Hourly: webhook delivery records past their retention, jobs finished more than 30 days ago; and the
 * personal-data retention job is queued (it queues its own next run; this starts it on a new database
 * and revives it if it ever gave up).
 */
const pruneJob = defineJob({
  kind: "housekeeping.prune",
  payload: z.object({}),
  every: 3600_000,
  run: async () => {
    await pruneDeliveries(clock.now());
    await pruneFinishedJobs();
    await scheduleRetention();
    return { ok: true };
  },
});

/** Every kind of job this app runs; a kind missing here is queued but never run. */
export const JOB_KINDS: readonly AnyJobKind[] = [
  orderTagsJob,
  customerVerifiedTagJob,
  addressCheckJob,
  ...CONFIRMATION_JOBS,
  blockedCustomersJob,
  enforcementSyncJob,
  usageChargeJob,
  depositBalanceJob,
  riskAssessmentJob,
  retentionJob,
  whatsappFallbackJob,
  whatsappReplyJob,
  otpPurgeJob,
  pruneJob,
];

/** Called once by server.mjs when it starts: the job worker, with every kind above. */
export function startBackgroundWork(): void {
  startJobWorker({ kinds: JOB_KINDS });
}
