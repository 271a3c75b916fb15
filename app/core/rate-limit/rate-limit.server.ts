import { databaseProvider, prisma } from "~/core/db.server";
import { execute, joinSql, query, sql, type Sql } from "~/core/db/sql.server";
import { clock } from "~/core/utils/clock.server";

export type RateLimitResult = {
  /** True when this hit is within the limit. */
  allowed: boolean;
  /** Hits counted in the current window, this one included. */
  count: number;
  limit: number;
  /** Seconds until the window resets (at least 1 when denied). */
  retryAfterSeconds: number;
  windowStart: number;
};

/**
 * The statement that counts one hit against `key` in a fixed window of `windowSeconds` (one atomic
 * upsert, valid on SQLite and PostgreSQL), returning the row's `count` and `windowStart`. `source`
 * replaces `VALUES (...)` with `SELECT ... <source>` (e.g. `FROM earlier WHERE ...` in a PostgreSQL
 * CTE), so a hit can depend on an earlier step of the same statement.
 */
export function rateLimitHit(key: string, windowSeconds: number, now: number, source?: Sql): Sql {
  const windowMs = windowSeconds * 1000;
  const staleBefore = now - windowMs;
  const expiresAt = now + windowMs;
  const row = source ? sql`SELECT ${key}, ${now}, 1, ${expiresAt} ${source}` : sql`VALUES (${key}, ${now}, 1, ${expiresAt})`;
  return sql`
    INSERT INTO "RateCounter" ("key", "windowStart", "count", "expiresAt")
    ${row}
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN "RateCounter"."windowStart" <= ${staleBefore} THEN 1 ELSE "RateCounter"."count" + 1 END,
      "windowStart" = CASE WHEN "RateCounter"."windowStart" <= ${staleBefore} THEN ${now} ELSE "RateCounter"."windowStart" END,
      "expiresAt" = CASE WHEN "RateCounter"."windowStart" <= ${staleBefore} THEN ${expiresAt} ELSE "RateCounter"."expiresAt" END
    RETURNING "count", "windowStart"`;
}

/**
 * The statement that counts one hit against each of several keys at once (one multi-row upsert), each in
 * its own fixed window, returning every row's `key`, `count` and `windowStart`. `rows` yields
 * `(key, windowStart = now, 1, expiresAt = now + window)` per key: a `VALUES` list, or a `SELECT` that
 * also decides which keys are counted (a PostgreSQL CTE). A row's window is read back from what it
 * would insert (`expiresAt - windowStart`), so one statement serves keys with different windows. Each
 * row is one atomic upsert as in `rateLimitHit`: exact under any concurrency. Give the keys in key order
 * (PostgreSQL locks the rows in the order it meets them; `rateLimitReleases` locks in that order too).
 */
export function rateLimitHits(rows: Sql): Sql {
  const stale = sql`"RateCounter"."windowStart" <= 2 * excluded."windowStart" - excluded."expiresAt"`;
  return sql`
    INSERT INTO "RateCounter" ("key", "windowStart", "count", "expiresAt")
    ${rows}
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN ${stale} THEN 1 ELSE "RateCounter"."count" + 1 END,
      "windowStart" = CASE WHEN ${stale} THEN excluded."windowStart" ELSE "RateCounter"."windowStart" END,
      "expiresAt" = CASE WHEN ${stale} THEN excluded."expiresAt" ELSE "RateCounter"."expiresAt" END
    RETURNING "key", "count", "windowStart"`;
}

/** `rateLimitHits`' rows as a plain `VALUES` list: every key counted. */
export function rateLimitRows(counters: readonly { key: string; windowSeconds: number }[], now: number): Sql {
  return sql`VALUES ${joinSql(
    counters.map((c) => sql`(${c.key}, ${now}, 1, ${now + c.windowSeconds * 1000})`),
    ", ",
  )}`;
}

export type RateLimitRow = { count: number | bigint | string; windowStart: number | bigint | string };

/** What a hit's returned row means against `limit`. */
export function rateLimitResult(row: RateLimitRow, limit: number, windowSeconds: number, now: number): RateLimitResult {
  const count = Number(row.count);
  const windowStart = Number(row.windowStart);
  const resetsAt = windowStart + windowSeconds * 1000;
  return {
    allowed: count <= limit,
    count,
    limit,
    retryAfterSeconds: Math.max(1, Math.ceil((resetsAt - now) / 1000)),
    windowStart,
  };
}

/**
 * Counts one hit against `key` in a fixed window of `windowSeconds` and says whether it is within
 * `limit`. One atomic statement (valid on SQLite and PostgreSQL): concurrent hits from any number of
 * app instances are each counted exactly once, so exactly `limit` of them are allowed per window.
 */
