import { query, sql } from "~/core/db/sql.server";
import { phoneCountry } from "~/shared/phone";
import { lastShopDaysStart, shopDay } from "~/shared/shop-day";
import { priceOf, type PriceTable } from "~/sms/prices";
import { verifiedOrdersByChannel, type Channel } from "./verified-by-channel.server";

export { parsePriceTable } from "~/sms/prices";

/**
 * What each channel costs per verified COD order, for the operator who pays the provider
 * (`npm run report:channels`). The merchant's Home shows the counts (messages, verified orders, messages
 * per verified order) and never the app's own messaging cost: docs/decisions/0010-channel-cost-for-the-operator.md.
 */

/** Purposes that verify an order (a code, a confirmation); the rest (address links, the merchant's test) are counted apart. */
const VERIFYING = new Set(["otp", "order_confirmation"]);

export type ChannelLine = {
  channel: Channel;
  /** Messages that verify orders (codes, confirmations) the provider took and did not fail. */
  messages: number;
  cost: number;
  verifiedOrders: number;
  /** cost / verifiedOrders; null with no verified order. */
  costPerVerifiedOrder: number | null;
  /** Other messages (address-correction links, the merchant's test code) and their cost. */
  otherMessages: number;
  otherCost: number;
};
/** `from` and `to` are instants; `firstDay` and `lastDay` the shop's days they span, in its zone (`timezone`, null: UTC). */
export type ShopChannelReport = { shop: string; timezone: string | null; from: string; to: string; firstDay: string; lastDay: string; channels: ChannelLine[]; verifiedWithoutMessage: number; unpriced: string[] };

/**
 * Every shop's (or one's) last `days` days, to `now`, each shop's own (today and the days before, from the
 * first one's midnight in its zone): messages by channel priced by `table`, against the verified COD orders
 * of each channel.
 */
export async function channelReport(options: { table: PriceTable; days: number; shop?: string; now?: Date }): Promise<ShopChannelReport[]> {
  const to = options.now ?? new Date();
  const shops = await query<{ id: string; domain: string; timezone: string | null }>(
    options.shop
      ? sql`SELECT "id", "domain", "timezone" FROM "Shop" WHERE "domain" = ${options.shop}`
      : sql`SELECT "id", "domain", "timezone" FROM "Shop" ORDER BY "domain"`,
  );
  const reports: ShopChannelReport[] = [];
  for (const shop of shops) {
    const from = lastShopDaysStart(to, options.days, shop.timezone);
    // Twilio does not charge for a message it reports failed; undelivered ones are charged.
    const rows = await query<{ channel: string; purpose: string; phone: string; n: unknown }>(sql`
      SELECT "channel", "purpose", "phone", COUNT(*) AS "n" FROM "MessageDelivery"
      WHERE "shopId" = ${shop.id} AND "providerId" IS NOT NULL AND "status" <> 'failed' AND "createdAt" >= ${from} AND "createdAt" < ${to}
      GROUP BY "channel", "purpose", "phone"`);
    const verified = await verifiedOrdersByChannel(shop.id, from, to);
    const lines = new Map<Channel, ChannelLine>(
      (["sms", "whatsapp"] as const).map((channel) => {
        const v = verified.byChannel[channel];
        return [channel, { channel, messages: 0, cost: 0, verifiedOrders: v.code + v.answer, costPerVerifiedOrder: null, otherMessages: 0, otherCost: 0 }];
      }),
    );
    const unpriced = new Set<string>();
    for (const row of rows) {
      const line = lines.get(row.channel as Channel);
      if (!line) continue;
      const n = Number(row.n);
      const country = phoneCountry(row.phone);
      const price = priceOf(options.table, line.channel, row.purpose, country);
      if (price === null) unpriced.add(`${line.channel}:${country ?? "unknown"}`);
      if (VERIFYING.has(row.purpose)) {
        line.messages += n;
        line.cost += n * (price ?? 0);
      } else {
        line.otherMessages += n;
        line.otherCost += n * (price ?? 0);
      }
    }
    const channels = [...lines.values()].map((l) => ({
      ...l,
      cost: round(l.cost),
      otherCost: round(l.otherCost),
      costPerVerifiedOrder: l.verifiedOrders ? round(l.cost / l.verifiedOrders) : null,
    }));
    reports.push({
      shop: shop.domain,
      timezone: shop.timezone,
      from: from.toISOString(),
      to: to.toISOString(),
      firstDay: shopDay(from, shop.timezone),
      lastDay: shopDay(to, shop.timezone),
      channels,
      verifiedWithoutMessage: verified.noMessage,
      unpriced: [...unpriced].sort(),
    });
  }
  return reports;
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;
