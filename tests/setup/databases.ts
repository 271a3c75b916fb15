import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { applyMigrations } from "../../prisma/migrate.mjs";

/**
 * Test databases: one per vitest worker, made from a migrated template once per run, removed at
 * the end. SQLite files live in data/test-<pid>/; PostgreSQL databases are named cod_t<pid>_*.
 */
export const ROOT = path.resolve(__dirname, "..", "..");
export const WORKERS = 2;
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

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

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function createPostgresDatabases(runId: string, workers = WORKERS) {
  await admin(async (c) => {
    // Databases left by runs that died (their process is gone) are dropped here.
    const { rows } = await c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'cod\\_t%'`);
    for (const { datname } of rows) {
      const pid = Number(/^cod_t(\d+)_/.exec(datname)?.[1]);
      if (pid && !isAlive(pid)) await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
    await c.query(`CREATE DATABASE "cod_t${runId}_tpl"`);
  });
  await applyMigrations(pgUrlFor(`cod_t${runId}_tpl`));
  await admin(async (c) => {
    for (let w = 1; w <= workers; w++) await c.query(`CREATE DATABASE "cod_t${runId}_w${w}" TEMPLATE "cod_t${runId}_tpl"`);
  });
}

export async function removePostgresDatabases(runId: string) {
  await admin(async (c) => {
    const { rows } = await c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`cod_t${runId}_%`]);
    for (const { datname } of rows) await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  });
}

/** A fresh database (extra to the per-worker ones) for tests that need their own, e.g. two app instances. */
export async function createScratchPostgresDatabase(runId: string, name: string) {
  const db = `cod_t${runId}_${name}`;
  await admin((c) => c.query(`CREATE DATABASE "${db}" TEMPLATE "cod_t${runId}_tpl"`));
  return pgUrlFor(db);
}
