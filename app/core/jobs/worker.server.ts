import { env } from "~/core/env.server";
import { driver } from "~/core/db.server";
import { isDatabaseUnavailable } from "~/core/db/database-errors";
import { noteDatabaseAnswered, noteDatabaseUnavailable } from "~/core/db/outage.server";
import { requestsInFlight } from "~/core/jobs/foreground.server";
import { runDueJobs, scheduleRecurringJobs, type AnyJobKind } from "~/core/jobs/queue.server";
import { log } from "~/core/utils/log.server";

/**
 * The in-process worker of the job queue, started by the server process with the kinds it runs
 * (app/server-build.ts): a sweep every WORKER_INTERVAL_MS, a sweep right after a job is queued
 * (`kickJobWorker`), sweeps back to back while they find full batches (a backlog drains at once, not
 * 20 jobs per tick). Its first sweep makes sure the recurring kinds (housekeeping) have their rows.
 * Not started under tests (they call runDueJobs with the kinds they need and move the clock themselves).
 */
const WORKER_INTERVAL_MS = 5_000;
const SWEEP_BATCH = 20;
const SWEEP_CONCURRENCY = 4;
const workerEnabled = env.NODE_ENV !== "test";

let running: Promise<unknown> | null = null;
let again = false;
let kinds: readonly AnyJobKind[] = [];
let unscheduled: readonly AnyJobKind[] = [];

async function sweepOnce() {
  if (unscheduled.length) {
    await scheduleRecurringJobs(unscheduled);
    unscheduled = [];
  }
  return runDueJobs(kinds, SWEEP_BATCH, SWEEP_CONCURRENCY, giveWayToRequests);
}

const GIVE_WAY_MAX_MS = 3_000;
const GIVE_WAY_STEP_MS = 5;

/**
 * Before each claim, the worker waits (at most GIVE_WAY_MAX_MS) while a request is being answered
 * (`requestsInFlight`) or, on PostgreSQL, while something waits for one of the pool's connections: a burst of
 * requests (a flash sale's orders/create deliveries, shoppers asking for codes) is not queued behind
 * background work that can run a moment later, on the CPU or in the pool. The bound keeps the work moving
 * under a load that never pauses: then each round still claims its jobs every GIVE_WAY_MAX_MS, and the backlog
 * drains once the burst is over (orders/create on PostgreSQL, 1,000 deliveries: about 530 req/s and p99 55 ms
 * with 3 s, 410 req/s and 75 ms with 1 s; docs/performance.md). The worker's own rounds cannot fill the pool
 * (SWEEP_CONCURRENCY is below its size), so a wait for a connection means requests.
 */
export async function giveWayToRequests(): Promise<void> {
  for (let waited = 0; requestsWaiting() && waited < GIVE_WAY_MAX_MS; waited += GIVE_WAY_STEP_MS) {
    await new Promise((resolve) => setTimeout(resolve, GIVE_WAY_STEP_MS));
  }
}

function requestsWaiting(): boolean {
  return requestsInFlight() > 0 || (driver.provider === "postgresql" && driver.pool.waitingCount > 0);
}

function sweep() {
  if (running) {
    again = true;
    return;
  }
  const startedAt = Date.now();
  running = sweepOnce()
    // A full batch means more may be due: the next sweep follows at once instead of at the next tick.
    .then((summary) => {
      noteDatabaseAnswered(startedAt);
      if (summary.claimed >= SWEEP_BATCH) again = true;
    })
    // A database cut is an outage, not a fault of ours: one warning for all of it (app/core/db/outage.server.ts).
    .catch((error) =>
      isDatabaseUnavailable(error) ? noteDatabaseUnavailable("job worker: database unavailable", { error: String(error).slice(0, 300) }) : log.error("job worker sweep failed", { error: String(error) }),
    )
    .finally(() => {
      running = null;
      if (again) {
        again = false;
        sweep();
      }
    });
}

/** Runs the due jobs now (after the current response is written), instead of at the next tick. */
export function kickJobWorker() {
  if (workerEnabled && globalThis.__codJobWorker) setImmediate(sweep);
}

declare global {
  var __codJobWorker: NodeJS.Timeout | undefined;
}

/** Starts the worker (once per process) with every kind it runs; `kinds` includes the recurring ones. */
export function startJobWorker(options: { kinds: readonly AnyJobKind[] }) {
  if (!workerEnabled || globalThis.__codJobWorker) return;
  kinds = options.kinds;
  unscheduled = options.kinds.filter((kind) => kind.every);
  globalThis.__codJobWorker = setInterval(sweep, WORKER_INTERVAL_MS);
  globalThis.__codJobWorker.unref();
  setImmediate(sweep);
}
