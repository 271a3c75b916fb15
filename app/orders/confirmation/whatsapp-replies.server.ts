import { z } from "zod";
import { query, sql } from "~/core/db/sql.server";
import { prisma } from "~/core/db.server";
import { requestAddressCorrection } from "~/address-correction/address-correction.server";
import { defineJob, enqueueJob, orderJobKey, type JobResult } from "~/core/jobs/queue.server";
import { enqueueFlowTrigger } from "~/core/flow/trigger-jobs.server";
import { settleOrderRecord } from "~/orders/order-record.server";
import { sendSms } from "~/sms/sms.server";
import { takePhoneText } from "~/sms/phone-cap.server";
import { CONFIRMATION_BUTTONS, type ConfirmationButton } from "~/sms/whatsapp";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import { scheduleConfirmationStep } from "./confirmation-jobs.server";
import { stateOf, type Confirmation } from "./confirmation.server";
import { whatsappAnswer, type WhatsappAnswer } from "./texts";

/**
 * The shopper's answer on WhatsApp to the confirmation's buttons (Confirm, Cancel, Change address),
 * as Twilio posts it to POST /twilio/whatsapp (app/routes/twilio.whatsapp.ts, signature checked there).
 *
 * - Matched to the order by the message the shopper replied to (Twilio's OriginalRepliedMessageSid,
 *   one of our recorded messages about an order), never by the sender: `From` may be a business-scoped
 *   user id rather than a phone (docs/whatsapp.md).
 * - One effect per inbound message: the row keyed by Twilio's MessageSid is inserted once (a replayed
 *   webhook finds it), and the effect runs in a durable job (`whatsapp.reply`, one per order) that
 *   settles the confirmation and records the reply's outcome in one transaction.
 * - Confirm = what a code confirms today (the confirmed step: holds released, tags); Cancel = the
 *   `cancelled` step (tagged, cancelled if the shop allows it); Change address = the hosted address form's
 *   link, sent in the session the press opened. An order already confirmed, cancelled or closed gets a
 *   polite answer and nothing changes.
 */
export type InboundReply = {
  messageSid: string;
  repliedTo: string | null;
  payload: string | null;
  sender: string | null;
};

export type ReplyOutcome = { matched: false } | { matched: true; duplicate: boolean; action: ReplyAction };

export type ReplyAction = ConfirmationButton | "other";

function actionOf(payload: string | null): ReplyAction {
  const value = (payload ?? "").trim().toLowerCase();
  return (CONFIRMATION_BUTTONS as readonly string[]).includes(value) ? (value as ConfirmationButton) : "other";
}

const replyPayload = z.object({ shopId: z.string().min(1), orderGid: z.string().min(1), latest: z.string().min(1) });

/**
 * The order's replies, oldest first: each one not yet done. One job per order (its key is the order's,
 * so customers/redact deletes it): a new reply makes the same job due again (`latest` changes).
 */
export const whatsappReplyJob = defineJob({
  kind: "whatsapp.reply",
  payload: replyPayload,
  merge: (queued, incoming) => (incoming.latest !== queued.latest ? incoming : null),
  run: async ({ shopId, orderGid }): Promise<JobResult> => {
    const replies = await prisma.whatsappReply.findMany({ where: { shopId, orderGid, doneAt: null }, orderBy: { createdAt: "asc" } });
    for (const reply of replies) {
      const done = await handleReply(reply.id);
      if (!done.ok) return done;
    }
    return { ok: true };
  },
});

