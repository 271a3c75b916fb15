import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { PrismaClient as GeneratedClient } from "../../prisma/generated/sqlite/index.js";
import { env } from "~/core/env.server";
import { expectedMigrationNames, providerOf, resolveDatabaseUrl, sqlitePath } from "../../prisma/migrate.mjs";

/**
 * One Prisma client per process, on the engine DATABASE_URL names:
 * unset or `file:` → SQLite through better-sqlite3 (WAL), `postgres(ql)://` → PostgreSQL through pg.
 * Both generated clients come from the same schema, so they share one type.
 *
 * The generated clients load their WebAssembly query compiler from their own folder at run time,
 * so they are required from disk (relative to this module: app/ in dev and tests, build/ in
 * production, both one level below the project root) rather than bundled.
 */
export type PrismaClient = GeneratedClient;

const requireFromHere = createRequire(import.meta.url);

/**
 * The folder holding package.json: this module runs from app/core/ under vitest and bundled in
 * build/index.js on the server, so the generated clients are found from there, not from a fixed depth.
 */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("db: no package.json above " + fileURLToPath(import.meta.url));
    dir = parent;
  }
  return dir + path.sep;
}

export const databaseUrl = resolveDatabaseUrl(env.DATABASE_URL);
export const databaseProvider = providerOf(databaseUrl) as "sqlite" | "postgresql";

// Tests count the queries a request makes (see `watchQueries`); production pays nothing for it.
const logQueries = env.NODE_ENV === "test" ? { log: [{ emit: "event" as const, level: "query" as const }] } : {};
const queryWatchers = new Set<(sql: string) => void>();

function instrument(client: PrismaClient): PrismaClient {
  if (logQueries.log) {
    (client as unknown as { $on: (e: "query", cb: (q: { query: string }) => void) => void }).$on("query", (q) => {
      for (const watch of queryWatchers) watch(q.query);
    });
  }
  return client;
}

/** Test aid: records the SQL of every query until `stop()`. Only active when NODE_ENV=test. */
export function watchQueries() {
  const seen: string[] = [];
  const watcher = (sql: string) => void seen.push(sql);
  queryWatchers.add(watcher);
  return { queries: seen, stop: () => void queryWatchers.delete(watcher) };
}

/**
 * SQLite in WAL mode copies the log back into the database file (a checkpoint, with an fsync) every
 * 1,000 pages by default, inside whichever commit crosses the mark: on the event loop, in the middle
 * of a request. Here a worker thread with its own connection runs a PASSIVE checkpoint every
 * CHECKPOINT_INTERVAL_MS instead, on the other core (PASSIVE takes no lock a writer waits on). The
 * app's connections keep an automatic checkpoint at a higher mark (AUTOCHECKPOINT_PAGES) in case the
 * worker falls behind. The worker never keeps the process alive. The disk still makes a commit that
 * lands during a checkpoint's fsync wait, for longer the more the checkpoint copies: under the
 * benchmark's load (2026-11, the shared 2-core machine) the slowest commits took 40–90 ms with a
 * checkpoint every second, 20–45 ms every 250 ms and 10–28 ms every 100 ms (without the worker:
 * 700–800 ms, the automatic checkpoint).
 */
const CHECKPOINT_INTERVAL_MS = 100;
const AUTOCHECKPOINT_PAGES = 10_000;

const WORKER_SOURCE = `
const { workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma("busy_timeout = 100");
setInterval(() => {
  try { db.pragma("wal_checkpoint(PASSIVE)"); } catch { /* busy or gone: the next round tries again */ }
}, workerData.intervalMs);
`;

let checkpointWorker: Worker | null = null;

function startCheckpointWorker(file: string): void {
  if (checkpointWorker) return;
  const driver = requireFromHere.resolve("better-sqlite3");
  checkpointWorker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, intervalMs: CHECKPOINT_INTERVAL_MS } });
  checkpointWorker.on("error", () => {
    // Checkpoints fall back to the app's own connection (wal_autocheckpoint).
    checkpointWorker = null;
  });
  checkpointWorker.unref();
}

/**
 * The connections the hot paths' direct statements run on (app/core/db/sql.server.ts), both opened by the
 * app itself through the drivers' public APIs, never taken from Prisma:
 *  - SQLite: a better-sqlite3 connection of its own, beside the one Prisma's adapter opens. It runs
 *    single statements that commit on their own, never holds a lock across an `await`, and does not
 *    wait inside SQLite (busy timeout 0): a statement that finds the write lock taken (a transaction
 *    open on Prisma's connection or in another process) is retried after a short pause, so it runs
 *    after that transaction ends and never inside it. See docs/decisions/direct-sql-hot-paths.md.
 *  - PostgreSQL: the pg pool the app creates and hands to Prisma's adapter (`new PrismaPg(pool)`, the
 *    adapter's documented form); every statement takes a pooled connection of its own.
 */
