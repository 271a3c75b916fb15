import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/**
 * SQLite in WAL mode copies the log back into the database file (a checkpoint, with an fsync) every
 * 1,000 pages by default, inside whichever commit crosses the mark: on the event loop, in the middle
 * of a request. Here a worker thread with its own connection runs a PASSIVE checkpoint every
 * CHECKPOINT_INTERVAL_MS instead, on the other core, never blocking the app's writers (PASSIVE takes
 * no lock a writer waits on). The app's connection keeps an automatic checkpoint at a higher mark
 * (AUTOCHECKPOINT_PAGES) in case the worker falls behind. The worker never keeps the process alive.
 */
export const CHECKPOINT_INTERVAL_MS = 250;
export const AUTOCHECKPOINT_PAGES = 10_000;

const WORKER_SOURCE = `
const { workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma("busy_timeout = 100");
setInterval(() => {
  try { db.pragma("wal_checkpoint(PASSIVE)"); } catch { /* busy or gone: the next round tries again */ }
}, workerData.intervalMs);
`;

let started: Worker | null = null;

export function startCheckpointWorker(file: string): void {
  if (started) return;
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  started = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, intervalMs: CHECKPOINT_INTERVAL_MS } });
  started.on("error", () => {
    // Checkpoints fall back to the app's own connection (wal_autocheckpoint).
    started = null;
  });
  started.unref();
}
