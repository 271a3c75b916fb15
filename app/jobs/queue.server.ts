import type { z } from "zod";
import { prisma } from "~/db.server";
import { clock } from "~/utils/clock.server";
import { log } from "~/utils/log.server";

/**
 * The one background-job mechanism. A job is a durable row (`Job`): a kind, an idempotency key
 * within that kind, the shop it works for and a JSON payload that the kind's zod schema reads. A worker
 * in every app instance runs the due jobs: each is claimed with a conditional update on `lockedUntil`,
 * which only one claimant can win (SQLite and PostgreSQL alike), so instances sharing a database
 * never run a job at once; a crashed claimant's lock expires after LOCK_MS. A failure is retried with
 * exponential backoff (30 s doubling to 1 h by default) up to the kind's `maxAttempts`, then the row
 * stays with `failedAt` and its last error. Nothing lives only in memory, so a deploy loses nothing.
 * Every job, due, done or failed, is in that one table (`npm run jobs` lists it).
 *
 * A kind's `run` must be safe to run twice (a crash after the work but before `doneAt` repeats it).
 */
export const MAX_ATTEMPTS = 8;
export const LOCK_MS = 60_000;
const BASE_BACKOFF_MS = 30_000;
const MAX_BACKOFF_MS = 60 * 60_000;

/** Finished jobs are kept 30 days (for a merchant asking what happened to an order), then deleted. */
export const DONE_JOB_RETENTION_MS = 30 * 24 * 3600_000;

/** What a run tells the queue: done, or failed (retried unless `retry: false` or out of attempts). */
export type JobResult = { ok: true } | { ok: false; error: string; retry?: boolean };

export type JobKind<P> = {
  /** Stored in `Job.kind`: never rename a kind that may have rows. */
  kind: string;
  /** The payload's schema: parsed when the job is queued and again when it runs. */
  payload: z.ZodType<P, z.ZodTypeDef, unknown>;
  run: (payload: P, job: { shop: string; attempts: number }) => Promise<JobResult>;
  maxAttempts?: number;
  backoffMs?: (attempts: number) => number;
  /**
   * A second `enqueue` with the same key: the payload to store instead (the job runs again), or null
   * to leave the job as it is. Without it, a second enqueue changes nothing.
   */
  merge?: (queued: P, incoming: P) => P | null;
};

export type JobSummary = { claimed: number; done: number; retried: number; failed: number };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const kinds = new Map<string, JobKind<any>>();

/** Declares a kind of job; the worker of this process runs the kinds declared in it. */
export function defineJob<P>(definition: JobKind<P>): JobKind<P> {
  if (kinds.has(definition.kind) && kinds.get(definition.kind) !== definition) throw new Error(`job kind ${definition.kind} is declared twice`);
  kinds.set(definition.kind, definition);
  return definition;
}

export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** Math.max(0, attempts - 1));
}

/**
 * Queues a job, due at once (or at `runAt`). Idempotent on (kind, key): a second call for a key that is
 * queued already changes nothing, unless the kind's `merge` says the payload grew (then the job is
 * due again with its attempts reset). Call `kickJobWorker` once the response is ready.
 */
export async function enqueueJob<P>(kind: JobKind<P>, input: { shop: string; key: string; payload: P; runAt?: Date }) {
  const payload = kind.payload.parse(input.payload);
  const nextAttemptAt = input.runAt ?? clock.now();
  const where = { kind_key: { kind: kind.kind, key: input.key } };
  const existing = await prisma.job.findUnique({ where });
  if (!existing) {
    try {
      await prisma.job.create({ data: { kind: kind.kind, key: input.key, shop: input.shop, payload: JSON.stringify(payload), nextAttemptAt } });
    } catch (error) {
      if ((error as { code?: string }).code !== "P2002") throw error; // queued meanwhile by a concurrent delivery
    }
    return;
  }
  if (!kind.merge) return;
  const queued = kind.payload.safeParse(JSON.parse(existing.payload));
  const merged = queued.success ? kind.merge(queued.data, payload) : payload;
  if (merged === null) return;
  await prisma.job.update({
    where: { id: existing.id },
    data: { payload: JSON.stringify(merged), doneAt: null, failedAt: null, attempts: 0, nextAttemptAt, lastError: null },
  });
}

