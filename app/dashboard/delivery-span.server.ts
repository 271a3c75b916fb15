import { query, sql, toDate } from "~/core/db/sql.server";
import { postalArea } from "~/risk/score";
import { addDays, shopDay, shopDayStart } from "~/shared/shop-day";
import { DIMENSIONS, MAX_ORDERS, type Dimension } from "./delivery-analytics";

/**
 * Delivery analytics' tallies of one span of time (./delivery-analytics.server.ts adds the spans of a
 * period): the span's COD orders, each with what became of it, counted per dimension and key. A closed day's
 * are stored by the day rollup (./day-rollup.server.ts), the rest are read live.
 */
type OrderRow = {
  placedAt: unknown;
  mode: string | null;
  riskBand: string | null;
  trafficSource: string | null;
  postalCode: string | null;
  outcomePostal: string | null;
  products: string | null;
  outcome: string | null;
};

/** Orders, delivered, failed. */
export type Tally = [number, number, number];

export type DeliverySpan = {
  /** The span had more COD orders than the read took (MAX_ORDERS): only the newest were counted. */
  truncated: boolean;
  total: Tally;
  tallies: Record<Dimension, Record<string, Tally>>;
};

/** The Monday of a shop day's week, as YYYY-MM-DD. */
const mondayOf = (day: string) => addDays(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7));

/** The Monday of a date's week in the shop's time zone, as YYYY-MM-DD. */
export function weekOf(date: Date, timezone: string | null): string {
  return mondayOf(shopDay(date, timezone));
}

/**
 * weekOf for the instants from `earliest` to `latest`: the shop days between them are found once (their
 * midnights in the zone), and each instant's week is looked up among them, not worked out in the zone again
 * (a zone's reading is most of a row's cost when a day brings thousands of orders).
 */
export function weeksBetween(earliest: Date, latest: Date, timezone: string | null): (at: Date) => string {
  const starts: number[] = [];
  const weeks: string[] = [];
  for (let day = shopDay(earliest, timezone); ; day = addDays(day, 1)) {
    starts.push(shopDayStart(day, timezone).getTime());
    weeks.push(mondayOf(day));
    if (shopDayStart(addDays(day, 1), timezone).getTime() > latest.getTime()) break;
  }
  return (at) => {
    const t = at.getTime();
    if (t < starts[0]) return weekOf(at, timezone);
    // The last day that starts at or before `at`.
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= t) lo = mid;
      else hi = mid - 1;
    }
    return weeks[lo];
  };
}

function productsOf(raw: string | null): string[] {
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === "string" && p.length > 0) : [];
  } catch {
    return [];
  }
}

/** The keys an order counts under, per dimension (an order of two products counts under each). */
function keysOf(r: OrderRow, week: string): Record<Dimension, string[]> {
  const code = r.postalCode ?? r.outcomePostal;
  const products = productsOf(r.products);
  return {
    postalCode: [code ?? "(none)"],
    area: [postalArea(code) ?? "(none)"],
    product: products.length ? products : ["(none)"],
    mode: [r.mode ?? "(not chosen in the app)"],
    riskBand: [r.riskBand ?? "(not scored)"],
    source: [r.trafficSource ?? "(unknown)"],
    week: [week],
  };
}

/** The span's COD orders (to now when `to` is null), the newest first, at most `limit`. */
export async function deliverySpan(shop: { id: string; timezone: string | null }, from: Date, to: Date | null, limit = MAX_ORDERS): Promise<DeliverySpan> {
  const rows = await query<OrderRow>(sql`
    SELECT r."placedAt", r."mode", r."riskBand", r."trafficSource", r."postalCode", r."products", o."outcome", o."postalCode" AS "outcomePostal"
    FROM "OrderRecord" r
    LEFT JOIN "OrderOutcome" o ON o."shopId" = r."shopId" AND o."orderGid" = r."orderGid"
    WHERE r."shopId" = ${shop.id} AND r."cod" = ${true} AND r."prepaidAt" IS NULL AND r."placedAt" >= ${from}${to ? sql` AND r."placedAt" < ${to}` : sql``}
    ORDER BY r."placedAt" DESC
    LIMIT ${limit + 1}`);
  const span = emptyDeliverySpan();
  span.truncated = rows.length > limit;
  const counted = rows.slice(0, limit);
  // Newest first: the last row counted is the earliest. The days' midnights are found once where the orders
  // outnumber the days (a dozen zone readings a day), else each order's day is read.
  const earliest = counted.length ? toDate(counted.at(-1)!.placedAt) : null;
  const latest = counted.length ? toDate(counted[0].placedAt) : null;
  const weekAt =
    earliest && latest && counted.length > 12 * (2 + (latest.getTime() - earliest.getTime()) / 86_400_000)
      ? weeksBetween(earliest, latest, shop.timezone)
      : (at: Date) => weekOf(at, shop.timezone);
  for (const r of counted) {
    const delivered = r.outcome === "delivered" ? 1 : 0;
    const failed = r.outcome === "failed" ? 1 : 0;
    span.total[0] += 1;
    span.total[1] += delivered;
    span.total[2] += failed;
    const keys = keysOf(r, weekAt(toDate(r.placedAt)));
    for (const d of DIMENSIONS) {
      for (const key of keys[d]) {
        const t = (span.tallies[d][key] ??= [0, 0, 0]);
        t[0] += 1;
        t[1] += delivered;
        t[2] += failed;
      }
    }
  }
  return span;
}

export function emptyDeliverySpan(): DeliverySpan {
  return { truncated: false, total: [0, 0, 0], tallies: Object.fromEntries(DIMENSIONS.map((d) => [d, {}])) as Record<Dimension, Record<string, Tally>> };
}

/** `b` added into `a` (which is changed and returned). */
export function addDeliverySpan(a: DeliverySpan, b: DeliverySpan): DeliverySpan {
  a.truncated ||= b.truncated;
  for (let i = 0; i < 3; i++) a.total[i] += b.total[i];
  for (const d of DIMENSIONS) {
    for (const [key, t] of Object.entries(b.tallies[d])) {
      const into = (a.tallies[d][key] ??= [0, 0, 0]);
      for (let i = 0; i < 3; i++) into[i] += t[i];
    }
  }
  return a;
}

/** Spans added up (a report's period), a dimension's keys in a Map. */
export type DeliveryTotals = { truncated: boolean; total: Tally; tallies: Record<Dimension, Map<string, Tally>> };

/**
 * The spans added up into Maps, the spans left as they were: what addDeliverySpan does over a period's
 * stored days and months, without writing into plain objects, whose integer-like keys (postal codes) make
 * every lookup slow; a period of 40 stored rows of 1,400 codes each was 50 ms that way.
 */
export function sumDeliverySpans(spans: readonly DeliverySpan[]): DeliveryTotals {
  const sum: DeliveryTotals = { truncated: false, total: [0, 0, 0], tallies: Object.fromEntries(DIMENSIONS.map((d) => [d, new Map<string, Tally>()])) as Record<Dimension, Map<string, Tally>> };
  for (const span of spans) {
    sum.truncated ||= span.truncated;
    for (let i = 0; i < 3; i++) sum.total[i] += span.total[i];
    for (const d of DIMENSIONS) {
      const into = sum.tallies[d];
      const tallies = span.tallies[d];
      for (const key in tallies) {
        const t = tallies[key];
        const had = into.get(key);
        if (had) for (let i = 0; i < 3; i++) had[i] += t[i];
        else into.set(key, [t[0], t[1], t[2]]);
      }
    }
  }
  return sum;
}
