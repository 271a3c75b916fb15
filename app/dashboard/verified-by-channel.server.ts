import { query, sql, sqliteIndexedBy } from "~/core/db/sql.server";

export type Channel = "sms" | "whatsapp";

/**
 * The window's verified COD orders by the channel that verified them:
 * - `code`: the order's proof or carried selection, counted on the channel of the last one-time code the
 *   provider took for the order's phone before the order arrived (a WhatsApp code that failed and was
 *   resent by SMS counts as SMS: the failed message is not the one that arrived);
 * - `answer`: confirmed after purchase, on WhatsApp by the Confirm button, otherwise on the channel of
 *   the confirmation link the app sent (SMS unless links went on WhatsApp);
 * - `noMessage`: a returning customer on a remembered device, verified without a message at all.
 */
export type VerifiedByChannel = { byChannel: Record<Channel, { code: number; answer: number }>; noMessage: number };

const FAILED = sql`('failed', 'undelivered', 'canceled')`;

/**
 * One indexed read: the window's verified COD orders (OrderRecord by shop and time), each with its channel.
 * SQLite is told to find the phone's code by the phone and the order's confirmation link by the order
 * (`INDEXED BY`): left to itself it reads the shop's messages newest first to skip a sort, every message of
 * the shop for every order (Home took 47 s with 10,000 orders and 25,000 messages: `npm run bench:growth`).
 */
export async function verifiedOrdersByChannel(shopId: string, from: Date, to?: Date): Promise<VerifiedByChannel> {
  const rows = await query<{ verifiedBy: string | null; codeChannel: string | null; answer: string | null; linkChannel: string | null }>(sql`
    SELECT r."verifiedBy",
      (SELECT m."channel" FROM "MessageDelivery" m${sqliteIndexedBy("MessageDelivery_shopId_phone_idx")}
        WHERE m."shopId" = r."shopId" AND m."phone" = r."phone" AND m."purpose" = 'otp' AND m."providerId" IS NOT NULL
          AND m."createdAt" <= r."createdAt" AND m."status" NOT IN ${FAILED}
        ORDER BY m."createdAt" DESC LIMIT 1) AS "codeChannel",
      (SELECT c."answer" FROM "OrderConfirmation" c WHERE c."shopId" = r."shopId" AND c."orderGid" = r."orderGid") AS "answer",
      (SELECT m."channel" FROM "MessageDelivery" m${sqliteIndexedBy("MessageDelivery_shopId_orderGid_idx")}
        WHERE m."shopId" = r."shopId" AND m."orderGid" = r."orderGid" AND m."orderGid" IS NOT NULL AND m."purpose" = 'order_confirmation' AND m."providerId" IS NOT NULL
          AND m."status" NOT IN ${FAILED}
        ORDER BY m."createdAt" DESC LIMIT 1) AS "linkChannel"
    FROM "OrderRecord" r
    WHERE r."shopId" = ${shopId} AND r."placedAt" >= ${from} ${to ? sql`AND r."placedAt" < ${to}` : sql``}
      AND r."cod" = ${true} AND r."status" IN ('verified', 'confirmed')`);
  const out: VerifiedByChannel = { byChannel: { sms: { code: 0, answer: 0 }, whatsapp: { code: 0, answer: 0 } }, noMessage: 0 };
  for (const row of rows) {
    if (row.verifiedBy === "confirmation") {
      const channel: Channel = row.answer === "confirm" || row.linkChannel === "whatsapp" ? "whatsapp" : "sms";
      out.byChannel[channel].answer++;
    } else if (row.verifiedBy === "returning_customer" || !row.codeChannel) {
      out.noMessage++;
    } else {
      out.byChannel[row.codeChannel === "whatsapp" ? "whatsapp" : "sms"].code++;
    }
  }
  return out;
}
