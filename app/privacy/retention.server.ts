import { z } from "zod";
import { prisma } from "~/core/db.server";
import { defineJob, enqueueJob } from "~/core/jobs/queue.server";
import { clock } from "~/core/utils/clock.server";
import { DATA_REQUEST_RETENTION_DAYS, INBOUND_KEYWORD_RETENTION_DAYS, RETENTION_STEPS, retentionCutoffs, UNINSTALLED_SESSION_DAYS, type RetentionStep } from "./retention";

/**
 * The retention job: deletes every personal record past its period (retention.ts), in batches of at
 * most BATCH rows, each a short read of keys and one DELETE by primary key that repeats the age
 * condition (a row refreshed in between, e.g. a number verified again, is kept). No statement holds
 * locks for long, so send-otp and verify-otp never wait behind it. One job row for all shops
 * (kind RETENTION_KIND, key "global"): it queues its own next run (`runAt` in an hour; in a minute while
 * a run stopped at its budget), the queue's claim lets one instance run it at a time, and running it
 * twice deletes nothing twice.
 */
export const RETENTION_KIND = "privacy.retention";
export const RETENTION_EVERY_MS = 3600_000;
const BACKLOG_EVERY_MS = 60_000;
export const BATCH = 500;
/** Statements one run may spend deleting; a larger backlog continues a minute later. */
const BATCHES_PER_RUN = 200;
const DAY_MS = 86_400_000;

export type RetentionSummary = Record<RetentionStep, number> & { more: boolean };

type Budget = { left: number };

/** Runs `batch` (deleting at most BATCH rows) until it deletes fewer, or the run's budget is spent. */
async function drain(budget: Budget, batch: () => Promise<number>): Promise<number> {
  let total = 0;
  while (budget.left > 0) {
    budget.left--;
    const deleted = await batch();
    total += deleted;
    if (deleted < BATCH) break;
  }
  return total;
}

