import { query, sql, toDate } from "~/core/db/sql.server";
import { postalArea } from "~/risk/score";
import { addDays, shopDay } from "~/shared/shop-day";
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

/** The Monday of a date's week in the shop's time zone, as YYYY-MM-DD. */
export function weekOf(date: Date, timezone: string | null): string {
  const day = shopDay(date, timezone);
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
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
function keysOf(r: OrderRow, placedAt: Date, timezone: string | null): Record<Dimension, string[]> {
  const code = r.postalCode ?? r.outcomePostal;
  const products = productsOf(r.products);
  return {
    postalCode: [code ?? "(none)"],
    area: [postalArea(code) ?? "(none)"],
    product: products.length ? products : ["(none)"],
    mode: [r.mode ?? "(not chosen in the app)"],
    riskBand: [r.riskBand ?? "(not scored)"],
    source: [r.trafficSource ?? "(unknown)"],
    week: [weekOf(placedAt, timezone)],
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
  for (const r of rows.slice(0, limit)) {
    const delivered = r.outcome === "delivered" ? 1 : 0;
    const failed = r.outcome === "failed" ? 1 : 0;
    span.total[0] += 1;
    span.total[1] += delivered;
    span.total[2] += failed;
    const keys = keysOf(r, toDate(r.placedAt), shop.timezone);
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
