import { z } from "zod";
import { prisma } from "~/db.server";
import { env } from "~/env.server";
import { TAGS_ADD } from "~/shopify/operations";
import { shopifyGraphql } from "~/shopify/graphql.server";
import { clock } from "~/utils/clock.server";
import { log } from "~/utils/log.server";
import { pruneDeliveries } from "~/shopify/webhook-deliveries.server";

/**
 * Durable order jobs. A row is one job of one kind for one order: "tags" (below), or a step of
 * verification after purchase ("confirmation:<step>", app/order-confirmation/), run by a handler the
 * domain registers (registerOrderJobKind). The same claim, backoff and retry rules apply to every kind.
 *
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

/** The result of one run of a job of another kind than "tags": done, retry later, or give up now. */
export type OrderJobResult = { ok: true; note?: string } | { ok: false; retry: boolean; error: string };
type OrderJobHandler = (job: { shop: string; orderGid: string; kind: string; payload: string | null }) => Promise<OrderJobResult>;
const handlers = new Map<string, OrderJobHandler>();

/** A domain's job kinds (by prefix: "confirmation" handles "confirmation:notify", ...). */
export function registerOrderJobKind(prefix: string, handler: OrderJobHandler) {
  handlers.set(prefix, handler);
}

/**
 * Schedules a job of a registered kind for an order at `runAt` (once per order and kind: scheduling
 * it again moves a job not yet done to the new time and payload).
 */
export async function scheduleOrderJob(shop: string, orderGid: string, kind: string, payload: string, runAt: Date) {
  const key = { shop_orderGid_kind: { shop, orderGid, kind } };
  const existing = await prisma.orderTagJob.findUnique({ where: key });
  if (existing?.doneAt) return;
  if (existing) {
    await prisma.orderTagJob.update({ where: key, data: { payload, nextAttemptAt: runAt, failedAt: null, attempts: 0 } });
    return;
  }
  try {
    await prisma.orderTagJob.create({ data: { shop, orderGid, kind, payload, tags: "[]", nextAttemptAt: runAt } });
  } catch (error) {
    if ((error as { code?: string }).code !== "P2002") throw error; // scheduled concurrently: the same job
  }
}

/**
 * Queues tags for an order; a second call for the same order adds any new tags to the same job. Tags
 * in `withdraw` leave the job's list (the caller removes them from the order itself), so a later run
 * does not add them back. Call kickTagWorker once the response is ready.
 */
export async function enqueueOrderTags(shop: string, orderGid: string, tags: string[], withdraw: string[] = []) {
  const now = clock.now();
  const existing = await prisma.orderTagJob.findUnique({ where: { shop_orderGid_kind: { shop, orderGid, kind: "tags" } } });
  if (!existing) {
    if (!tags.length) return;
    try {
      await prisma.orderTagJob.create({ data: { shop, orderGid, tags: JSON.stringify(tags), nextAttemptAt: now } });
    } catch (error) {
      if ((error as { code?: string }).code !== "P2002") throw error; // a concurrent duplicate delivery queued it
    }
  } else {
    const had = new Set<string>(JSON.parse(existing.tags));
    const fresh = tags.filter((t) => !had.has(t));
    const kept = [...had].filter((t) => !withdraw.includes(t));
    if (fresh.length || kept.length !== had.size) {
      await prisma.orderTagJob.update({
        where: { id: existing.id },
        data: { tags: JSON.stringify([...kept, ...fresh]), doneAt: null, failedAt: null, attempts: 0, nextAttemptAt: now },
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
    const outcome = await runJob(job);
    const at = clock.now();
    if (outcome.ok) {
      await prisma.orderTagJob.update({ where: { id }, data: { doneAt: at, lockedUntil: null, lastError: null } });
      summary.done++;
    } else if (job.attempts >= MAX_ATTEMPTS || !outcome.retry) {
      await prisma.orderTagJob.update({ where: { id }, data: { failedAt: at, lockedUntil: null, lastError: outcome.error } });
      log.error(job.kind === "tags" ? "order tags could not be added; giving up" : "order job failed; giving up", {
        shop: job.shop,
        orderGid: job.orderGid,
        kind: job.kind,
        attempts: job.attempts,
        error: outcome.error,
      });
      summary.failed++;
    } else {
      await prisma.orderTagJob.update({
        where: { id },
        data: { nextAttemptAt: new Date(at.getTime() + backoffMs(job.attempts)), lockedUntil: null, lastError: outcome.error },
      });
      log.warn(job.kind === "tags" ? "order tags not added yet; will retry" : "order job not done yet; will retry", {
        shop: job.shop,
        orderGid: job.orderGid,
        kind: job.kind,
        attempts: job.attempts,
        error: outcome.error,
      });
      summary.retried++;
    }
  }
  return summary;
}

async function runJob(job: { shop: string; orderGid: string; kind: string; tags: string; payload: string | null }): Promise<{ ok: true } | { ok: false; retry: boolean; error: string }> {
  if (job.kind === "tags") {
    const added = await addTags(job.shop, job.orderGid, JSON.parse(job.tags));
    return added.ok ? added : { ...added, retry: true };
  }
  const handler = handlers.get(job.kind.split(":")[0]);
  if (!handler) return { ok: false, retry: true, error: `no handler for job kind ${job.kind} in this instance` };
  try {
    return await handler(job);
  } catch (error) {
    return { ok: false, retry: true, error: `threw: ${String(error)}`.slice(0, 500) };
  }
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
