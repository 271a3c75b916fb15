import type { Shop } from "~/core/settings/shop.server";
import { clock } from "~/core/utils/clock.server";
import { DIMENSIONS, MIN_DECIDED_FOR_RATE, MIN_DECIDED_FOR_WORST, WORST_CODES, type Dimension, type Row } from "./delivery-analytics";
import { rolledUp } from "./day-rollup.server";
import { sumDeliverySpans } from "./delivery-span.server";
import { lastShopDaysStart } from "~/shared/shop-day";

export { DIMENSIONS, PERIODS, type Dimension, type Row } from "./delivery-analytics";

/**
 * Delivery analytics (docs/analytics.md): where cash on delivery fails, from what the app already learns.
 * The COD orders the app recorded (orders/create) in a period, each with what became of it (OrderOutcome,
 * learnt from orders/fulfilled, orders/cancelled, orders/updated and carrier events): delivered, failed,
 * or still open. Broken down by postal code and its wider area, product, payment mode, risk band, traffic
 * source and week. A COD order moved to prepaid afterwards is no longer COD and is left out.
 */

export type DeliveryAnalytics = {
  days: number;
  since: string;
  currency: string | null;
  codFailureCost: number | null;
  /** The period had more COD orders than MAX_ORDERS: only the newest were read. */
  truncated: boolean;
  totals: Row;
  breakdowns: Record<Dimension, Row[]>;
  worstPostalCodes: Row[];
  /** What a "prepaid only" rule on the worst codes would have done over the period. */
  whatIf: { codes: string[]; failuresAvoided: number; ordersAskedToPay: number; deliveredAskedToPay: number; moneySaved: number | null } | null;
};

type Tally = { orders: number; delivered: number; failed: number };

function rowOf(key: string, t: Tally, cost: number | null): Row {
  const decided = t.delivered + t.failed;
  return {
    key,
    orders: t.orders,
    delivered: t.delivered,
    failed: t.failed,
    open: t.orders - decided,
    rate: decided >= MIN_DECIDED_FOR_RATE ? t.failed / decided : null,
    lost: cost == null ? null : t.failed * cost,
  };
}

export async function loadDeliveryAnalytics(shop: Pick<Shop, "id" | "currency" | "codFailureCost" | "timezone">, days: number, now = clock.now()): Promise<DeliveryAnalytics> {
  // The period is `days` whole days of the shop's, as every "last N days" (lastShopDaysStart): today and the
  // days - 1 before it, from the first one's midnight; its closed days from the day rollup, the rest from the orders.
  const since = lastShopDaysStart(now, days, shop.timezone);
  const span = sumDeliverySpans(await rolledUp(shop, "delivery", since, now));
  const truncated = span.truncated;
  const cost = shop.codFailureCost ?? null;
  const total: Tally = { orders: span.total[0], delivered: span.total[1], failed: span.total[2] };
  const tallies = Object.fromEntries(
    DIMENSIONS.map((d) => [d, new Map([...span.tallies[d]].map(([key, t]) => [key, { orders: t[0], delivered: t[1], failed: t[2] }]))]),
  ) as Record<Dimension, Map<string, Tally>>;
  const breakdowns = Object.fromEntries(
    DIMENSIONS.map((d) => {
      const list = [...tallies[d]].map(([key, t]) => rowOf(key, t, cost));
      // Weeks in time order; everything else the most failures first, then the most orders.
      list.sort(d === "week" ? (a, b) => a.key.localeCompare(b.key) : (a, b) => b.failed - a.failed || b.orders - a.orders || a.key.localeCompare(b.key));
      return [d, list];
    }),
  ) as Record<Dimension, Row[]>;
  const worstPostalCodes = breakdowns.postalCode
    .filter((r) => r.key !== "(none)" && r.failed > 0 && r.delivered + r.failed >= MIN_DECIDED_FOR_WORST)
    .sort((a, b) => b.failed - a.failed || b.failed / (b.delivered + b.failed) - a.failed / (a.delivered + a.failed) || a.key.localeCompare(b.key))
    .slice(0, WORST_CODES);
  const whatIf = worstPostalCodes.length
    ? {
        codes: worstPostalCodes.map((r) => r.key),
        failuresAvoided: worstPostalCodes.reduce((s, r) => s + r.failed, 0),
        ordersAskedToPay: worstPostalCodes.reduce((s, r) => s + r.orders, 0),
        deliveredAskedToPay: worstPostalCodes.reduce((s, r) => s + r.delivered, 0),
        moneySaved: cost == null ? null : worstPostalCodes.reduce((s, r) => s + r.failed, 0) * cost,
      }
    : null;
  return {
    days,
    since: since.toISOString(),
    currency: shop.currency ?? null,
    codFailureCost: cost,
    truncated,
    totals: rowOf("all", total, cost),
    breakdowns,
    worstPostalCodes,
    whatIf,
  };
}

/** A spreadsheet cannot run a cell that starts with = + - @ (or a tab or return) as a formula: it is quoted as text. */
function csvCell(value: string | number | null): string {
  if (value == null) return "";
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Every breakdown as one CSV table: dimension, value, orders, delivered, failed, open, failure rate (blank below the minimum), money lost. */
export function deliveryAnalyticsCsv(a: DeliveryAnalytics): string {
  const lines = [["dimension", "value", "cod_orders", "delivered", "failed", "open", "failure_rate", `money_lost${a.currency ? `_${a.currency}` : ""}`].join(",")];
  const add = (dimension: string, r: Row) =>
    lines.push([dimension, r.key, r.orders, r.delivered, r.failed, r.open, r.rate == null ? null : r.rate.toFixed(4), r.lost == null ? null : r.lost.toFixed(2)].map(csvCell).join(","));
  add("all", a.totals);
  for (const d of DIMENSIONS) for (const r of a.breakdowns[d]) add(d, r);
  return `${lines.join("\r\n")}\r\n`;
}
