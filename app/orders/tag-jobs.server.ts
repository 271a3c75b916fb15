import { z } from "zod";
import { prisma } from "~/db.server";
import { env } from "~/env.server";
import { TAGS_ADD } from "~/shopify/operations";
import { shopifyGraphql } from "~/shopify/graphql.server";
import { clock } from "~/utils/clock.server";
import { log } from "~/utils/log.server";
import { pruneDeliveries } from "~/shopify/webhook-deliveries.server";

/**
 * Durable order tagging. orders/create writes a job row (one per order) and answers Shopify at once;
 * a worker in every app instance adds the tags with `tagsAdd` and retries failures with exponential
 * backoff (30 s doubling to 1 h, MAX_ATTEMPTS tries, about 2 h in all). Instances sharing a
 * PostgreSQL database never run the same job at once: a job is claimed with a conditional update on
 * `lockedUntil`, which only one claimant can win; a crashed claimant's lock expires after LOCK_MS.
 * `tagsAdd` appends, so a job that runs twice after a crash does no harm.
 */
export const MAX_ATTEMPTS = 8;
export const LOCK_MS = 60_000;
const BASE_BACKOFF_MS = 30_000;
const MAX_BACKOFF_MS = 60 * 60_000;

export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** Math.max(0, attempts - 1));
}

/** Queues tags for an order; a second call for the same order adds any new tags to the same job. Call kickTagWorker once the response is ready. */
export async function enqueueOrderTags(shop: string, orderGid: string, tags: string[]) {
  const now = clock.now();
  const existing = await prisma.orderTagJob.findUnique({ where: { shop_orderGid: { shop, orderGid } } });
  if (!existing) {
    try {
      await prisma.orderTagJob.create({ data: { shop, orderGid, tags: JSON.stringify(tags), nextAttemptAt: now } });
    } catch (error) {
      if ((error as { code?: string }).code !== "P2002") throw error; // a concurrent duplicate delivery queued it
    }
  } else {
    const had = new Set<string>(JSON.parse(existing.tags));
    const fresh = tags.filter((t) => !had.has(t));
    if (fresh.length) {
      await prisma.orderTagJob.update({
        where: { id: existing.id },
        data: { tags: JSON.stringify([...had, ...fresh]), doneAt: null, failedAt: null, attempts: 0, nextAttemptAt: now },
      });
    }
  }
}


const tagsAddReply = z.object({
  tagsAdd: z.object({ node: z.object({ id: z.string() }).nullable(), userErrors: z.array(z.object({ message: z.string() })) }),
});

export type TagRunSummary = { claimed: number; done: number; retried: number; failed: number };

/** Runs the jobs that are due (up to `limit`), each claimed by this worker alone. */
export async function runDueTagJobs(limit = 20): Promise<TagRunSummary> {
  const now = clock.now();
  const summary: TagRunSummary = { claimed: 0, done: 0, retried: 0, failed: 0 };
  const free = { doneAt: null, failedAt: null, OR: [{ lockedUntil: null }, { lockedUntil: { lt: now } }] };
  const due = await prisma.orderTagJob.findMany({
    where: { ...free, nextAttemptAt: { lte: now } },
    orderBy: { nextAttemptAt: "asc" },
    take: limit,
    select: { id: true },
  });
  for (const { id } of due) {
    const { count } = await prisma.orderTagJob.updateMany({
      where: { id, ...free },
      data: { lockedUntil: new Date(now.getTime() + LOCK_MS), attempts: { increment: 1 } },
    });
    if (count !== 1) continue; // another worker took it
    summary.claimed++;
    const job = await prisma.orderTagJob.findUniqueOrThrow({ where: { id } });
    const outcome = await addTags(job.shop, job.orderGid, JSON.parse(job.tags));
    const at = clock.now();
    if (outcome.ok) {
      await prisma.orderTagJob.update({ where: { id }, data: { doneAt: at, lockedUntil: null, lastError: null } });
      summary.done++;
    } else if (job.attempts >= MAX_ATTEMPTS) {
      await prisma.orderTagJob.update({ where: { id }, data: { failedAt: at, lockedUntil: null, lastError: outcome.error } });
      log.error("order tags could not be added; giving up", { shop: job.shop, orderGid: job.orderGid, attempts: job.attempts, error: outcome.error });
      summary.failed++;
    } else {
      await prisma.orderTagJob.update({
        where: { id },
        data: { nextAttemptAt: new Date(at.getTime() + backoffMs(job.attempts)), lockedUntil: null, lastError: outcome.error },
      });
      log.warn("order tags not added yet; will retry", { shop: job.shop, orderGid: job.orderGid, attempts: job.attempts, error: outcome.error });
      summary.retried++;
    }
  }
  return summary;
}

async function addTags(shop: string, orderGid: string, tags: string[]): Promise<{ ok: true } | { ok: false; error: string }> {
  const result = await shopifyGraphql<unknown>("admin", shop, TAGS_ADD, { variables: { id: orderGid, tags } });
  if (!result.ok) return { ok: false, error: `${result.cause}: ${result.detail}`.slice(0, 500) };
  const reply = tagsAddReply.safeParse(result.data);
  if (!reply.success) return { ok: false, error: `invalid_response: ${reply.error.message.slice(0, 300)}` };
  if (reply.data.tagsAdd.userErrors.length) return { ok: false, error: `user_errors: ${JSON.stringify(reply.data.tagsAdd.userErrors).slice(0, 400)}` };
  return { ok: true };
}

/** Finished tag jobs are kept 30 days (for a merchant asking why an order has its tags), then deleted. */
export const DONE_JOB_RETENTION_MS = 30 * 24 * 3600_000;

/** Housekeeping: old delivery records and finished jobs. Safe to run on every instance at once. */
export async function pruneOld(now: Date = clock.now()) {
  const deliveries = await pruneDeliveries(now);
  const { count: jobs } = await prisma.orderTagJob.deleteMany({
    where: { doneAt: { lt: new Date(now.getTime() - DONE_JOB_RETENTION_MS) } },
  });
  return { deliveries, jobs };
}

/**
 * The in-process worker: a sweep every WORKER_INTERVAL_MS, plus a sweep right after a job is queued.
 * Not started under tests (they call runDueTagJobs and move the clock themselves).
 */
const WORKER_INTERVAL_MS = 5_000;
const workerEnabled = env.NODE_ENV !== "test";
let running: Promise<unknown> | null = null;
let again = false;
let lastPrune = 0;

function sweep() {
  if (running) {
    again = true;
    return;
  }
  const prune = Date.now() - lastPrune > 3600_000;
  if (prune) lastPrune = Date.now();
  running = Promise.all([runDueTagJobs(), prune ? pruneOld() : null])
    .catch((error) => log.error("order tag worker sweep failed", { error: String(error) }))
    .finally(() => {
      running = null;
      if (again) {
        again = false;
        sweep();
      }
    });
}

export function kickTagWorker() {
  if (workerEnabled) setImmediate(sweep);
}

declare global {
  var __codTagWorker: NodeJS.Timeout | undefined;
}

export function startTagWorker() {
  if (!workerEnabled || globalThis.__codTagWorker) return;
  globalThis.__codTagWorker = setInterval(sweep, WORKER_INTERVAL_MS);
  globalThis.__codTagWorker.unref();
}
