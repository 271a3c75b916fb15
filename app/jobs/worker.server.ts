import { env } from "~/env.server";
import { runDueJobs } from "~/jobs/queue.server";
import { log } from "~/utils/log.server";

/**
 * The in-process worker of the job queue: a sweep every WORKER_INTERVAL_MS, a sweep right after a job
 * is queued (`kickJobWorker`), sweeps back to back while they find full batches (a backlog drains at
 * once, not 20 jobs per tick), and once an hour the housekeeping it was started with. Not started
 * under tests (they call runDueJobs and move the clock themselves).
 */
const WORKER_INTERVAL_MS = 5_000;
const HOUSEKEEPING_EVERY_MS = 3600_000;
const SWEEP_BATCH = 20;
const SWEEP_CONCURRENCY = 4;
const workerEnabled = env.NODE_ENV !== "test";

let running: Promise<unknown> | null = null;
let again = false;
let lastHousekeeping = 0;
let housekeeping: (() => Promise<unknown>)[] = [];

function sweep() {
  if (running) {
    again = true;
    return;
  }
  const chores = Date.now() - lastHousekeeping > HOUSEKEEPING_EVERY_MS ? housekeeping : [];
  if (chores.length) lastHousekeeping = Date.now();
  running = Promise.all([runDueJobs(SWEEP_BATCH, SWEEP_CONCURRENCY), ...chores.map((chore) => chore())])
    // A full batch means more may be due: the next sweep follows at once instead of at the next tick.
    .then(([summary]) => void (summary.claimed >= SWEEP_BATCH && (again = true)))
    .catch((error) => log.error("job worker sweep failed", { error: String(error) }))
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
  if (workerEnabled) setImmediate(sweep);
}

declare global {
  var __codJobWorker: NodeJS.Timeout | undefined;
}

export function startJobWorker(options: { housekeeping?: (() => Promise<unknown>)[] } = {}) {
  housekeeping = options.housekeeping ?? [];
  if (!workerEnabled || globalThis.__codJobWorker) return;
  globalThis.__codJobWorker = setInterval(sweep, WORKER_INTERVAL_MS);
  globalThis.__codJobWorker.unref();
}
