// Applies the committed migrations (prisma/migrations for SQLite, prisma/postgresql/migrations
// for PostgreSQL) and records them in Prisma's own `_prisma_migrations` table, with Prisma's
// checksum, so `prisma migrate status`/`deploy` with the classic engine sees the same history.
// Prisma 6.19's offline (WebAssembly) schema engine cannot migrate PostgreSQL through a driver
// adapter, which is why this small applier exists; it is used for both engines so they behave alike.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const prismaDir = path.dirname(fileURLToPath(import.meta.url));
const DEFAULT_SQLITE = `file:${path.join(prismaDir, "..", "data", "app.db")}`;

/** DATABASE_URL unset or `file:` → SQLite; `postgres://`/`postgresql://` → PostgreSQL. */
export function resolveDatabaseUrl(raw) {
  const url = raw && raw.trim() ? raw.trim() : DEFAULT_SQLITE;
  if (url.startsWith("file:") || /^postgres(ql)?:\/\//.test(url)) return url;
  throw new Error(`DATABASE_URL must start with file: or postgres(ql)://, got "${url.split(":")[0]}:..."`);
}

export function providerOf(url) {
  return url.startsWith("file:") ? "sqlite" : "postgresql";
}

/** The file path of a `file:` URL, relative paths taken from the project root. */
export function sqlitePath(url) {
  const p = url.slice("file:".length).split("?")[0];
  return path.isAbsolute(p) ? p : path.resolve(prismaDir, "..", p);
}

// The project root: one level above this file, and above the server build that bundles it.
const rootDir = path.resolve(prismaDir, "..");

function migrationsOf(provider) {
  const dir =
    provider === "sqlite" ? path.join(rootDir, "prisma", "migrations") : path.join(rootDir, "prisma", "postgresql", "migrations");
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((n) => fs.existsSync(path.join(dir, n, "migration.sql")))
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: crypto.createHash("sha256").update(sql).digest("hex") };
    });
}

const SQLITE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" TEXT PRIMARY KEY NOT NULL, "checksum" TEXT NOT NULL, "finished_at" DATETIME,
  "migration_name" TEXT NOT NULL, "logs" TEXT, "rolled_back_at" DATETIME,
  "started_at" DATETIME NOT NULL DEFAULT current_timestamp, "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0)`;
const PG_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL, "checksum" VARCHAR(64) NOT NULL, "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL, "logs" TEXT, "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`;

function checkHistory(done, all) {
  for (const row of done) {
    const m = all.find((x) => x.name === row.migration_name);
    if (m && m.checksum !== row.checksum) {
      throw new Error(`migration ${m.name} was edited after it was applied (checksum differs)`);
    }
  }
}

/** The names of the committed migrations for an engine, in order. */
export function expectedMigrationNames(provider) {
  return migrationsOf(provider).map((m) => m.name);
}

/**
 * The committed migrations the database has not applied (all of them for a database never migrated
 * or a SQLite file that does not exist). Reads only; throws when the database cannot be reached.
 */
export async function pendingMigrations(rawUrl) {
  const url = resolveDatabaseUrl(rawUrl);
  const provider = providerOf(url);
  const expected = expectedMigrationNames(provider);
  const query = `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
  let done = [];
  if (provider === "sqlite") {
    const file = sqlitePath(url);
    if (!fs.existsSync(file)) return expected;
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const table = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'`).get();
      if (table) done = db.prepare(query).all();
    } finally {
      db.close();
    }
  } else {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS present`);
      if (rows[0].present) done = (await client.query(query)).rows;
    } finally {
      await client.end();
    }
  }
  const applied = new Set(done.map((d) => d.migration_name));
  return expected.filter((name) => !applied.has(name));
}

/** Applies pending migrations; returns the names applied. Safe to run from several instances at once. */
export async function applyMigrations(rawUrl) {
  const url = resolveDatabaseUrl(rawUrl);
  const provider = providerOf(url);
  const all = migrationsOf(provider);
  const applied = [];
  if (provider === "sqlite") {
    const { default: Database } = await import("better-sqlite3");
    const file = sqlitePath(url);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const db = new Database(file);
    try {
      db.pragma("journal_mode = WAL");
      db.pragma("busy_timeout = 5000");
      db.exec(SQLITE_TABLE);
      const done = db.prepare(`SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`).all();
      checkHistory(done, all);
      for (const m of all) {
        if (done.some((d) => d.migration_name === m.name)) continue;
        db.transaction(() => {
          db.exec(m.sql);
          db.prepare(
            `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES (?, ?, current_timestamp, ?, 1)`,
          ).run(crypto.randomUUID(), m.checksum, m.name);
        }).immediate();
        applied.push(m.name);
      }
    } finally {
      db.close();
    }
    return applied;
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // One migrator at a time across app instances.
    await client.query("SELECT pg_advisory_lock(727073690)");
    await client.query(PG_TABLE);
    const { rows: done } = await client.query(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    checkHistory(done, all);
    for (const m of all) {
      if (done.some((d) => d.migration_name === m.name)) continue;
      await client.query("BEGIN");
      try {
        await client.query(m.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, now(), $3, 1)`,
          [crypto.randomUUID(), m.checksum, m.name],
        );
        await client.query("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${m.name} failed: ${err.message}`);
      }
      applied.push(m.name);
    }
    await client.query("SELECT pg_advisory_unlock(727073690)");
  } finally {
    await client.end();
  }
  return applied;
}
