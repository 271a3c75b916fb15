import { query, sql, toBoolean } from "~/db/sql.server";
import type { Shop } from "~/settings/shop.server";
import { utcDay } from "~/shared/daily-metrics";
import { clock } from "~/utils/clock.server";
import { priceFor, smsPricesOf, type SmsPrices } from "./prices";

export const DASHBOARD_DAYS = 30;

export type DayFigures = { day: string; sent: number; verified: number; failed: number; skipped: number };
export type Dashboard = {
  from: string;
  to: string;
  days: DayFigures[];
  totals: {
    sent: number;
    verified: number;
    failed: number;
    skipped: number;
    /** verified / sent, 0..1; null with nothing sent. */
    verificationRate: number | null;
    correctionsSent: number;
    correctionsCompleted: number;
  };
  failedBy: Record<string, number>;
  skippedBy: Record<string, number>;
  /** COD orders by verification state: verified, unverified, pending, confirmed, unconfirmed. */
  codOrders: Record<string, number>;
  /** Every order by the mode the shopper chose (none: no selection linked). */
  ordersByMode: Record<string, number>;
  /** Sent codes by destination, most first, with the estimated cost at the shop's prices. */
  countries: { country: string; sent: number; price: number; cost: number }[];
  estimatedSpend: number;
  /** Messages whose final delivery state the provider reported in the period. */
  deliveries: { delivered: number; failed: number };
  prices: SmsPrices;
};

const num = (v: unknown) => Number(v ?? 0);

/**
 * The home page's last 30 days (UTC, today included), from two indexed reads: the daily rollup
 * (DailyStat by shop and day: codes, corrections, message deliveries) and orders (OrderRecord by shop
 * and time, grouped in the database).
 */
export async function dashboardOf(shop: Pick<Shop, "id" | "smsPrices">, now: Date = clock.now()): Promise<Dashboard> {
  const to = utcDay(now);
  const fromDate = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (DASHBOARD_DAYS - 1)));
  const from = utcDay(fromDate);
  const [stats, orders] = await Promise.all([
    query<{ metric: string; day: string; dimension: string; count: unknown }>(sql`
      SELECT "metric", "day", "dimension", "count" FROM "DailyStat" WHERE "shopId" = ${shop.id} AND "day" >= ${from}`),
    query<{ status: string; mode: string | null; cod: unknown; n: unknown }>(sql`
      SELECT "status", "mode", "cod", COUNT(*) AS "n" FROM "OrderRecord"
      WHERE "shopId" = ${shop.id} AND "placedAt" >= ${fromDate} GROUP BY "status", "mode", "cod"`),
  ]);

  const byDay = new Map<string, DayFigures>();
  for (let i = 0; i < DASHBOARD_DAYS; i++) {
    const day = utcDay(new Date(fromDate.getTime() + i * 86_400_000));
    byDay.set(day, { day, sent: 0, verified: 0, failed: 0, skipped: 0 });
  }
  const failedBy: Record<string, number> = {};
  const skippedBy: Record<string, number> = {};
  const sentByCountry = new Map<string, number>();
  const delivery = { delivered: 0, failed: 0 };
  let correctionsSent = 0;
  let correctionsCompleted = 0;
  for (const row of stats) {
    const n = num(row.count);
    const day = byDay.get(row.day);
    switch (row.metric) {
      case "otp_sent":
        if (day) day.sent += n;
        sentByCountry.set(row.dimension, (sentByCountry.get(row.dimension) ?? 0) + n);
        break;
      case "otp_verified":
        if (day) day.verified += n;
        break;
      case "otp_failed":
        if (day) day.failed += n;
        failedBy[row.dimension] = (failedBy[row.dimension] ?? 0) + n;
        break;
      case "otp_skipped":
        if (day) day.skipped += n;
        skippedBy[row.dimension] = (skippedBy[row.dimension] ?? 0) + n;
        break;
      case "correction_sent":
        correctionsSent += n;
        break;
      case "correction_completed":
        correctionsCompleted += n;
        break;
      case "message_delivered":
        delivery.delivered += n;
        break;
      case "message_failed":
        delivery.failed += n;
        break;
    }
  }
  const days = [...byDay.values()];
  const sum = (key: keyof Omit<DayFigures, "day">) => days.reduce((s, d) => s + d[key], 0);
  const sent = sum("sent");
  const verified = sum("verified");

  const codOrders: Record<string, number> = {};
  const ordersByMode: Record<string, number> = {};
  for (const row of orders) {
    const n = num(row.n);
    if (toBoolean(row.cod) || row.cod === true) codOrders[row.status] = (codOrders[row.status] ?? 0) + n;
    const mode = row.mode ?? "none";
    ordersByMode[mode] = (ordersByMode[mode] ?? 0) + n;
  }

  const prices = smsPricesOf(shop.smsPrices);
  const countries = [...sentByCountry.entries()]
    .map(([country, count]) => {
      const price = priceFor(prices, country || "*");
      return { country: country || "unknown", sent: count, price, cost: count * price };
    })
    .sort((a, b) => b.sent - a.sent);
  const estimatedSpend = countries.reduce((s, c) => s + c.cost, 0);

  return {
    from,
    to,
    days,
    totals: {
      sent,
      verified,
      failed: sum("failed"),
      skipped: sum("skipped"),
      verificationRate: sent ? verified / sent : null,
      correctionsSent,
      correctionsCompleted,
    },
    failedBy,
    skippedBy,
    codOrders,
    ordersByMode,
    countries,
    estimatedSpend,
    deliveries: delivery,
    prices,
  };
}
