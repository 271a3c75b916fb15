import { query, sql } from "~/core/db/sql.server";
import { clock } from "~/core/utils/clock.server";
import { PACE_DAYS } from "~/experiment/experiment.server";
import { paceWindowStart } from "~/experiment/period";
import type { ShopZone } from "~/shared/shop-day";
import { rolledUp } from "./day-rollup.server";

/** The shop's COD orders placed from `from` (to `to`, else to now), counted from the rows: an index range. */
async function codOrdersOfSpan(shop: ShopZone, from: Date, to: Date | null): Promise<number> {
  const [row] = await query<{ n: unknown }>(sql`
    SELECT COUNT(*) AS "n" FROM "OrderRecord" WHERE "shopId" = ${shop.id} AND "cod" = ${true} AND "placedAt" >= ${from}${to ? sql` AND "placedAt" < ${to}` : sql``}`);
  return Number(row?.n ?? 0);
}

/**
 * The store's COD orders placed in its last PACE_DAYS days, today the last (the experiment card's pace): the
 * closed days from Home's day rollup (its orders counted by status, mode and COD), the rest from the rows.
 */
export async function codOrdersLately(shop: ShopZone, now: Date = clock.now()): Promise<number> {
  const spans = await rolledUp(shop, "home", paceWindowStart(now, PACE_DAYS, shop.timezone), now, {
    span: codOrdersOfSpan,
    stored: (home) => home.orders.reduce((n, o) => n + (o.cod ? o.n : 0), 0),
  });
  return spans.reduce((a, b) => a + b, 0);
}
