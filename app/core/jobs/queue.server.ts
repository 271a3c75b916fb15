import type { z } from "zod";
import { databaseProvider, prisma } from "~/core/db.server";
import { isDatabaseUnavailable } from "~/core/db/database-errors";
import { execute, joinSql, query, sql, sqliteIndexedBy, sqlList, toDate, type Sql } from "~/core/db/sql.server";
import { clock } from "~/core/utils/clock.server";
import { randomToken } from "~/core/utils/crypto.server";
import { log } from "~/core/utils/log.server";

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
  /**
   * A recurring kind (housekeeping): its one row (`scheduleRecurringJobs`) is never done. After a run
   * it is due again `every` ms later; a failure is retried with backoff, never given up.
   */
  every?: number;
};

export type JobSummary = { claimed: number; done: number; retried: number; failed: number };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyJobKind = JobKind<any>;

/**
 * A kind of job. Declaring it registers nothing: the kinds a process runs are the list it passes to
 * `runDueJobs` (the server: app/server-build.ts, through the worker).
 */
export function defineJob<P>(definition: JobKind<P>): JobKind<P> {
  return definition;
}

/**
 * A kind's name and payload without its run: a room queues work that a room above it runs, without
 * importing it (the run joins the declaration in that room's `defineJob({ ...declaration, run })`,
 * listed in app/server-build.ts like every kind).
 */
export type JobDeclaration<P> = Pick<JobKind<P>, "kind" | "payload" | "merge">;

export function declareJob<P>(declaration: JobDeclaration<P>): JobDeclaration<P> {
  return declaration;
}

/** The key and shop of a recurring job's one row (`every`): one per kind, whatever the instances. */
export const RECURRING_SHOP = "*";

/**
 * Makes sure each recurring kind has its row (one statement each, idempotent): due at once when new,
 * left as it is otherwise. Every instance calls it when it starts; the row is shared.
 */
export async function scheduleRecurringJobs(recurring: readonly AnyJobKind[]): Promise<void> {
  for (const kind of recurring) {
    if (!kind.every) throw new Error(`job kind ${kind.kind} is not recurring`);
    await enqueueJob(kind, { shop: RECURRING_SHOP, key: kind.kind, payload: {} });
  }
}

export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** Math.max(0, attempts - 1));
}

type JobRow = { id: string; kind: string; key: string; shop: string; payload: string; attempts: number | bigint | string; nextAttemptAt: unknown };

/** What `enqueueJob` is asked: the job's shop, its key within its kind, its payload and when it is due (default: now). */
export type JobInput<P> = { shop: string; key: string; payload: P; runAt?: Date };

/** A job to queue, with its kind: a caller that queues several in one statement (`jobInsert`) carries them as a list. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type PlannedJob = { kind: JobDeclaration<any>; input: JobInput<any> };

/** A job to queue, its payload read by its kind's schema now (as `enqueueJob` reads it). */
export function planJob<P>(kind: JobDeclaration<P>, input: JobInput<P>): PlannedJob {
  return { kind, input: { ...input, payload: kind.payload.parse(input.payload) } };
}

/**
 * The one statement that queues a new job: `INSERT ... ON CONFLICT ("kind", "key") DO NOTHING RETURNING "id"`
 * (no row back: the key is queued already, and `afterJobFound` does what `enqueueJob` does then). With
 * `source` (`FROM ... WHERE ...`), the row is inserted only when the source has a row: a step of a
 * data-modifying CTE that runs only if the steps before it did (PostgreSQL).
 */
export function jobInsert({ kind, input }: PlannedJob, now: Date, source?: Sql): Sql {
  const row = sql`${randomToken(16)}, ${kind.kind}, ${input.key}, ${input.shop}, ${JSON.stringify(input.payload)}, 0, ${input.runAt ?? now}, ${now}, ${now}`;
  return sql`
      INSERT INTO "Job" ("id", "kind", "key", "shop", "payload", "attempts", "nextAttemptAt", "createdAt", "updatedAt")
      ${source ? sql`SELECT ${row} ${source}` : sql`VALUES (${row})`}
      ON CONFLICT ("kind", "key") DO NOTHING
      RETURNING "id"`;
}

