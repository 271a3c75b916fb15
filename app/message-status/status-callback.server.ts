import { prisma } from "~/db.server";
import { maskPhone } from "~/shared/phone-mask";
import { clock } from "~/utils/clock.server";
import { log } from "~/utils/log.server";
import { openText, statesBefore, type MessagePurpose, type MessageState } from "./deliveries.server";
import { sendSms } from "./sms.server";
import { countEvent } from "~/db/daily-stats.server";

const DELIVERED = new Set<string>(["delivered", "read"]);
const NOT_DELIVERED = new Set<string>(["failed", "undelivered", "canceled"]);
const isFinal = (status: string) => DELIVERED.has(status) || NOT_DELIVERED.has(status);

export type StatusUpdate = { providerId: string; status: MessageState; errorCode: number | null };

export type StatusOutcome =
  | { known: false }
  | { known: true; recorded: boolean; fallback: "sent" | "not_needed" | "already_sent" | "expired" | "failed" };

/**
 * Twilio's delivery status callback for one message: records the new state (never going back, as
 * callbacks may arrive out of order) and, when a WhatsApp message that Twilio had accepted turns out
 * `failed` or `undelivered`, resends its text by SMS with the same code, once (the sealed text is
 * claimed by one conditional UPDATE, so two callbacks or two instances never send twice), and only
 * while the code can still be used.
 */
export async function recordStatus(update: StatusUpdate): Promise<StatusOutcome> {
  const row = await prisma.messageDelivery.findUnique({ where: { providerId: update.providerId } });
  if (!row) return { known: false };
  const moved = await prisma.messageDelivery.updateMany({
    where: { id: row.id, status: { in: statesBefore(update.status) } },
    data: { status: update.status, ...(update.errorCode !== null ? { errorCode: update.errorCode } : {}) },
  });
  // The dashboard's delivery figures: a message counts once, when it first reaches a final state.
  if (moved.count > 0 && isFinal(update.status) && !isFinal(row.status)) {
    await countEvent(row.shopId, DELIVERED.has(update.status) ? "message_delivered" : "message_failed", row.channel);
  }
  const failed = update.status === "failed" || update.status === "undelivered";
  if (row.channel !== "whatsapp") return { known: true, recorded: moved.count > 0, fallback: "not_needed" };
  // The text goes once: sent, or dropped as no longer useful (delivered, code used or expired).
  if (!row.fallbackBody) return { known: true, recorded: moved.count > 0, fallback: failed ? "already_sent" : "not_needed" };
  if (!failed) {
    // Delivered or read: the SMS text is no longer needed.
    if (update.status === "delivered" || update.status === "read") {
      await prisma.messageDelivery.updateMany({ where: { id: row.id }, data: { fallbackBody: null } });
    }
    return { known: true, recorded: moved.count > 0, fallback: "not_needed" };
  }
  return { known: true, recorded: moved.count > 0, fallback: await smsFallback({ ...row, fallbackBody: row.fallbackBody }) };
}

async function smsFallback(row: {
  id: string;
  shopId: string;
  phone: string;
  purpose: string;
  fallbackBody: string;
  fallbackUntil: bigint | null;
}): Promise<"sent" | "already_sent" | "expired" | "failed"> {
  // Claimed by the one UPDATE that still finds the text it read (RETURNING would give the new NULL).
  const sealed = row.fallbackBody;
  const claimed = await prisma.$executeRaw`
    UPDATE "MessageDelivery" SET "fallbackBody" = NULL WHERE "id" = ${row.id} AND "fallbackBody" = ${sealed}`;
  if (claimed !== 1) return "already_sent";
  const now = clock.now().getTime();
  if (row.fallbackUntil !== null && Number(row.fallbackUntil) <= now) return "expired";
  if (row.purpose === "otp") {
    // The code was used (verified) or replaced by nothing live: nothing to resend.
    const live = await prisma.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "OtpChallenge" WHERE "shopId" = ${row.shopId} AND "phone" = ${row.phone} AND "expiresAt" > ${now}`;
    if (!live.length) return "expired";
  }
  const shop = await prisma.shop.findUnique({ where: { id: row.shopId }, select: { id: true, name: true, domain: true } });
  const body = openText(sealed);
  if (!shop || !body) return "failed";
  const sent = await sendSms({
    shop,
    to: row.phone,
    body,
    channel: "sms",
    purpose: row.purpose as MessagePurpose,
    fallbackOf: row.id,
  });
  log.info("sms: whatsapp undelivered, resent by sms", { shop: shop.domain, to: maskPhone(row.phone), ok: sent.ok });
  return sent.ok ? "sent" : "failed";
}
