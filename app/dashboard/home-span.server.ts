import { query, sql, toBoolean } from "~/core/db/sql.server";
import { verifiedOrdersByChannel, type VerifiedByChannel } from "./verified-by-channel.server";

/**
 * Home's figures of one span of time read from the rows (app/dashboard/dashboard.server.ts adds the spans of
 * the 30 days): a closed day's are stored by the day rollup (./day-rollup.server.ts), today's are read live.
 */
export type HomeSpan = {
  orders: { status: string; mode: string | null; cod: boolean; n: number }[];
  /** Distinct numbers a storefront code went to in the span, and how many of them verified since its start. */
  shoppers: { sent: number; verified: number };
  channels: { channel: string; status: string; n: number }[];
  answers: { outcome: string | null; n: number }[];
  verifiedBy: VerifiedByChannel;
};

const num = (v: unknown) => Number(v ?? 0);

/** The span's figures (to now when `to` is null) from indexed reads of its rows (OrderRecord, MessageDelivery, WhatsappReply by shop and time). */
export async function homeSpan(shop: { id: string }, from: Date, to: Date | null): Promise<HomeSpan> {
  const before = (column: string) => (to ? sql([` AND ${column} < `, ""], to) : sql``);
  const [orderRows, shopperRows, channelRows, answerRows, verifiedBy] = await Promise.all([
    query<{ status: string; mode: string | null; cod: unknown; n: unknown }>(sql`
      SELECT "status", "mode", "cod", COUNT(*) AS "n" FROM "OrderRecord"
      WHERE "shopId" = ${shop.id} AND "placedAt" >= ${from}${before('"placedAt"')} GROUP BY "status", "mode", "cod"`),
    // A number that asked for three codes is one shopper. Only codes the provider took (a refused
    // number never got one); a phone's last verification is enough: verified since the span began counts.
    query<{ sent: unknown; verified: unknown }>(sql`
      SELECT COUNT(DISTINCT m."phone") AS "sent", COUNT(DISTINCT v."phone") AS "verified"
      FROM "MessageDelivery" m
      LEFT JOIN "VerifiedCustomer" v ON v."shopId" = m."shopId" AND v."phone" = m."phone" AND v."verifiedAt" >= ${from}
      WHERE m."shopId" = ${shop.id} AND m."purpose" = 'otp' AND m."providerId" IS NOT NULL AND m."createdAt" >= ${from}${before('m."createdAt"')}`),
    query<{ channel: string; status: string; n: unknown }>(sql`
      SELECT "channel", "status", COUNT(*) AS "n" FROM "MessageDelivery"
      WHERE "shopId" = ${shop.id} AND "providerId" IS NOT NULL AND "createdAt" >= ${from}${before('"createdAt"')} GROUP BY "channel", "status"`),
    query<{ outcome: string | null; n: unknown }>(sql`
      SELECT "outcome", COUNT(*) AS "n" FROM "WhatsappReply" WHERE "shopId" = ${shop.id} AND "createdAt" >= ${from}${before('"createdAt"')} GROUP BY "outcome"`),
    verifiedOrdersByChannel(shop.id, from, to ?? undefined),
  ]);
  return {
    orders: orderRows.map((r) => ({ status: r.status, mode: r.mode, cod: toBoolean(r.cod), n: num(r.n) })),
    shoppers: { sent: num(shopperRows[0]?.sent), verified: num(shopperRows[0]?.verified) },
    channels: channelRows.map((r) => ({ channel: r.channel, status: r.status, n: num(r.n) })),
    answers: answerRows.map((r) => ({ outcome: r.outcome, n: num(r.n) })),
    verifiedBy,
  };
}

/** Two spans' figures as one (a number that asked on two days counts as a shopper on each). */
export function addHomeSpans(a: HomeSpan, b: HomeSpan): HomeSpan {
  const byChannel = (c: "sms" | "whatsapp") => ({
    code: a.verifiedBy.byChannel[c].code + b.verifiedBy.byChannel[c].code,
    answer: a.verifiedBy.byChannel[c].answer + b.verifiedBy.byChannel[c].answer,
  });
  return {
    orders: [...a.orders, ...b.orders],
    shoppers: { sent: a.shoppers.sent + b.shoppers.sent, verified: a.shoppers.verified + b.shoppers.verified },
    channels: [...a.channels, ...b.channels],
    answers: [...a.answers, ...b.answers],
    verifiedBy: { byChannel: { sms: byChannel("sms"), whatsapp: byChannel("whatsapp") }, noMessage: a.verifiedBy.noMessage + b.verifiedBy.noMessage },
  };
}
