import { execute, query, sql, type Sql } from "~/core/db/sql.server";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import { type Metric } from "~/shared/daily-metrics";
import { shopDay, type ShopZone } from "~/shared/shop-day";

/**
 * Counts one event in the daily rollup: one atomic upsert (the same statement on SQLite and
 * PostgreSQL), made by the code path that caused the event, right after it. A counter must never undo
 * the event it counts (a code already sent, an order already tagged): a failure is logged, not thrown.
 */
export async function countEvent(shop: ShopZone, metric: Metric, dimension = "", at: Date = clock.now()): Promise<void> {
  try {
    await execute(countEventStatement(shop, metric, dimension, at));
  } catch (error) {
    log.warn("stats: an event was not counted", { shopId: shop.id, metric, dimension, error: String(error) });
  }
}

/**
 * `countEvent`'s statement, for a caller that writes it with its own (one round trip). `source` replaces
 * `VALUES (...)` with `SELECT ... <source>` (a PostgreSQL CTE's earlier step); it returns the day's `count`.
 * The day is the shop's, in its time zone (app/shared/shop-day.ts).
 */
export function countEventStatement(shop: ShopZone, metric: Metric, dimension = "", at: Date = clock.now(), source?: Sql): Sql {
  const day = shopDay(at, shop.timezone);
  const row = source ? sql`SELECT ${shop.id}, ${metric}, ${day}, ${dimension}, 1 ${source}` : sql`VALUES (${shop.id}, ${metric}, ${day}, ${dimension}, 1)`;
  return sql`
      INSERT INTO "DailyStat" ("shopId", "metric", "day", "dimension", "count")
      ${row}
      ON CONFLICT ("shopId", "metric", "day", "dimension") DO UPDATE SET "count" = "DailyStat"."count" + 1
      RETURNING "count"`;
}

/** Takes back one `countEventStatement` counted at `at` (a code counted with its reservation that was never sent). */
export function uncountEventStatement(shop: ShopZone, metric: Metric, dimension: string, at: Date): Sql {
  return sql`
      UPDATE "DailyStat" SET "count" = "count" - 1
      WHERE "shopId" = ${shop.id} AND "metric" = ${metric} AND "day" = ${shopDay(at, shop.timezone)} AND "dimension" = ${dimension} AND "count" > 0`;
}

/** A metric's total from `since` (YYYY-MM-DD, the shop's day) on: a sum over one row per day and dimension. */
export async function countSince(shopId: string, metric: Metric, since: string): Promise<number> {
  const rows = await query<{ n: unknown }>(sql`SELECT ${countSinceValue(shopId, metric, since)} AS "n"`);
  return Number(rows[0]?.n ?? 0);
}

/** `countSince` as a scalar subquery, for a caller that reads it with other things in one statement. */
export function countSinceValue(shopId: string, metric: Metric, since: string): Sql {
  return sql`(SELECT COALESCE(SUM("count"), 0) FROM "DailyStat" WHERE "shopId" = ${shopId} AND "metric" = ${metric} AND "day" >= ${since})`;
}
