import { prisma } from "~/core/db.server";
import { statesBefore, type MessageState } from "~/sms/deliveries.server";
import { countEvent } from "~/core/db/daily-stats.server";
import { enqueueJob } from "~/core/jobs/queue.server";
import { escalateNow } from "./confirmation-escalation.server";
import { whatsappFallbackJob } from "./sms-fallback-job.server";

const DELIVERED = new Set<string>(["delivered", "read"]);
const NOT_DELIVERED = new Set<string>(["failed", "undelivered", "canceled"]);
const isFinal = (status: string) => DELIVERED.has(status) || NOT_DELIVERED.has(status);

export type StatusUpdate = { providerId: string; status: MessageState; errorCode: number | null };

export type StatusOutcome =
  | { known: false }
  | { known: true; recorded: boolean; fallback: "queued" | "not_needed" | "already_sent" };

/**
 * Twilio's delivery status callback for one message: records the new state (never going back, as
 * callbacks may arrive out of order) and, when a WhatsApp message that Twilio had accepted turns out
 * `failed` or `undelivered`, queues the resend of its text by SMS (`whatsappFallbackJob`: one job per
 * message, so two callbacks or two instances queue it once; retried while Twilio is unavailable).
 * Call kickJobWorker once the answer is ready.
 */
export async function recordStatus(update: StatusUpdate): Promise<StatusOutcome> {
  const row = await prisma.messageDelivery.findFirst({ where: { providerId: update.providerId } });
  if (!row) return { known: false };
  const data = { status: update.status, ...(update.errorCode !== null ? { errorCode: update.errorCode } : {}) };
  // The dashboard's delivery figures: a message counts once, when it first reaches a final state. That
  // step is its own conditional statement (from a state that is not final), so of two final callbacks
  // arriving together (delivered and read) only one takes it, whatever the row read above said.
  const reachedFinal = isFinal(update.status)
    ? await prisma.messageDelivery.updateMany({ where: { id: row.id, status: { in: statesBefore(update.status).filter((s) => !isFinal(s)) } }, data })
    : { count: 0 };
  if (reachedFinal.count > 0) await countDelivery(row.shopId, DELIVERED.has(update.status) ? "message_delivered" : "message_failed", row.channel);
  const moved = reachedFinal.count > 0 ? reachedFinal : await prisma.messageDelivery.updateMany({ where: { id: row.id, status: { in: statesBefore(update.status) } }, data });
  const failed = update.status === "failed" || update.status === "undelivered";
  if (row.channel !== "whatsapp") return { known: true, recorded: moved.count > 0, fallback: "not_needed" };
  if (row.purpose === "order_confirmation" && row.orderGid) {
    // A confirmation's WhatsApp message: the SMS link is rebuilt from the confirmation, not kept sealed.
    // Failed: the order's escalate job is made due now (one job per order: it sends the link once).
    if (!failed) return { known: true, recorded: moved.count > 0, fallback: "not_needed" };
    const c = await prisma.orderConfirmation.findUnique({ where: { shopId_orderGid: { shopId: row.shopId, orderGid: row.orderGid } }, include: { shop: { select: { domain: true } } } });
    if (!c || c.kind !== "verify" || c.status !== "pending") return { known: true, recorded: moved.count > 0, fallback: "not_needed" };
    if (c.smsLinkAt) return { known: true, recorded: moved.count > 0, fallback: "already_sent" };
    await escalateNow(c.shop.domain, c);
    return { known: true, recorded: moved.count > 0, fallback: "queued" };
  }
  // The text goes once: sent, or dropped as no longer useful (delivered, code used or expired).
  if (!row.fallbackBody) return { known: true, recorded: moved.count > 0, fallback: failed ? "already_sent" : "not_needed" };
  if (!failed) {
    // Delivered or read: the SMS text is no longer needed.
    if (update.status === "delivered" || update.status === "read") {
      await prisma.messageDelivery.updateMany({ where: { id: row.id }, data: { fallbackBody: null } });
    }
    return { known: true, recorded: moved.count > 0, fallback: "not_needed" };
  }
  await enqueueJob(whatsappFallbackJob, { shop: row.shopId, key: row.id, payload: { deliveryId: row.id } });
  return { known: true, recorded: moved.count > 0, fallback: "queued" };
}

/** Counts a message's final state on the shop's day (its time zone, read with the shop's row). */
async function countDelivery(shopId: string, metric: "message_delivered" | "message_failed", channel: string): Promise<void> {
  const shop = await prisma.shop.findUnique({ where: { id: shopId }, select: { id: true, timezone: true } });
  if (shop) await countEvent(shop, metric, channel);
}
