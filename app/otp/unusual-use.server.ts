import { query, sql } from "~/core/db/sql.server";
import { clock } from "~/core/utils/clock.server";
import { shopDay, type ShopZone } from "~/shared/shop-day";
import { UNKNOWN_PLACE } from "./send-limits.server";

/**
 * Where unusual use of the shop's codes comes from, for the admin on every plan (Home): the networks and
 * blocks of numbers that asked for the most codes in the last 24 hours, the day's refusals by place
 * (DailyStat otp_refused) and whether the daily cap was reached. Read from the counters send-otp keeps.
 */

/** A place worth showing: it asked for at least this many codes in 24 hours. */
export const UNUSUAL_CODES = 5;
const SHOWN = 5;

export type UnusualPlace = { kind: "network" | "block"; place: string; codes: number };

export type UnusualUse = {
  places: UnusualPlace[];
  /** Codes asked with no usable client IP (one place, held to an IP's share). */
  withoutIp: number;
  /** The day's refusals by the place whose share ran out (phone, ip, network, block, spike, cap, ...). */
  refusedToday: Record<string, number>;
  /** Shoppers today who met the spent daily cap (given the fallback, or refused when it is prepaid only). */
  capReachedToday: number;
  /** The drain watch slowed networks today. */
  drainSeenToday: boolean;
};

export async function unusualUse(shop: ShopZone, now: Date = clock.now()): Promise<UnusualUse> {
  const shopId = shop.id;
  const since = now.getTime() - 86_400_000;
  const [counters, refusals] = await Promise.all([
    query<{ key: string; count: unknown }>(sql`
      SELECT "key", "count" FROM "RateCounter"
      WHERE ("key" LIKE ${`otp-net:${shopId}:%`} OR "key" LIKE ${`otp-block:${shopId}:%`}) AND "windowStart" > ${since} AND "count" >= ${UNUSUAL_CODES}
      ORDER BY "count" DESC LIMIT 200`),
    query<{ dimension: string; count: unknown }>(sql`
      SELECT "dimension", "count" FROM "DailyStat" WHERE "shopId" = ${shopId} AND "metric" = 'otp_refused' AND "day" = ${shopDay(now, shop.timezone)}`),
  ]);
  const networks = new Map<string, number>();
  const blocks = new Map<string, number>();
  for (const row of counters) {
    const [prefix, , place] = row.key.split(":");
    const count = Number(row.count);
    // otp-net:<shop>:<network>; otp-block:<shop>:<block>:<network> (a block's codes summed over its networks).
    if (prefix === "otp-net") networks.set(row.key.slice(`otp-net:${shopId}:`.length), count);
    else if (place) blocks.set(place, (blocks.get(place) ?? 0) + count);
  }
  const withoutIp = networks.get(UNKNOWN_PLACE) ?? 0;
  networks.delete(UNKNOWN_PLACE);
  const top = (kind: UnusualPlace["kind"], m: Map<string, number>) =>
    [...m.entries()]
      .sort((x, y) => y[1] - x[1])
      .slice(0, SHOWN)
      .map(([place, codes]) => ({ kind, place: kind === "block" ? `${place}xxx` : place, codes }));
  const refusedToday = Object.fromEntries(refusals.map((r) => [r.dimension, Number(r.count)]));
  return {
    places: [...top("network", networks), ...top("block", blocks)].filter((p) => p.codes >= UNUSUAL_CODES),
    withoutIp,
    refusedToday,
    capReachedToday: (refusedToday.cap ?? 0) + (refusedToday.cap_fallback ?? 0),
    drainSeenToday: (refusedToday.spike ?? 0) > 0,
  };
}
