import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { applyMigrations } from "../../prisma/migrate.mjs";

/**
 * Test databases: one per vitest worker, made from a migrated template once per run, removed at
 * the end. SQLite files live in data/test-<run>/; PostgreSQL databases are named cod_t<run>_*, where
 * <run> is unique to the run (not a process id: a PostgreSQL shared by several machines sees other
 * runs' databases, whose process ids mean nothing here). A run only ever drops its own databases.
 */
export const ROOT = path.resolve(__dirname, "..", "..");
export const WORKERS = 2;
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL || "postgresql://postgres@127.0.0.1:5432/postgres";

/** A run id unique across machines and runs: lowercase letters and digits, safe in database names. */
export function newRunId(): string {
  return `${Date.now().toString(36)}${crypto.randomBytes(6).toString("hex")}`;
}

/** Where the workers of a run write the operation names they sent to the fake Shopify. */
export function operationsRunDir(runId: string) {
  return path.join(ROOT, "data", `shopify-operations-${runId}`);
}

export function sqliteRunDir(runId: string) {
  return path.join(ROOT, "data", `test-${runId}`);
}

export function workerDatabaseUrl(kind: "sqlite" | "postgres", runId: string, worker: number | string) {
  if (kind === "sqlite") return `file:${path.join(sqliteRunDir(runId), `worker-${worker}.db`)}`;
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/cod_t${runId}_w${worker}`;
  return url.toString();
}

function pgUrlFor(db: string) {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${db}`;
  return url.toString();
}

export async function createSqliteDatabases(runId: string) {
  const dir = sqliteRunDir(runId);
  fs.mkdirSync(dir, { recursive: true });
  const template = path.join(dir, "template.db");
  await applyMigrations(`file:${template}`);
  for (let w = 1; w <= WORKERS; w++) fs.copyFileSync(template, path.join(dir, `worker-${w}.db`));
}

export function removeSqliteDatabases(runId: string) {
  fs.rmSync(sqliteRunDir(runId), { recursive: true, force: true });
}

/** Runs `fn` on a client of the PostgreSQL server's admin database, closed after. */
export async function withPostgresAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function createPostgresDatabases(runId: string, workers = WORKERS) {
  await withPostgresAdmin((c) => c.query(`CREATE DATABASE "cod_t${runId}_tpl"`));
  await applyMigrations(pgUrlFor(`cod_t${runId}_tpl`));
  await withPostgresAdmin(async (c) => {
    for (let w = 1; w <= workers; w++) await c.query(`CREATE DATABASE "cod_t${runId}_w${w}" TEMPLATE "cod_t${runId}_tpl"`);
  });
}

export async function removePostgresDatabases(runId: string) {
  await withPostgresAdmin(async (c) => {
    // `_` is a LIKE wildcard: escaped, so run "ab" never matches another run's "abc_..." databases.
    const { rows } = await c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`cod\\_t${runId}\\_%`]);
    for (const { datname } of rows) await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  });
}

/** A fresh database (extra to the per-worker ones) for tests that need their own, e.g. two app instances. */
export async function createScratchPostgresDatabase(runId: string, name: string) {
  const db = `cod_t${runId}_${name}`;
  await withPostgresAdmin((c) => c.query(`CREATE DATABASE "${db}" TEMPLATE "cod_t${runId}_tpl"`));
  return pgUrlFor(db);
}