/** Runs the due jobs of the kinds declared in this process (up to `limit`), each claimed by this worker alone. */
export async function runDueJobs(limit = 20): Promise<JobSummary> {
  const now = clock.now();
  const summary: JobSummary = { claimed: 0, done: 0, retried: 0, failed: 0 };
  const free = { doneAt: null, failedAt: null, OR: [{ lockedUntil: null }, { lockedUntil: { lt: now } }] };
  const due = await prisma.job.findMany({
    where: { ...free, kind: { in: [...kinds.keys()] }, nextAttemptAt: { lte: now } },
    orderBy: { nextAttemptAt: "asc" },
    take: limit,
    select: { id: true },
  });
  for (const { id } of due) {
    const { count } = await prisma.job.updateMany({
      where: { id, ...free },
      data: { lockedUntil: new Date(now.getTime() + LOCK_MS), attempts: { increment: 1 } },
    });
    if (count !== 1) continue; // another worker took it
    summary.claimed++;
    const job = await prisma.job.findUniqueOrThrow({ where: { id } });
    const kind = kinds.get(job.kind)!;
    const result = await runOne(kind, job);
    const at = clock.now();
    const fields = { kind: job.kind, shop: job.shop, key: job.key, attempts: job.attempts };
    if (result.ok) {
      await prisma.job.update({ where: { id }, data: { doneAt: at, lockedUntil: null, lastError: null } });
      summary.done++;
    } else if (result.retry === false || job.attempts >= (kind.maxAttempts ?? MAX_ATTEMPTS)) {
      await prisma.job.update({ where: { id }, data: { failedAt: at, lockedUntil: null, lastError: result.error } });
      log.error("background job failed; giving up", { ...fields, error: result.error });
      summary.failed++;
    } else {
      const delay = (kind.backoffMs ?? backoffMs)(job.attempts);
      await prisma.job.update({ where: { id }, data: { nextAttemptAt: new Date(at.getTime() + delay), lockedUntil: null, lastError: result.error } });
      log.warn("background job failed; will retry", { ...fields, error: result.error });
      summary.retried++;
    }
  }
  return summary;
}

async function runOne<P>(kind: JobKind<P>, job: { payload: string; shop: string; attempts: number }): Promise<JobResult> {
  let payload: P;
  try {
    const parsed = kind.payload.safeParse(JSON.parse(job.payload));
    if (!parsed.success) return { ok: false, error: `invalid payload: ${parsed.error.message.slice(0, 300)}`, retry: false };
    payload = parsed.data;
  } catch {
    return { ok: false, error: "invalid payload: not JSON", retry: false };
  }
  try {
    const result = await kind.run(payload, { shop: job.shop, attempts: job.attempts });
    return result.ok ? result : { ...result, error: result.error.slice(0, 500) };
  } catch (error) {
    return { ok: false, error: `threw: ${String(error)}`.slice(0, 500) };
  }
}

/** Deletes jobs finished more than DONE_JOB_RETENTION_MS ago (failed ones stay for a person to read). */
export async function pruneFinishedJobs(now: Date = clock.now()): Promise<number> {
  const { count } = await prisma.job.deleteMany({ where: { doneAt: { lt: new Date(now.getTime() - DONE_JOB_RETENTION_MS) } } });
  return count;
}

/** The key of a job about one order (one job of each kind per order). */
export function orderJobKey(shop: string, orderGid: string): string {
  return `${shop}|${orderGid}`;
}

/** The jobs about these orders, payloads and all (customers/redact). */
export async function deleteOrderJobs(shop: string, orderGids: string[]): Promise<number> {
  if (!orderGids.length) return 0;
  const { count } = await prisma.job.deleteMany({ where: { shop, key: { in: orderGids.map((gid) => orderJobKey(shop, gid)) } } });
  return count;
}

/** Every job of a shop goes with the shop (shop/redact). */
export async function deleteShopJobs(shop: string): Promise<number> {
  const { count } = await prisma.job.deleteMany({ where: { shop } });
  return count;
}