/**
 * Queues a job, due at once (or at `runAt`). Idempotent on (kind, key): a second call for a key that is
 * queued already changes nothing, unless the kind's `merge` says the payload grew (then the job is
 * due again with its attempts reset). Call `kickJobWorker` once the response is ready.
 *
 * Webhooks queue jobs on every delivery, so this is direct SQL (app/core/db/sql.server.ts): one statement
 * for a new job; a merge reads the job and replaces its payload only if nobody changed it meanwhile.
 */
export async function enqueueJob<P>(kind: JobDeclaration<P>, input: JobInput<P>) {
  const job = planJob(kind, input);
  const payload = job.input.payload as P;
  const now = clock.now();
  const nextAttemptAt = input.runAt ?? now;
  for (let round = 0; round < 5; round++) {
    const inserted = await query<{ id: string }>(jobInsert(job, now));
    if (inserted.length || !kind.merge) return;
    const [existing] = await query<{ id: string; payload: string }>(sql`
      SELECT "id", "payload" FROM "Job" WHERE "kind" = ${kind.kind} AND "key" = ${input.key}`);
    if (!existing) continue; // deleted meanwhile: queue it anew
    const queued = kind.payload.safeParse(JSON.parse(existing.payload));
    const merged = queued.success ? kind.merge(queued.data, payload) : payload;
    if (merged === null) return;
    // Only over the payload just read: a concurrent merge makes this round read again.
    const replaced = await execute(sql`
      UPDATE "Job" SET "payload" = ${JSON.stringify(merged)}, "doneAt" = NULL, "failedAt" = NULL, "attempts" = 0,
        "nextAttemptAt" = ${nextAttemptAt}, "lastError" = NULL, "updatedAt" = ${now}
      WHERE "id" = ${existing.id} AND "payload" = ${existing.payload}`);
    if (replaced === 1) return;
  }
  throw new Error(`job ${kind.kind} ${input.key}: the queued payload kept changing`);
}

/**
 * After `jobInsert` found its key queued already: what `enqueueJob` does then (a kind with `merge` merges
 * the payload in; any other kind is left as it is).
 */
export async function afterJobFound(job: PlannedJob): Promise<void> {
  if (job.kind.merge) await enqueueJob(job.kind, job.input);
}

/**
 * Claims up to `count` due jobs of these kinds in one statement, the earliest due first: the conditional update
 * can only succeed for one claimant per job (on PostgreSQL, `SKIP LOCKED` also sends concurrent claimants to
 * different rows).
 */
async function claimDueJobs(kindNames: string[], now: Date, count: number): Promise<JobRow[]> {
  const rows = await query<JobRow>(claimStatement(kindNames, now, count));
  return rows.length > 1 ? rows.sort((a, b) => toDate(a.nextAttemptAt).getTime() - toDate(b.nextAttemptAt).getTime()) : rows;
}

/**
 * The claim's statement (`count` jobs at most). Both engines read the partial index of pending jobs in due order
 * ("Job_pending_nextAttemptAt_idx"), however many finished jobs are kept; SQLite is told to (`INDEXED BY`):
 * without statistics it would take the (kind, key) index and sort every kept job of those kinds.
 */
export function claimStatement(kindNames: string[], now: Date, count = 1): Sql {
  const lockedUntil = new Date(now.getTime() + LOCK_MS);
  const due = sql`
      SELECT "id" FROM "Job"${sqliteIndexedBy("Job_pending_nextAttemptAt_idx")}
      WHERE "doneAt" IS NULL AND "failedAt" IS NULL AND ("lockedUntil" IS NULL OR "lockedUntil" < ${now})
        AND "nextAttemptAt" <= ${now} AND "kind" IN (${sqlList(kindNames)})
      ORDER BY "nextAttemptAt" LIMIT ${count}`;
  const set = sql`"lockedUntil" = ${lockedUntil}, "attempts" = "attempts" + 1, "updatedAt" = ${now}`;
  const free = sql`"doneAt" IS NULL AND "failedAt" IS NULL AND ("lockedUntil" IS NULL OR "lockedUntil" < ${now})`;
  const returning = sql`RETURNING "Job"."id", "Job"."kind", "Job"."key", "Job"."shop", "Job"."payload", "Job"."attempts", "Job"."nextAttemptAt"`;
  // PostgreSQL: the picked rows are read once (a materialized CTE): as a subquery of `IN`, the planner may run
  // the `LIMIT` more than once and claim more rows than asked.
  if (databaseProvider === "postgresql") {
    return sql`
    WITH "picked" AS MATERIALIZED (${due} FOR UPDATE SKIP LOCKED)
    UPDATE "Job" SET ${set} FROM "picked" WHERE "Job"."id" = "picked"."id" AND ${free}
    ${returning}`;
  }
  return sql`
    UPDATE "Job" SET ${set} WHERE "id" IN (${due}) AND ${free}
    ${returning}`;
}

