import { z } from "zod";
import { prisma } from "~/core/db.server";
import { defineJob, type JobResult } from "~/core/jobs/queue.server";
import { maskPhone } from "~/shared/phone-mask";
import { openText, type MessagePurpose } from "~/sms/deliveries.server";
import { sendSms } from "~/sms/sms.server";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";

/**
 * The SMS that replaces a WhatsApp message WhatsApp reported undelivered (queued by the status
 * callback, app/message-status/status-callback.server.ts). Sent once, while still useful (before the
 * message's `fallbackUntil`; an OTP only while a code is live), retried with the queue's backoff while
 * Twilio is unavailable. The sealed text is dropped once sent or no longer useful. Safe to run twice: a
 * run first looks for the SMS a previous run recorded (`fallbackOf`); only a crash between Twilio's
 * answer and that record can send it twice.
 */
export const whatsappFallbackJob = defineJob({
  kind: "sms.whatsapp-fallback",
  payload: z.object({ deliveryId: z.string().min(1) }),
  maxAttempts: 5,
  run: ({ deliveryId }) => sendFallback(deliveryId),
});

async function dropText(id: string) {
  await prisma.messageDelivery.updateMany({ where: { id }, data: { fallbackBody: null } });
}

async function sendFallback(id: string): Promise<JobResult> {
  const row = await prisma.messageDelivery.findUnique({ where: { id } });
  if (!row?.fallbackBody) return { ok: true };
  const sentBefore = await prisma.messageDelivery.findFirst({ where: { fallbackOf: id, providerId: { not: null } }, select: { id: true } });
  if (sentBefore) {
    await dropText(id);
    return { ok: true };
  }
  const now = clock.now().getTime();
  const expired = row.fallbackUntil !== null && Number(row.fallbackUntil) <= now;
  // An OTP whose code was used (verified) or has expired: nothing to resend.
  const live = row.purpose !== "otp" || (await prisma.otpChallenge.count({ where: { shopId: row.shopId, phone: row.phone, expiresAt: { gt: BigInt(now) }, usedAt: null } })) > 0;
  if (expired || !live) {
    await dropText(id);
    return { ok: true };
  }
  const shop = await prisma.shop.findUnique({ where: { id: row.shopId }, select: { id: true, name: true, domain: true } });
  const body = openText(row.fallbackBody);
  if (!shop || !body) {
    await dropText(id);
    return { ok: false, error: shop ? "the sealed text does not open" : "the shop is gone", retry: false };
  }
  const sent = await sendSms({ shop, to: row.phone, body, channel: "sms", purpose: row.purpose as MessagePurpose, fallbackOf: id });
  log.info("sms: whatsapp undelivered, resent by sms", { shop: shop.domain, to: maskPhone(row.phone), ok: sent.ok });
  if (sent.ok || sent.code === "phone_unreachable") await dropText(id);
  if (sent.ok) return { ok: true };
  return { ok: false, error: `${sent.code}: ${sent.detail}`, retry: sent.code !== "phone_unreachable" };
}
