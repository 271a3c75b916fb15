import { createRequire } from "node:module";
import type { PrismaClient as GeneratedClient } from "../prisma/generated/sqlite/index.js";
import { env } from "~/env.server";
import { expectedMigrationNames, providerOf, resolveDatabaseUrl, sqlitePath } from "../prisma/migrate.mjs";

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

function createClient(): PrismaClient {
  const root = new URL("..", import.meta.url).pathname;
  if (databaseProvider === "sqlite") {
    const { PrismaBetterSQLite3 } = requireFromHere("@prisma/adapter-better-sqlite3");
    const { PrismaClient } = requireFromHere(`${root}prisma/generated/sqlite/index.js`);
    const adapter = new PrismaBetterSQLite3({ url: `file:${sqlitePath(databaseUrl)}` }, { timestampFormat: "unixepoch-ms" });
    return instrument(new PrismaClient({ adapter, ...logQueries }));
  }
  const { PrismaPg } = requireFromHere("@prisma/adapter-pg");
  const { PrismaClient } = requireFromHere(`${root}prisma/generated/postgresql/index.js`);
  // Bounded waits, so a database that stops answering turns into a 503 within seconds instead of
  // requests queueing forever: a connection attempt gives up after 5 s, a query after 10 s, and a
  // request waiting for a free pooled connection gives up with the connection timeout too.
  const adapter = new PrismaPg({
    connectionString: databaseUrl,
    max: 10,
    connectionTimeoutMillis: 5_000,
    query_timeout: 10_000,
    keepAlive: true,
  });
  return instrument(new PrismaClient({ adapter, ...logQueries }) as PrismaClient);
}

declare global {
  var __codPrisma: PrismaClient | undefined;
}

/** Kept on globalThis so development reloads reuse one client (and one connection pool). */
export const prisma: PrismaClient = globalThis.__codPrisma ?? (globalThis.__codPrisma = createClient());

let pragmasApplied: Promise<void> | null = null;

/** SQLite: WAL so readers never wait on the writer, and a busy timeout so writers queue instead of failing. */
export function prepareDatabase(): Promise<void> {
  if (databaseProvider !== "sqlite") return Promise.resolve();
  pragmasApplied ??= (async () => {
    await prisma.$queryRawUnsafe("PRAGMA journal_mode = WAL");
    await prisma.$queryRawUnsafe("PRAGMA busy_timeout = 5000");
    await prisma.$queryRawUnsafe("PRAGMA synchronous = NORMAL");
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