/** How a run ended, to record on its job (`finishJobs`). */
type Finish = { job: JobRow; doneAt?: Date; failedAt?: Date; nextAttemptAt?: Date; lastError: string | null; resetAttempts?: boolean };

/**
 * Records the ends of a round's runs and releases their jobs in one statement (a multi-row `UPDATE ... FROM` a
 * list of values), each row only if its payload is still the one that ran: a merge during the run made the job
 * due again (attempts reset), and then it is only released (one more statement for those).
 */
async function finishJobs(finishes: Finish[], now: Date) {
  if (!finishes.length) return;
  // PostgreSQL reads the list's types from its first row.
  const pg = databaseProvider === "postgresql";
  const rows = finishes.map((f, i) =>
    i === 0 && pg
      ? sql`(${f.job.id}::text, ${f.job.payload}::text, ${f.doneAt ?? null}::timestamp(3), ${f.failedAt ?? null}::timestamp(3), ${f.resetAttempts ? 1 : 0}::integer, ${f.nextAttemptAt ?? null}::timestamp(3), ${f.lastError}::text)`
      : sql`(${f.job.id}, ${f.job.payload}, ${f.doneAt ?? null}, ${f.failedAt ?? null}, ${f.resetAttempts ? 1 : 0}, ${f.nextAttemptAt ?? null}, ${f.lastError})`,
  );
  const finished = await query<{ id: string }>(sql`
    WITH "ended" ("id", "payload", "doneAt", "failedAt", "reset", "nextAttemptAt", "lastError") AS (VALUES ${joinSql(rows, ", ")})
    UPDATE "Job" SET "doneAt" = "ended"."doneAt", "failedAt" = "ended"."failedAt",
      "attempts" = CASE WHEN "ended"."reset" = 1 THEN 0 ELSE "Job"."attempts" END,
      "nextAttemptAt" = COALESCE("ended"."nextAttemptAt", "Job"."nextAttemptAt"),
      "lastError" = "ended"."lastError", "lockedUntil" = NULL, "updatedAt" = ${now}
    FROM "ended" WHERE "Job"."id" = "ended"."id" AND "Job"."payload" = "ended"."payload"
    RETURNING "Job"."id"`);
  const merged = finishes.filter((f) => !finished.some((row) => row.id === f.job.id));
  if (merged.length) await execute(sql`UPDATE "Job" SET "lockedUntil" = NULL, "updatedAt" = ${now} WHERE "id" IN (${sqlList(merged.map((f) => f.job.id))})`);
}

/**
 * Runs the due jobs of these kinds (up to `limit`), each claimed by this worker alone, `concurrency` at
 * a time (jobs wait on Shopify or an SMS provider, not on this process): each round claims up to
 * `concurrency` jobs in one statement and runs them together, and the next round claims once they all
 * ended. Jobs of other kinds are left for a process that runs them.
 */