export type Driver =
  | { provider: "sqlite"; db: () => SqliteDatabase }
  | { provider: "postgresql"; pool: PgPool };

export type SqliteDatabase = import("better-sqlite3").Database;
type PgPool = import("pg").Pool;

function openSqliteConnection(file: string): () => SqliteDatabase {
  let connection: SqliteDatabase | null = null;
  return () => {
    if (connection?.open) return connection;
    const Database = requireFromHere("better-sqlite3") as typeof import("better-sqlite3");
    const db = new Database(file, { timeout: 0 });
    // As Prisma's adapter reads them: integers as bigint, so none loses precision.
    db.defaultSafeIntegers(true);
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    if (env.NODE_ENV !== "test") {
      db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
      // Tests open many short-lived databases; the server checkpoints its one on another thread.
      startCheckpointWorker(file);
    }
    connection = db;
    return db;
  };
}

function createClient(): { client: PrismaClient; driver: Driver } {
  const root = projectRoot();
  if (databaseProvider === "sqlite") {
    const { PrismaBetterSQLite3 } = requireFromHere("@prisma/adapter-better-sqlite3");
    const { PrismaClient } = requireFromHere(`${root}prisma/generated/sqlite/index.js`);
    const file = sqlitePath(databaseUrl);
    const adapter = new PrismaBetterSQLite3({ url: `file:${file}` }, { timestampFormat: "unixepoch-ms" });
    const client = instrument(new PrismaClient({ adapter, ...logQueries }));
    return { client, driver: { provider: "sqlite", db: openSqliteConnection(file) } };
  }
  const { PrismaPg } = requireFromHere("@prisma/adapter-pg");
  const { Pool } = requireFromHere("pg") as typeof import("pg");
  const { PrismaClient } = requireFromHere(`${root}prisma/generated/postgresql/index.js`);
  // Bounded waits, so a database that stops answering turns into a 503 within seconds instead of
  // requests queueing forever: a connection attempt (or a wait for a free pooled connection) gives
  // up after 5 s, a query after 10 s.
  const pool = new Pool({ connectionString: databaseUrl, max: 10, connectionTimeoutMillis: 5_000, query_timeout: 10_000, keepAlive: true });
  const adapter = new PrismaPg(pool);
  return { client: instrument(new PrismaClient({ adapter, ...logQueries }) as PrismaClient), driver: { provider: "postgresql", pool } };
}

declare global {
  var __codPrisma: { client: PrismaClient; driver: Driver } | undefined;
}

/** Kept on globalThis so development reloads reuse one client (and one connection pool). */
const shared = (globalThis.__codPrisma ??= createClient());
export const prisma: PrismaClient = shared.client;
export const driver: Driver = shared.driver;

let pragmasApplied: Promise<void> | null = null;

/** SQLite: WAL so readers never wait on the writer, and a busy timeout so writers queue instead of failing. */
export function prepareDatabase(): Promise<void> {
  if (databaseProvider !== "sqlite") return Promise.resolve();
  pragmasApplied ??= (async () => {
    await prisma.$queryRawUnsafe("PRAGMA journal_mode = WAL");
    await prisma.$queryRawUnsafe("PRAGMA busy_timeout = 5000");
    await prisma.$queryRawUnsafe("PRAGMA synchronous = NORMAL");
    if (env.NODE_ENV !== "test") await prisma.$queryRawUnsafe(`PRAGMA wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  })().catch((error) => {
    // Try again on the next request: a database that was briefly unusable must not stay so.
    pragmasApplied = null;
    throw error;
  });
  return pragmasApplied;
}

let schemaCurrent = false;

/**
 * True when the database has applied every committed migration (a database never migrated answers
 * queries but fails every route). Once true it stays true for the process: new migrations come with
 * a new release, which restarts it.
 */
export async function schemaIsCurrent(): Promise<boolean> {
  if (schemaCurrent) return true;
  try {
    const rows = await prisma.$queryRawUnsafe<{ migration_name: string }[]>(
      `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Set(rows.map((r) => r.migration_name));
    schemaCurrent = expectedMigrationNames(databaseProvider).every((name: string) => applied.has(name));
  } catch {
    return false;
  }
  return schemaCurrent;
}

/** True when the database answers a trivial query. */
export async function databaseIsUp(): Promise<boolean> {
  try {
    await prisma.$queryRawUnsafe("SELECT 1");
    return true;
  } catch {
    return false;
  }
}

/** The health check's question: the database answers and has every migration applied. */
export async function readyToServe(): Promise<boolean> {
  return (await databaseIsUp()) && (await schemaIsCurrent());
}
