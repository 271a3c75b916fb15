import { prisma } from "~/core/db.server";
import { execute, query, sql, type Sql } from "~/core/db/sql.server";
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

/** Deletes counters whose window is over; returns how many. */
export async function purgeExpiredRateCounters(): Promise<number> {
  return prisma.$executeRaw`DELETE FROM "RateCounter" WHERE "expiresAt" < ${clock.now().getTime()}`;
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