export async function runDueJobs(
  runnable: readonly AnyJobKind[],
  limit = 20,
  concurrency = 1,
  /** Awaited before each claim (the worker's: requests waiting for a database connection go first). */
  beforeClaim?: () => Promise<void>,
): Promise<JobSummary> {
  const summary: JobSummary = { claimed: 0, done: 0, retried: 0, failed: 0 };
  const kinds = new Map(runnable.map((kind) => [kind.kind, kind]));
  const kindNames = [...kinds.keys()];
  if (!kindNames.length) return summary;
  // A round's jobs run to their end whatever the others do; a failure (a database cut fails them all) is
  // thrown once they all ended, and no further round is claimed. A sweep that finds nothing costs one statement.
  while (summary.claimed < limit) {
    await beforeClaim?.();
    const jobs = await claimDueJobs(kindNames, clock.now(), Math.min(Math.max(1, concurrency), limit - summary.claimed));
    if (!jobs.length) break;
    summary.claimed += jobs.length;
    const failure = await runRound(jobs.map((job) => runClaimed(kinds.get(job.kind)!, job, summary)));
    if (failure) throw failure.error;
  }
  return summary;
}

/**
 * A round's ends are recorded together once its runs all ended (a job whose run the database cut keeps its
 * lock), or, while one of them runs longer than ROUND_FINISH_WAIT_MS, those that ended so far are recorded
 * then, so a job done long before the round's slowest never outlives its lock (LOCK_MS) and runs again.
 */
const ROUND_FINISH_WAIT_MS = 10_000;

async function runRound(runs: Promise<Finish>[]): Promise<{ error: unknown } | null> {
  const ends: (Finish | { error: unknown } | undefined)[] = runs.map(() => undefined);
  const all = Promise.all(runs.map((run, i) => run.then((f) => void (ends[i] = f), (error: unknown) => void (ends[i] = { error }))));
  let timer: NodeJS.Timeout | undefined;
  const slow = await Promise.race([all.then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), ROUND_FINISH_WAIT_MS)))]);
  clearTimeout(timer);
  const recorded = new Set<Finish>();
  const record = async () => {
    const fresh = ends.filter((e): e is Finish => e !== undefined && !("error" in e) && !recorded.has(e));
    for (const f of fresh) recorded.add(f);
    await finishJobs(fresh, clock.now());
  };
  if (slow) {
    await record();
    await all;
  }
  await record();
  return ends.find((e): e is { error: unknown } => e !== undefined && "error" in e) ?? null;
}

/** Runs one claimed job and says how it ended (done, due again, given up), for `finishJobs` to record. */
async function runClaimed(kind: AnyJobKind, job: JobRow, summary: JobSummary): Promise<Finish> {
  const attempts = Number(job.attempts);
  const result = await runOne(kind, { payload: job.payload, shop: job.shop, attempts });
  // The database went away under the run: not the job's failure. Its lock expires and it runs again
  // once the database is back (the sweep notes the outage once); no attempt is given up for it.
  if (!result.ok && result.unavailable) throw result.unavailable;
  const at = clock.now();
  const fields = { kind: job.kind, shop: job.shop, key: job.key, attempts };
  if (result.ok && kind.every) {
    summary.done++;
    return { job, nextAttemptAt: new Date(at.getTime() + kind.every), lastError: null, resetAttempts: true };
  }
  if (result.ok) {
    summary.done++;
    return { job, doneAt: at, lastError: null };
  }
  if (kind.every) {
    const delay = Math.min(kind.every, (kind.backoffMs ?? backoffMs)(attempts));
    log.warn("recurring job failed; will run again", { ...fields, error: result.error });
    summary.retried++;
    return { job, nextAttemptAt: new Date(at.getTime() + delay), lastError: result.error };
  }
  if (result.retry === false || attempts >= (kind.maxAttempts ?? MAX_ATTEMPTS)) {
    log.error("background job failed; giving up", { ...fields, error: result.error });
    summary.failed++;
    return { job, failedAt: at, lastError: result.error };
  }
  const delay = (kind.backoffMs ?? backoffMs)(attempts);
  log.warn("background job failed; will retry", { ...fields, error: result.error });
  summary.retried++;
  return { job, nextAttemptAt: new Date(at.getTime() + delay), lastError: result.error };
}

async function runOne<P>(kind: JobKind<P>, job: { payload: string; shop: string; attempts: number }): Promise<JobResult & { unavailable?: unknown }> {
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
    if (isDatabaseUnavailable(error)) return { ok: false, error: `threw: ${String(error)}`.slice(0, 500), unavailable: error };
    return { ok: false, error: `threw: ${String(error)}`.slice(0, 500) };
  }
}