/** Deletes what is past its retention, every shop. */
export async function deleteExpiredRecords(now: Date = clock.now()): Promise<RetentionSummary> {
  const budget: Budget = { left: BATCHES_PER_RUN };
  const nowMs = BigInt(now.getTime());
  const summary = { ...(Object.fromEntries(RETENTION_STEPS.map((step) => [step, 0])) as Record<RetentionStep, number>), more: false };
  summary.pendingCodes = await drain(budget, async () => {
    const where = { expiresAt: { lt: nowMs } };
    const rows = await prisma.otpChallenge.findMany({ where, select: { id: true }, take: BATCH });
    return rows.length ? (await prisma.otpChallenge.deleteMany({ where: { ...where, id: { in: rows.map((r) => r.id) } } })).count : 0;
  });
  summary.rateCounters = await drain(budget, async () => {
    const where = { expiresAt: { lt: nowMs } };
    const rows = await prisma.rateCounter.findMany({ where, select: { key: true }, take: BATCH });
    return rows.length ? (await prisma.rateCounter.deleteMany({ where: { ...where, key: { in: rows.map((r) => r.key) } } })).count : 0;
  });
  summary.dataRequests = await drain(budget, async () => {
    const where = { createdAt: { lt: new Date(now.getTime() - DATA_REQUEST_RETENTION_DAYS * DAY_MS) } };
    const rows = await prisma.dataRequestReport.findMany({ where, select: { id: true }, take: BATCH });
    return rows.length ? (await prisma.dataRequestReport.deleteMany({ where: { ...where, id: { in: rows.map((r) => r.id) } } })).count : 0;
  });
  summary.inboundKeywords = await drain(budget, async () => {
    const where = { createdAt: { lt: new Date(now.getTime() - INBOUND_KEYWORD_RETENTION_DAYS * DAY_MS) } };
    const rows = await prisma.inboundKeyword.findMany({ where, select: { id: true }, take: BATCH });
    return rows.length ? (await prisma.inboundKeyword.deleteMany({ where: { ...where, id: { in: rows.map((r) => r.id) } } })).count : 0;
  });
  summary.sessions = await drain(budget, async () => {
    // Staff sessions whose token ended (Shopify signs the staff member in again), offline sessions whose token can no
    // longer be refreshed (the next visit exchanges a new one), and any session of a shop that uninstalled a day ago
    // or more (app/uninstalled deletes them at once; this is for a webhook that never came or failed).
    const gone = await prisma.shop.findMany({ where: { uninstalledAt: { lt: new Date(now.getTime() - UNINSTALLED_SESSION_DAYS * DAY_MS) } }, select: { domain: true }, take: BATCH });
    const where = {
      OR: [
        { isOnline: true, expires: { lt: now } },
        { isOnline: false, refreshTokenExpires: { lt: now } },
        ...(gone.length ? [{ shop: { in: gone.map((s) => s.domain) } }] : []),
      ],
    };
    const rows = await prisma.session.findMany({ where, select: { id: true }, take: BATCH });
    return rows.length ? (await prisma.session.deleteMany({ where: { ...where, id: { in: rows.map((r) => r.id) } } })).count : 0;
  });
  summary.blocklist = await drain(budget, async () => {
    // A block the merchant gave an end (the Blocked numbers page): deleted within the hour after it ends.
    const where = { expiresAt: { lt: now } };
    const rows = await prisma.blockedPhone.findMany({ where, select: { shopId: true, phone: true }, take: BATCH });
    return rows.length ? (await prisma.blockedPhone.deleteMany({ where: { ...where, OR: rows.map((r) => ({ shopId: r.shopId, phone: r.phone })) } })).count : 0;
  });
  const shops = await prisma.shop.findMany({ select: { id: true, returningSkipDays: true, recordRetentionDays: true }, orderBy: { id: "asc" } });
  for (const shop of shops) {
    const cutoff = retentionCutoffs(shop, now);
    const shopId = shop.id;
    summary.selections += await drain(budget, async () => {
      const where = { shopId, createdAt: { lt: cutoff.selections } };
      const rows = await prisma.selection.findMany({ where, select: { id: true }, take: BATCH });
      return rows.length ? (await prisma.selection.deleteMany({ where: { ...where, id: { in: rows.map((r) => r.id) } } })).count : 0;
    });
    summary.verifiedMarks += await drain(budget, async () => {
      const where = { shopId, verifiedAt: { lt: cutoff.verifiedMarks } };
      const rows = await prisma.verifiedCustomer.findMany({ where, select: { phone: true }, take: BATCH });
      return rows.length ? (await prisma.verifiedCustomer.deleteMany({ where: { ...where, phone: { in: rows.map((r) => r.phone) } } })).count : 0;
    });
    summary.messages += await drain(budget, async () => {
      const where = { shopId, createdAt: { lt: cutoff.records } };
      const rows = await prisma.messageDelivery.findMany({ where, select: { id: true }, take: BATCH });
      return rows.length ? (await prisma.messageDelivery.deleteMany({ where: { ...where, id: { in: rows.map((r) => r.id) } } })).count : 0;
    });
    summary.messages += await drain(budget, async () => {
      // The shopper's WhatsApp answers: message records too, kept as long.
      const where = { shopId, createdAt: { lt: cutoff.records } };
      const rows = await prisma.whatsappReply.findMany({ where, select: { id: true }, take: BATCH });
      return rows.length ? (await prisma.whatsappReply.deleteMany({ where: { ...where, id: { in: rows.map((r) => r.id) } } })).count : 0;
    });
    summary.addressCorrections += await drain(budget, async () => {
      // A pending link still in its validity stays whatever its age.
      const where = { shopId, createdAt: { lt: cutoff.records }, OR: [{ status: { not: "pending" } }, { expiresAt: { lt: now } }] };
      const rows = await prisma.addressCorrection.findMany({ where, select: { id: true }, take: BATCH });
      return rows.length ? (await prisma.addressCorrection.deleteMany({ where: { ...where, id: { in: rows.map((r) => r.id) } } })).count : 0;
    });
    summary.orderConfirmations += await drain(budget, async () => {
      // A confirmation still awaited (its deadline and holds pending) stays whatever its age, unless its deadline
      // itself passed a whole period ago (its deadline job gave up): nothing will settle it any more.
      const where = { shopId, createdAt: { lt: cutoff.records }, OR: [{ status: { not: "pending" } }, { deadlineAt: { lt: cutoff.records } }] };
      const rows = await prisma.orderConfirmation.findMany({ where, select: { id: true }, take: BATCH });
      return rows.length ? (await prisma.orderConfirmation.deleteMany({ where: { ...where, id: { in: rows.map((r) => r.id) } } })).count : 0;
    });
    // The pay-now offers go at the records' age.
    summary.prepaidOffers += await drain(budget, async () => {
      const where = { shopId, createdAt: { lt: cutoff.records } };
      const rows = await prisma.prepaidOffer.findMany({ where, select: { id: true }, take: BATCH });
      return rows.length ? (await prisma.prepaidOffer.deleteMany({ where: { ...where, id: { in: rows.map((r) => r.id) } } })).count : 0;
    });
    summary.orderRecords += await drain(budget, async () => {
      const where = { shopId, placedAt: { lt: cutoff.records } };
      const rows = await prisma.orderRecord.findMany({ where, select: { orderGid: true }, take: BATCH });
      return rows.length ? (await prisma.orderRecord.deleteMany({ where: { ...where, orderGid: { in: rows.map((r) => r.orderGid) } } })).count : 0;
    });
    summary.orderOutcomes += await drain(budget, async () => {
      // What became of an order (the risk score's history): as long as the order records, from when it was learnt.
      const where = { shopId, decidedAt: { lt: cutoff.records } };
      const rows = await prisma.orderOutcome.findMany({ where, select: { orderGid: true }, take: BATCH });
      return rows.length ? (await prisma.orderOutcome.deleteMany({ where: { ...where, orderGid: { in: rows.map((r) => r.orderGid) } } })).count : 0;
    });
    summary.deliveries += await drain(budget, async () => {
      const where = { shopId, createdAt: { lt: cutoff.records } };
      const rows = await prisma.deliveryReminder.findMany({ where, select: { orderGid: true }, take: BATCH });
      return rows.length ? (await prisma.deliveryReminder.deleteMany({ where: { ...where, orderGid: { in: rows.map((r) => r.orderGid) } } })).count : 0;
    });
    summary.deliveries += await drain(budget, async () => {
      // A recovery the shopper can still answer (its link valid) stays whatever its age.
      const where = { shopId, createdAt: { lt: cutoff.records }, OR: [{ status: { not: "open" } }, { expiresAt: { lt: now } }] };
      const rows = await prisma.deliveryRecovery.findMany({ where, select: { id: true }, take: BATCH });
      return rows.length ? (await prisma.deliveryRecovery.deleteMany({ where: { ...where, id: { in: rows.map((r) => r.id) } } })).count : 0;
    });
    summary.experimentGroups += await drain(budget, async () => {
      // A shopper's group in the merchant's experiment, as long as the orders it is read with. The group is a keyed
      // hash of the phone and the experiment, so a shopper who comes back to a running experiment gets the same one.
      const where = { shopId, assignedAt: { lt: cutoff.records } };
      const rows = await prisma.experimentAssignment.findMany({ where, select: { experimentId: true, phone: true }, take: BATCH });
      return rows.length
        ? (await prisma.experimentAssignment.deleteMany({ where: { ...where, OR: rows.map((r) => ({ experimentId: r.experimentId, phone: r.phone })) } })).count
        : 0;
    });
    summary.optOuts += await drain(budget, async () => {
      const where = { shopId, createdAt: { lt: cutoff.optOuts } };
      const rows = await prisma.contactOptOut.findMany({ where, select: { phone: true, channel: true }, take: BATCH });
      return rows.length ? (await prisma.contactOptOut.deleteMany({ where: { ...where, OR: rows.map((r) => ({ phone: r.phone, channel: r.channel })) } })).count : 0;
    });
    if (budget.left <= 0) break;
  }
  summary.more = budget.left <= 0;
  return summary;
}

const retentionPayload = z.object({ runAt: z.string().datetime() });

export const retentionJob = defineJob({
  kind: RETENTION_KIND,
  payload: retentionPayload,
  maxAttempts: 5,
  // The one row is re-queued by each run and by every instance's hourly housekeeping: a later run wins,
  // an earlier one changes nothing (so housekeeping never pulls a scheduled run forward twice).
  merge: (queued, incoming) => (incoming.runAt > queued.runAt ? incoming : null),
  run: async () => {
    const summary = await deleteExpiredRecords();
    await scheduleRetention(new Date(clock.now().getTime() + (summary.more ? BACKLOG_EVERY_MS : RETENTION_EVERY_MS)));
    return { ok: true };
  },
});

/**
 * Queues the retention job's next run (the run itself, and every instance's housekeeping so a job that
 * failed for good starts again). Queued while it runs, the new payload makes the queue release the row
 * for `runAt` instead of marking it done.
 */
export async function scheduleRetention(runAt: Date = clock.now()) {
  await enqueueJob(retentionJob, { shop: "*", key: "global", payload: { runAt: runAt.toISOString() }, runAt });
}
