import { query, sql } from "~/core/db/sql.server";
import { ORDER_PAYMENTS, paymentOf, type OrderPayment } from "~/shared/order-status";
import type { Shop } from "~/core/settings/shop.server";
import { addDays, shopDay, shopDayStart } from "~/shared/shop-day";
import { clock } from "~/core/utils/clock.server";
import type { VerifiedByChannel } from "./verified-by-channel.server";
import { rolledUp } from "./day-rollup.server";
import { addHomeSpans } from "./home-span.server";

export const DASHBOARD_DAYS = 30;

export type DayFigures = { day: string; sent: number; verified: number; failed: number; skipped: number };
export type Dashboard = {
  from: string;
  to: string;
  days: DayFigures[];
  totals: {
    /** Codes: a shopper who asks again is counted each time. */
    sent: number;
    verified: number;
    failed: number;
    skipped: number;
    correctionsSent: number;
    correctionsCompleted: number;
  };
  /**
   * Shoppers, not codes: distinct numbers a storefront code went to in the window, and how many of
   * them verified in the window. `rate` is verified / sent (0..1), null with nobody sent a code.
   */
  shoppers: { sent: number; verified: number; rate: number | null };
  failedBy: Record<string, number>;
  skippedBy: Record<string, number>;
  /** The window's orders: one total, split by payment (paymentOf), and the COD ones by verification state. */
  orders: { total: number; byPayment: Record<OrderPayment, number>; codByStatus: Record<string, number> };
  /** Codes sent by destination (ISO 3166 alpha-2, "" unknown), most first. */
  countries: { country: string; sent: number }[];
  /** Messages whose final delivery state the provider reported in the period. */
  deliveries: { delivered: number; failed: number };
  /**
   * The window's messages by channel (SMS, WhatsApp): how many the provider took, and their last state
   * (delivered or read, failed), and the COD orders each verified (by code, or by the answer after
   * purchase: verified-by-channel.server.ts); and the orders shoppers answered on WhatsApp.
   */
  channels: { channel: "sms" | "whatsapp"; sent: number; delivered: number; read: number; failed: number; verifiedOrders: number }[];
  /** COD orders verified with no message on record: a returning customer on a remembered device. */
  verifiedWithoutMessage: number;
  whatsappAnswers: { confirmed: number; cancelled: number };
};

const num = (v: unknown) => Number(v ?? 0);

/**
 * The home page's last 30 days (the shop's days, in its time zone, today included), from indexed reads: the daily
 * counters (DailyStat by shop and day: codes, corrections, message deliveries) and, for orders, messages by
 * channel, shoppers and WhatsApp answers, one stored row a closed day (DayRollup, ./day-rollup.server.ts)
 * and today's rows (./home-span.server.ts). Shoppers are distinct numbers a day: a number that asked on two
 * days counts on each.
 */
export async function dashboardOf(shop: Pick<Shop, "id" | "timezone">, now: Date = clock.now()): Promise<Dashboard> {
  const to = shopDay(now, shop.timezone);
  const from = addDays(to, -(DASHBOARD_DAYS - 1));
  const fromDate = shopDayStart(from, shop.timezone);
  const [stats, home] = await Promise.all([
    query<{ metric: string; day: string; dimension: string; count: unknown }>(sql`
      SELECT "metric", "day", "dimension", "count" FROM "DailyStat" WHERE "shopId" = ${shop.id} AND "day" >= ${from}`),
    // The closed days from the day rollup, today (and a day not rolled yet) from the rows.
    rolledUp(shop, "home", fromDate, now),
  ]);
  const span = home.reduce(addHomeSpans);
  const { orders: orderRows, channels: channelRows, answers: answerRows, verifiedBy } = span;
  const verifiedOn = (c: keyof VerifiedByChannel["byChannel"]) => verifiedBy.byChannel[c].code + verifiedBy.byChannel[c].answer;
  const channels = (["sms", "whatsapp"] as const).map((channel) => ({ channel, sent: 0, delivered: 0, read: 0, failed: 0, verifiedOrders: verifiedOn(channel) }));
  for (const row of channelRows) {
    const c = channels.find((x) => x.channel === row.channel);
    if (!c) continue;
    const n = num(row.n);
    c.sent += n;
    if (row.status === "delivered" || row.status === "read") c.delivered += n;
    if (row.status === "read") c.read += n;
    if (row.status === "failed" || row.status === "undelivered") c.failed += n;
  }
  const answered = (outcome: string) => answerRows.reduce((sum, r) => sum + (r.outcome === outcome ? r.n : 0), 0);

  const byDay = new Map<string, DayFigures>();
  for (let i = 0; i < DASHBOARD_DAYS; i++) {
    const day = addDays(from, i);
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
      // Every code confirmed, the numbers verifying again this month included (only the first is counted against the plan).
      // A dimension names a text or call counted against the allowance (ladder, confirmation, reminder, recovery, prepaid_offer): not a code.
      case "otp_verified":
      case "otp_reverified":
        if (day && row.dimension === "") day.verified += n;
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

  const orders = { total: 0, byPayment: Object.fromEntries(ORDER_PAYMENTS.map((p) => [p, 0])) as Record<OrderPayment, number>, codByStatus: {} as Record<string, number> };
  for (const row of orderRows) {
    const n = num(row.n);
    const payment = paymentOf({ cod: row.cod, mode: row.mode });
    orders.total += n;
    orders.byPayment[payment] += n;
    if (payment === "cod") orders.codByStatus[row.status] = (orders.codByStatus[row.status] ?? 0) + n;
  }

  const shoppersSent = span.shoppers.sent;
  const shoppersVerified = span.shoppers.verified;
  return {
    from,
    to,
    days,
    totals: { sent: sum("sent"), verified: sum("verified"), failed: sum("failed"), skipped: sum("skipped"), correctionsSent, correctionsCompleted },
    shoppers: { sent: shoppersSent, verified: shoppersVerified, rate: shoppersSent ? shoppersVerified / shoppersSent : null },
    failedBy,
    skippedBy,
    orders,
    countries: [...sentByCountry.entries()].map(([country, sent]) => ({ country, sent })).sort((a, b) => b.sent - a.sent),
    deliveries: delivery,
    channels,
    verifiedWithoutMessage: verifiedBy.noMessage,
    whatsappAnswers: { confirmed: answered("confirmed"), cancelled: answered("cancelled") },
  };
}
