/**
 * The server build's main module (remix.config.js `server`, the classic compiler's documented option):
 * `build/index.js` is this file bundled with the app. It hands server.mjs the Remix build, re-exported
 * whole as the compiler writes it, the one list of background work this process runs, which
 * server.mjs starts (`startBackgroundWork`), the steps a (re)install queues (`INSTALL_STEPS`), and the
 * table of fixed-path resource routes server.mjs calls directly (`FIXED_RESOURCE_ROUTES`). Rendering
 * stays in entry.server.tsx.
 */
import { z } from "zod";
import { addressCheckJob } from "~/address-correction/auto-check.server";
import { digipinWriteJob } from "~/address-correction/digipin-write.server";
import { pinDirectory } from "~/core/places/pin-directory.server";
import { defineJob, pruneFinishedJobs, type AnyJobKind } from "~/core/jobs/queue.server";
import { startJobWorker } from "~/core/jobs/worker.server";
import { whatsappFallbackJob } from "~/message-status/sms-fallback-job.server";
import { usageChargeJob } from "~/billing/usage-charges.server";
import { enforcementSyncJob, requestEnforcementSync } from "~/enforcement/enforcement-jobs.server";
import { CONFIRMATION_JOBS } from "~/orders/confirmation/confirmation-steps.server";
import { whatsappReplyJob } from "~/orders/confirmation/whatsapp-replies.server";
import { disputeTagJob } from "~/orders/confirmation/dispute.server";
import { addressLinkJob, LADDER_JOBS } from "~/orders/confirmation/ladder.server";
import { depositBalanceJob } from "~/orders/deposit-balance.server";
import { prepaidOfferJob } from "~/orders/prepaid-offer.server";
import { prepaidPaidJob } from "~/orders/prepaid-offer-paid.server";
import { customerVerifiedTagJob, orderTagsJob } from "~/orders/tag-jobs.server";
import { blockedCustomersJob } from "~/otp/blocked-customers.server";
import { otpPurgeJob } from "~/otp/purge-job.server";
import { retentionJob, scheduleRetention } from "~/privacy/retention.server";
import { shopRedactJob } from "~/privacy/privacy.server";
import { riskAssessmentJob } from "~/risk/assessment-job.server";
import { enqueueRiskBackfill, riskBackfillJob } from "~/risk/backfill.server";
import { riskCalibrationJob } from "~/risk/calibration.server";
import { pruneDeliveries } from "~/core/shopify/webhook-deliveries.server";
import { dayRollupJob, pruneDailyFigures, scheduleDayRollup } from "~/dashboard/day-rollup.server";
import { shopDetailsJob } from "~/core/shopify/shop-details-job.server";
import { answerJob as deliveryAnswerJob, notifyJob as deliveryRecoveryNotifyJob } from "~/delivery/recovery.server";
import { reminderJob as deliveryReminderJob } from "~/delivery/reminder.server";
import { flowTriggerJob } from "~/core/flow/trigger-jobs.server";
import { clock } from "~/core/utils/clock.server";
import { setInstallSteps, type InstallStep } from "~/core/shopify/app.server";
import type { StorefrontRoute } from "~/http/storefront.server";
import type { WebhookRoute } from "~/http/webhook.server";
import * as addressCorrectionRequest from "~/routes/proxy.api.address-correction[.]request";
import * as addressCorrectionStatus from "~/routes/proxy.api.address-correction[.]status";
import * as metrics from "~/routes/metrics";
import * as ping from "~/routes/proxy.api.auth.ping";
import * as config from "~/routes/proxy.api.config";
import * as createCheckout from "~/routes/proxy.create-checkout";
import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import * as twilioStatus from "~/routes/twilio.status";
import * as twilioVoiceGather from "~/routes/twilio.voice.gather";
import * as twilioVoiceStatus from "~/routes/twilio.voice.status";
import * as twilioSms from "~/routes/twilio.sms";
import * as twilioWhatsapp from "~/routes/twilio.whatsapp";
import * as appUninstalled from "~/routes/webhooks.app.uninstalled";
import * as appSubscriptionsUpdate from "~/routes/webhooks.app_subscriptions.update";
import * as customersDataRequest from "~/routes/webhooks.customers.data_request";
import * as customersRedact from "~/routes/webhooks.customers.redact";
import * as fulfillmentEventsCreate from "~/routes/webhooks.fulfillment_events.create";
import * as ordersCancelled from "~/routes/webhooks.orders.cancelled";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as ordersFulfilled from "~/routes/webhooks.orders.fulfilled";
import * as ordersPaid from "~/routes/webhooks.orders.paid";
import * as ordersUpdated from "~/routes/webhooks.orders.updated";
import * as shopRedact from "~/routes/webhooks.shop.redact";
import * as shopUpdate from "~/routes/webhooks.shop.update";

export * from "@remix-run/dev/server-build";
/** The operator's channel report (`npm run report:channels`, scripts/report-channels.mjs), run against the built app. */
export { channelReport, parsePriceTable } from "~/dashboard/channel-report.server";
export { schemaIsCurrent } from "~/core/db.server";
/** Counted around every request the app answers (app/server/resource-routes.mjs); the job worker gives way to them. */
export { requestStarted, requestFinished } from "~/core/jobs/foreground.server";
/** Every answered request, counted and timed for GET /metrics (server.mjs calls it, with a bounded route label). */
export { observeRequest, routeLabel } from "~/core/metrics.server";
/** What server.mjs makes of a request it read whole, for a storefront route's own interface. */
export { requestFromServer } from "~/http/storefront.server";