/** Jobs that failed for good are kept 90 days for a person to read (their payloads hold phones and addresses), then deleted. */
export const FAILED_JOB_RETENTION_MS = 90 * 24 * 3600_000;

/** Deletes jobs finished more than DONE_JOB_RETENTION_MS ago, and failed ones after FAILED_JOB_RETENTION_MS. */
export async function pruneFinishedJobs(now: Date = clock.now()): Promise<number> {
  const { count } = await prisma.job.deleteMany({
    where: {
      OR: [{ doneAt: { lt: new Date(now.getTime() - DONE_JOB_RETENTION_MS) } }, { failedAt: { lt: new Date(now.getTime() - FAILED_JOB_RETENTION_MS) } }],
    },
  });
  return count;
}

/** The key of a job about one order (one job of each kind per order). */
export function orderJobKey(shop: string, orderGid: string): string {
  return `${shop}|${orderGid}`;
}

/**
 * The jobs about these orders, payloads and all (customers/redact): keyed by the order, or by the order's
 * key and more after a `|` (the order's Flow triggers, app/core/flow/trigger-jobs.server.ts).
 */
export async function deleteOrderJobs(shop: string, orderGids: string[]): Promise<number> {
  if (!orderGids.length) return 0;
  const keys = orderGids.map((gid) => orderJobKey(shop, gid));
  const { count } = await prisma.job.deleteMany({
    where: { shop, OR: [{ key: { in: keys } }, ...keys.map((key) => ({ key: { startsWith: `${key}|` } }))] },
  });
  return count;
}

/**
 * Every job of the shop whose payload names one of these values (a phone, an order or customer id),
 * done, failed or due: customers/redact leaves no payload naming the shopper. Values are matched as
 * JSON strings (quoted), so `.../Order/12` never matches `.../Order/123`. A due job about several people
 * (a `phones` list: the blocklist's untagging) keeps the others and loses only these; any other is deleted.
 */
export async function deleteJobsNaming(shop: string, values: string[]): Promise<number> {
  const needles = [...new Set(values.filter(Boolean))].map((v) => JSON.stringify(v));
  if (!needles.length) return 0;
  // LIKE finds each anywhere in the payload, its own wildcards taken literally (ESCAPE '\\').
  const like = (needle: string) => `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  let anyNamed = sql`"payload" LIKE ${like(needles[0])} ESCAPE '\\'`;
  for (const needle of needles.slice(1)) anyNamed = sql`${anyNamed} OR "payload" LIKE ${like(needle)} ESCAPE '\\'`;
  const rows = await query<{ id: string; payload: string; doneAt: unknown; failedAt: unknown }>(sql`
    SELECT "id", "payload", "doneAt", "failedAt" FROM "Job" WHERE "shop" = ${shop} AND (${anyNamed})`);
  let changed = 0;
  const named = new Set(values);
  for (const row of rows) {
    if (!needles.some((n) => row.payload.includes(n))) continue;
    let payload: { phones?: unknown } = {};
    try {
      payload = JSON.parse(row.payload) as { phones?: unknown };
    } catch {
      // not JSON: deleted below
    }
    const others = Array.isArray(payload.phones) ? payload.phones.filter((p) => typeof p === "string" && !named.has(p)) : [];
    const rest = { ...payload, phones: others };
    if (row.doneAt == null && row.failedAt == null && others.length && !needles.some((n) => JSON.stringify(rest).includes(n))) {
      changed += await execute(sql`UPDATE "Job" SET "payload" = ${JSON.stringify(rest)} WHERE "id" = ${row.id} AND "payload" = ${row.payload}`);
    } else {
      changed += await execute(sql`DELETE FROM "Job" WHERE "id" = ${row.id}`);
    }
  }
  return changed;
}

/** Every job of a shop goes with the shop (shop/redact). */
export async function deleteShopJobs(shop: string): Promise<number> {
  const { count } = await prisma.job.deleteMany({ where: { shop } });
  return count;
}