/** Records an inbound reply once and queues its effect. Unmatched: not an answer to one of our confirmation messages. */
export async function receiveReply(input: InboundReply): Promise<ReplyOutcome> {
  if (!input.repliedTo) return { matched: false };
  const message = await prisma.messageDelivery.findFirst({ where: { providerId: input.repliedTo }, select: { shopId: true, orderGid: true, purpose: true } });
  if (!message?.orderGid || message.purpose !== "order_confirmation") return { matched: false };
  const shop = await prisma.shop.findUnique({ where: { id: message.shopId }, select: { domain: true } });
  if (!shop) return { matched: false };
  const action = actionOf(input.payload);
  const now = clock.now();
  // Insert-or-nothing on Twilio's MessageSid: a replayed webhook inserts nothing, so it queues no second effect.
  const inserted = await query<{ id: string }>(sql`
    INSERT INTO "WhatsappReply" ("id", "shopId", "orderGid", "repliedTo", "action", "sender", "createdAt")
    VALUES (${input.messageSid}, ${message.shopId}, ${message.orderGid}, ${input.repliedTo}, ${action}, ${input.sender}, ${now})
    ON CONFLICT ("id") DO NOTHING
    RETURNING "id"`);
  // Queued on a replay too (the job's key is the order's; a done reply is skipped): a process stopped
  // between the insert and the queue is repaired by Twilio's retry of the same message.
  await enqueueJob(whatsappReplyJob, {
    shop: shop.domain,
    key: orderJobKey(shop.domain, message.orderGid),
    payload: { shopId: message.shopId, orderGid: message.orderGid, latest: input.messageSid },
  });
  return { matched: true, duplicate: inserted.length === 0, action };
}

type Outcome = "confirmed" | "cancelled" | "address_link" | "already_confirmed" | "already_cancelled" | "closed" | "ignored";

/** The outcome a reply finds on a confirmation that it does not settle. */
function settledOutcome(c: Pick<Confirmation, "status" | "deadlineAt">): Outcome {
  const state = stateOf(c);
  return state === "confirmed" ? "already_confirmed" : state === "cancelled" ? "already_cancelled" : "closed";
}

const ANSWERS: Partial<Record<Outcome, WhatsappAnswer>> = {
  confirmed: "confirmed",
  already_confirmed: "alreadyConfirmed",
  already_cancelled: "alreadyCancelled",
  closed: "closed",
};

/** The confirmation's state an answer speaks of: one answer per state, whichever press asked (ignored: none). */
const STATE_OF_OUTCOME: Record<Outcome, string | null> = {
  confirmed: "confirmed",
  already_confirmed: "confirmed",
  cancelled: "cancelled",
  already_cancelled: "cancelled",
  closed: "closed",
  address_link: "address",
  ignored: null,
};

/** Records that the answer about `state` is going out; false when one already went (one conditional statement). */
async function firstAnswerFor(confirmationId: string, state: string): Promise<boolean> {
  const rows = await query<{ id: string }>(sql`
    UPDATE "OrderConfirmation" SET "answered" = COALESCE("answered" || ',', '') || ${state}
    WHERE "id" = ${confirmationId} AND (',' || COALESCE("answered", '') || ',') NOT LIKE ${`%,${state},%`}
    RETURNING "id"`);
  return rows.length === 1;
}