/**
 * Hourly: webhook delivery records past their retention, jobs finished more than 30 days ago, rolled days and
 * daily counters past 400 days; and the day rollup and the personal-data retention jobs are queued (each
 * queues its own next run; this starts them on a new database and revives one that ever gave up).
 */
const pruneJob = defineJob({
  kind: "housekeeping.prune",
  payload: z.object({}),
  every: 3600_000,
  run: async () => {
    await pruneDeliveries(clock.now());
    await pruneFinishedJobs();
    await pruneDailyFigures();
    await scheduleRetention();
    await scheduleDayRollup();
    return { ok: true };
  },
});

/** Every kind of job this app runs; a kind missing here is queued but never run. */
export const JOB_KINDS: readonly AnyJobKind[] = [
  orderTagsJob,
  customerVerifiedTagJob,
  addressCheckJob,
  digipinWriteJob,
  ...CONFIRMATION_JOBS,
  ...LADDER_JOBS,
  disputeTagJob,
  addressLinkJob,
  blockedCustomersJob,
  enforcementSyncJob,
  usageChargeJob,
  depositBalanceJob,
  prepaidOfferJob,
  prepaidPaidJob,
  riskAssessmentJob,
  riskBackfillJob,
  riskCalibrationJob,
  retentionJob,
  whatsappFallbackJob,
  whatsappReplyJob,
  otpPurgeJob,
  shopDetailsJob,
  shopRedactJob,
  deliveryReminderJob,
  deliveryRecoveryNotifyJob,
  deliveryAnswerJob,
  flowTriggerJob,
  dayRollupJob,
  pruneJob,
];

/**
 * What a (re)install starts, in order, once the shop's row exists (the afterAuth hook of
 * app/core/shopify/app.server.ts runs them): each queues a job of a kind listed above, so a failure
 * (Shopify refusing, a timeout) is retried with the queue's backoff and shows in `npm run jobs`.
 */
export const INSTALL_STEPS: readonly InstallStep[] = [
  // The checkout function's payment customization, created (or brought in step) by the `enforcement-sync` job.
  { name: "payment customization", run: (shop) => requestEnforcementSync(shop.domain, "installed") },
  // The outcomes of the shop's recent orders, learnt once (`risk-outcomes-backfill`).
  { name: "risk outcomes backfill", run: enqueueRiskBackfill },
];
setInstallSteps(INSTALL_STEPS);

/** Called once by server.mjs when it starts: the job worker, with every kind above. */
export function startBackgroundWork(): void {
  startJobWorker({ kinds: JOB_KINDS });
  // India's PIN directory (about 2 MB of JSON) read once now, not by the first Indian order's webhook.
  setTimeout(() => pinDirectory(), 0).unref();
}

/**
 * The app's resource routes whose whole path is fixed (the storefront API under /proxy, the webhooks,
 * Twilio's status callback), by the path Remix serves each at, imported from the route modules
 * themselves. server.mjs calls these by exact pathname instead of going through Remix's request
 * handler, which matches every request against the whole route tree anew (a tenth of a storefront
 * request: docs/decisions/resource-route-dispatch.md); everything else goes through Remix.
 *
 * Kept by hand, and checked against app/routes/ by tests/server/resource-routes.test.ts: every route
 * file without a UI (no default export) and without a dynamic segment is listed here at its path,
 * except local mode's tools (remix.config.js LOCAL_MODE_ROUTES), which are left out of the production
 * build and reach Remix's handler.
 */
type Handler = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => unknown;
/**
 * A storefront JSON route (app/http/storefront.server.ts) and a webhook (app/http/webhook.server.ts) also have
 * an interface of their own, without web Request/Response: the server calls it with what it read.
 */
export type ResourceRouteModule = {
  loader?: Handler;
  action?: Handler;
  storefront?: Pick<StorefrontRoute, "method" | "wire">;
  webhook?: Pick<WebhookRoute, "method" | "wire">;
};

export const FIXED_RESOURCE_ROUTES: Readonly<Record<string, ResourceRouteModule>> = {
  "/metrics": metrics,
  "/proxy/api/address-correction.request": addressCorrectionRequest,
  "/proxy/api/address-correction.status": addressCorrectionStatus,
  "/proxy/api/auth/ping": ping,
  "/proxy/api/config": config,
  "/proxy/create-checkout": createCheckout,
  "/proxy/send-otp": sendOtp,
  "/proxy/verify-otp": verifyOtp,
  "/twilio/sms": twilioSms,
  "/twilio/status": twilioStatus,
  "/twilio/voice/gather": twilioVoiceGather,
  "/twilio/voice/status": twilioVoiceStatus,
  "/twilio/whatsapp": twilioWhatsapp,
  "/webhooks/app/uninstalled": appUninstalled,
  "/webhooks/app_subscriptions/update": appSubscriptionsUpdate,
  "/webhooks/customers/data_request": customersDataRequest,
  "/webhooks/customers/redact": customersRedact,
  "/webhooks/fulfillment_events/create": fulfillmentEventsCreate,
  "/webhooks/orders/cancelled": ordersCancelled,
  "/webhooks/orders/create": ordersCreate,
  "/webhooks/orders/fulfilled": ordersFulfilled,
  "/webhooks/orders/paid": ordersPaid,
  "/webhooks/orders/updated": ordersUpdated,
  "/webhooks/shop/redact": shopRedact,
  "/webhooks/shop/update": shopUpdate,
};