export async function hitRateLimit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
  const now = clock.now().getTime();
  const rows = await query<RateLimitRow>(rateLimitHit(key, windowSeconds, now));
  return rateLimitResult(rows[0], limit, windowSeconds, now);
}

/** Takes back one hit of the window it was counted in (e.g. the SMS provider was down). */
export async function releaseRateLimit(key: string, hit: Pick<RateLimitResult, "windowStart">): Promise<void> {
  await execute(rateLimitRelease(key, hit));
}

/**
 * The statement that takes back one hit of each of several counters, in the windows they were counted in
 * (one round trip). PostgreSQL locks the rows in key order first, the order `rateLimitHits` callers count
 * them in, so a give-back never waits in a circle with a request counting the same keys.
 */
export function rateLimitReleases(hits: readonly { key: string; hit: Pick<RateLimitResult, "windowStart"> }[]): Sql {
  const which = joinSql(
    hits.map((h) => sql`("key" = ${h.key} AND "windowStart" = ${h.hit.windowStart})`),
    " OR ",
  );
  if (databaseProvider === "sqlite") return sql`UPDATE "RateCounter" SET "count" = "count" - 1 WHERE "count" > 0 AND (${which})`;
  // A plain UPDATE (no WITH of its own), so it can be a step of a larger statement (executeTogether).
  return sql`
    UPDATE "RateCounter" SET "count" = "RateCounter"."count" - 1
    FROM (SELECT "key" FROM "RateCounter" WHERE "count" > 0 AND (${which}) ORDER BY "key" FOR UPDATE) AS "locked"
    WHERE "RateCounter"."key" = "locked"."key" AND "RateCounter"."count" > 0`;
}

/** The statement that takes back one hit (`releaseRateLimit`). */
export function rateLimitRelease(key: string, hit: Pick<RateLimitResult, "windowStart">): Sql {
  return sql`
    UPDATE "RateCounter" SET "count" = "count" - 1
    WHERE "key" = ${key} AND "windowStart" = ${hit.windowStart} AND "count" > 0`;
}

/** Reads a counter without counting: hits in the current window (0 when none or expired). */
export async function peekRateLimit(key: string, windowSeconds: number): Promise<number> {
  // A direct statement: orders/create reads counters (the risk score) and must run no Prisma query before it answers.
  const rows = await query<{ count: number | bigint }>(sql`SELECT ${rateLimitPeek(key, windowSeconds, clock.now().getTime())} AS "count"`);
  return Number(rows[0]?.count ?? 0);
}

/** A scalar subquery: the hits counted against `key` in its current window (0 when none or expired). */
export function rateLimitPeek(key: string, windowSeconds: number, now: number): Sql {
  return sql`COALESCE((SELECT "count" FROM "RateCounter" WHERE "key" = ${key} AND "windowStart" > ${now - windowSeconds * 1000}), 0)`;
}

/** Rows of RateCounter one purge statement reads on SQLite. */
const PURGE_CHUNK = 5_000;

/**
 * Deletes counters whose window is over; returns how many. The table has no index on `expiresAt` (a send
 * counts ten counters and each would write one), so the purge reads it: on PostgreSQL in one statement (it
 * locks only the rows it deletes); on SQLite, where a statement holds the one write lock while it reads, one
 * range of rowids at a time, the event loop turning between them (a counter's rowid only grows, so the oldest,
 * most of what is expired, come first).
 */
export async function purgeExpiredRateCounters(chunk = PURGE_CHUNK): Promise<number> {
  const now = clock.now().getTime();
  if (databaseProvider === "postgresql") return execute(sql`DELETE FROM "RateCounter" WHERE "expiresAt" < ${now}`);
  let deleted = 0;
  for (let after = 0; ; ) {
    const [range] = await query<{ last: number | bigint | null }>(
      sql`SELECT MAX("rowid") AS "last" FROM (SELECT "rowid" FROM "RateCounter" WHERE "rowid" > ${after} ORDER BY "rowid" LIMIT ${chunk})`,
    );
    if (range?.last == null) return deleted;
    deleted += await execute(sql`DELETE FROM "RateCounter" WHERE "rowid" > ${after} AND "rowid" <= ${range.last} AND "expiresAt" < ${now}`);
    after = Number(range.last);
  }
}

/**
 * Deletes every counter of a shop that names one of `subjects` (a phone, an order's GraphQL id):
 * counter keys are `<purpose>:<shopId>:<subject>` (otp-send, ac:phone, ac:order, ...), so a new
 * counter that follows that shape is redacted with the customer without being listed here.
 */
export async function deleteRateCountersNaming(shopId: string, subjects: string[]): Promise<number> {
  if (!subjects.length) return 0;
  const { count } = await prisma.rateCounter.deleteMany({ where: { OR: subjects.map((s) => ({ key: { endsWith: `:${shopId}:${s}` } })) } });
  return count;
}