async function handleReply(replyId: string): Promise<JobResult> {
  const reply = await prisma.whatsappReply.findUnique({ where: { id: replyId } });
  if (!reply || reply.doneAt) return { ok: true };
  const c = await prisma.orderConfirmation.findUnique({ where: { shopId_orderGid: { shopId: reply.shopId, orderGid: reply.orderGid } }, include: { shop: true } });
  if (!c || c.shop.uninstalledAt) {
    await prisma.whatsappReply.updateMany({ where: { id: reply.id, doneAt: null }, data: { outcome: "ignored", doneAt: clock.now() } });
    return { ok: true };
  }
  const shop = c.shop;
  let outcome = reply.outcome as Outcome | null;
  if (!outcome) {
    outcome = await settle(reply.id, reply.action as ReplyAction, c);
    if (outcome === "confirmed") await settleOrderRecord(c.shopId, c.orderGid, "confirmed");
    if (outcome === "cancelled") await settleOrderRecord(c.shopId, c.orderGid, "cancelled");
    log.info("whatsapp: the shopper answered the confirmation", { shop: shop.domain, orderGid: c.orderGid, action: reply.action, outcome });
  }
  const now = clock.now();
  // The effects, each safe to queue again (a run stopped after the transaction repeats them).
  if (outcome === "confirmed") await scheduleConfirmationStep(shop.domain, c, "confirmed", now);
  if (outcome === "cancelled") await scheduleConfirmationStep(shop.domain, c, "cancelled", now);
  if (outcome === "confirmed" || outcome === "cancelled") await enqueueFlowTrigger(shop.domain, c.orderGid, "answered", { answer: outcome, channel: "whatsapp" });

  const order = c.orderName ?? "";
  const locales = [c.locale, shop.locale];
  let text: string | null = null;
  const stateAnswered = STATE_OF_OUTCOME[outcome];
  if (outcome === "cancelled") text = whatsappAnswer(locales, shop.cancelOnWhatsappCancel ? "cancelled" : "cancelledKept", { order });
  else if (outcome === "address_link") {
    const sent = await requestAddressCorrection(shop, { orderId: c.orderGid, locale: c.locale ?? undefined }, {
      source: "whatsapp",
      whatsappSessionText: (link) => whatsappAnswer(locales, "addressLink", { order, link }),
    });
    // Sent: the link itself is the answer. Twilio down: retried (the correction, if kept, answers already_pending next time).
    if (!sent.ok && sent.code === "sms_unavailable") return { ok: false, error: "sms_unavailable", retry: true };
    if (!sent.ok && sent.code === "shopify_unavailable") return { ok: false, error: "shopify_unavailable", retry: true };
    text = sent.ok ? (sent.status === "sent" ? null : whatsappAnswer(locales, "addressPending", { order })) : whatsappAnswer(locales, "addressUnavailable", { order });
    // The link was the answer about the address: a later press while it is pending gets none.
    if (sent.ok && sent.status === "sent") await firstAnswerFor(c.id, "address");
  } else if (ANSWERS[outcome]) text = whatsappAnswer(locales, ANSWERS[outcome]!, { order });

  // The answer goes once per reply: only the run that marks it done sends it; and once per state of the
  // confirmation (twenty presses of Confirm get one answer), within the number's texts of the day.
  const marked = await prisma.whatsappReply.updateMany({ where: { id: reply.id, doneAt: null }, data: { doneAt: now } });
  if (marked.count === 1 && text && c.phone && stateAnswered && (await firstAnswerFor(c.id, stateAnswered)) && (await takePhoneText(shop.id, c.phone)).ok) {
    // To the order's phone (never to `From`, which may be a business-scoped id), inside the session the press opened.
    await sendSms({
      shop: { id: shop.id, name: shop.name, domain: shop.domain },
      to: c.phone,
      body: text,
      channel: "whatsapp",
      whatsappSession: true,
      sealFallback: false,
      purpose: "order_confirmation",
      orderGid: c.orderGid,
    });
  }
  return { ok: true };
}

/**
 * The reply's effect on the confirmation and its own outcome, in one transaction: a run stopped before
 * it changes nothing, and a run after it finds the outcome written and only finishes the rest.
 */
async function settle(replyId: string, action: ReplyAction, c: Confirmation): Promise<Outcome> {
  return prisma.$transaction(async (tx) => {
    const now = clock.now();
    let outcome: Outcome;
    const open = { id: c.id, status: "pending", deadlineAt: { gt: now } };
    if (action === "confirm") {
      const { count } = await tx.orderConfirmation.updateMany({ where: open, data: { status: "confirmed", confirmedAt: now, answer: "confirm", settledBy: "whatsapp" } });
      outcome = count === 1 ? "confirmed" : settledOutcome(await tx.orderConfirmation.findUniqueOrThrow({ where: { id: c.id } }));
    } else if (action === "cancel") {
      const { count } = await tx.orderConfirmation.updateMany({ where: open, data: { status: "cancelled", closedAt: now, answer: "cancel", settledBy: "whatsapp" } });
      outcome = count === 1 ? "cancelled" : settledOutcome(await tx.orderConfirmation.findUniqueOrThrow({ where: { id: c.id } }));
    } else if (action === "change_address") {
      outcome = stateOf(c, now) === "pending" ? "address_link" : settledOutcome(c);
    } else {
      outcome = "ignored";
    }
    const recorded = await tx.whatsappReply.updateMany({ where: { id: replyId, outcome: null }, data: { outcome } });
    // Another run recorded it first (a lock that expired mid-run): this one's changes go back.
    if (recorded.count !== 1) throw new Error("whatsapp reply settled by another run");
    return outcome;
  });
}
