import { z } from "zod";
import { execute, query, sql } from "~/core/db/sql.server";
import { prisma } from "~/core/db.server";
import { defineJob, enqueueJob, orderJobKey, type JobResult } from "~/core/jobs/queue.server";
import type { Shop } from "~/core/settings/shop.server";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import { requestAddressCorrection } from "~/address-correction/address-correction.server";
import { takeContact, type ContactAllowance } from "~/billing/contact-allowance.server";
import { enqueueFlowTrigger } from "~/core/flow/trigger-jobs.server";
import { amountToCollect, settleOrderRecord } from "~/orders/order-record.server";
import { writtenMoney } from "~/shared/money-words";
import { pickLocale } from "~/shared/locales";
import { sendSms, type WhatsappTemplate } from "~/sms/sms.server";
import { recordOptOut } from "~/sms/opt-out.server";
import { placeCall, questionTwiml, sayAndHangUp } from "~/sms/voice.server";
import { whatsappConfirmTemplate, whatsappLinkTemplate } from "~/sms/whatsapp";
import { scheduleConfirmationStep } from "./confirmation-jobs.server";
import { confirmationLink, linkToken, stateOf, type Confirmation } from "./confirmation.server";
import { parseLadder, quietUntil, RUNGS, voiceLine, voicePrompt, type Rung } from "./ladder";
import { bringNextRungForward, moveRungJob, RUNG_JOBS } from "./ladder-jobs.server";
import { confirmationSms, confirmationSummary } from "./texts";

/**
 * The confirmation ladder (docs/confirmation-ladder.md): an unverified COD order's confirmation climbs
 * the shop's rungs (WhatsApp buttons, the SMS link, a voice call, "needs a person"), each a durable job
 * due at its delay after the order (./ladder-jobs.server.ts).
 *
 * - Each rung acts once: its ConfirmationRung row leaves `due` once (sent, skipped or queued) and `sent`
 *   once (answered, or ended without an answer: no_answer, busy, voicemail, failed).
 * - The first answer on any rung settles the confirmation with one conditional UPDATE (`status` =
 *   pending), so two answers at once, on two rungs, have one effect; the rungs still due find it settled
 *   and stop. `settledBy` names the rung (the order's `cod-confirmed-by:<rung>` tag, Flow triggers).
 * - No text or call in the shop's quiet hours: the rung waits for their end. A number that asked to stop,
 *   a blocked number, past the shop's daily cap or the per-number limits gets no text or call: the rung
 *   is skipped and the next one comes now. Each text or call that goes counts against the shop's
 *   allowance (app/billing/contact-allowance.server.ts); a shop without a plan or allowance left
 *   texts and calls no more: the rung is skipped and the order goes to "needs a person" at once.
 */
type LadderConfirmation = Confirmation & { shop: Shop };

export const LADDER_JOBS = RUNGS.map((rung) => defineJob({ ...RUNG_JOBS[rung], run: ({ confirmationId }) => runRung(confirmationId, rung) }));

const rungId = (confirmationId: string, rung: Rung) => `${confirmationId}:${rung}`;

async function runRung(confirmationId: string, rung: Rung): Promise<JobResult> {
  const c = await prisma.orderConfirmation.findUnique({ where: { id: confirmationId }, include: { shop: true } });
  if (!c || c.shop.uninstalledAt) return { ok: true };
  const ladder = parseLadder(c.ladder);
  if (!ladder?.some((s) => s.rung === rung)) return { ok: true };
  const now = clock.now();
  const id = rungId(c.id, rung);
  await execute(sql`
    INSERT INTO "ConfirmationRung" ("id", "confirmationId", "shopId", "rung", "state", "dueAt", "createdAt")
    VALUES (${id}, ${c.id}, ${c.shopId}, ${rung}, 'due', ${now}, ${now})
    ON CONFLICT ("id") DO NOTHING`);
  const row = await prisma.confirmationRung.findUniqueOrThrow({ where: { id } });
  if (row.state !== "due") return { ok: true };
  // The ladder stops at the first answer (or the deadline, or the merchant's cancel).
  if (stateOf(c, now) !== "pending") return endRung(id, "skipped", `confirmation ${stateOf(c, now)}`);
  if (!c.phone) return endRung(id, "skipped", "no phone");
  if (rung === "person") return queueForPerson(c, id, now);

  const quiet = quietUntil(now, c.shop);
  if (quiet) {
    const moved = moveRungJob(c.shop.domain, c, rung, quiet);
    await enqueueJob(moved.kind, moved.input);
    log.info("confirmation ladder: quiet hours, the rung waits", { shop: c.shop.domain, orderGid: c.orderGid, rung, until: quiet.toISOString() });
    return { ok: true };
  }
  const allowed = await takeContact(c.shop, c.phone, "ladder", { call: rung === "voice" });
  if (!allowed.ok) {
    await endRung(id, "skipped", allowed.reason);
    // No plan or no allowance left: no later rung could text or call either, so the team takes the order now.
    if (allowed.plan) return queueForPerson(c, rungId(c.id, "person"), now, allowed.reason);
    await bringNextRungForward(c.shop.domain, c, ladder, rung);
    return { ok: true };
  }
  const sent = rung === "whatsapp" ? await askOnWhatsapp(c, allowed) : rung === "sms" ? await sendLink(c, allowed) : await callShopper(c, allowed);
  if (sent.ok) {
    await prisma.confirmationRung.updateMany({ where: { id, state: "due" }, data: { state: "sent", sentAt: clock.now(), providerId: sent.providerId ?? null, detail: sent.detail ?? null } });
    await allowed.counted(id);
    return { ok: true };
  }
  // Nothing went for certain: the limits get their hits back (a text or call that may have gone keeps them).
  if (!sent.maybeSent) await allowed.giveBack();
  if (sent.retry) return { ok: false, error: sent.error, retry: true };
  await endRung(id, sent.skip ? "skipped" : "failed", sent.error);
  await bringNextRungForward(c.shop.domain, c, ladder, rung);
  return { ok: true };
}

async function endRung(id: string, state: string, detail: string): Promise<JobResult> {
  await prisma.confirmationRung.updateMany({ where: { id, state: "due" }, data: { state, detail: detail.slice(0, 200), endedAt: clock.now() } });
  return { ok: true };
}

type Sent = { ok: true; providerId?: string; detail?: string } | { ok: false; error: string; retry: boolean; skip?: boolean; maybeSent?: boolean };
type Allowed = Extract<ContactAllowance, { ok: true }>;

const shopOf = (c: LadderConfirmation) => ({ id: c.shop.id, name: c.shop.name, domain: c.shop.domain });
const localesOf = (c: LadderConfirmation) => [c.locale, c.shop.locale];

const amountDue = (c: LadderConfirmation) => amountToCollect(c.shopId, c.orderGid, c.shop.currency);

/** The WhatsApp rung: the question with Confirm / Cancel / Change address (answered through POST /twilio/whatsapp). */
async function askOnWhatsapp(c: LadderConfirmation, allowed: Allowed): Promise<Sent> {
  const due = await amountDue(c);
  const summary = confirmationSummary(localesOf(c), { order: c.orderName ?? "", amount: due && writtenMoney(due, pickLocale(...localesOf(c)), c.shop.country) });
  const template = whatsappConfirmTemplate({ shop: shopNameOf(c), order: c.orderName ?? "", summary }, localesOf(c));
  if (!template) return { ok: false, error: "no WhatsApp confirmation template", retry: false, skip: true };
  return sendRungText(c, allowed, { whatsapp: template, question: true });
}

/** The SMS rung: the link to the confirmation page (on WhatsApp's link template when the shop sends links there). */
async function sendLink(c: LadderConfirmation, allowed: Allowed): Promise<Sent> {
  const viaWhatsapp = c.shop.linksOnWhatsapp ? whatsappLinkTemplate({ shop: shopNameOf(c), order: c.orderName ?? "", link: rungLink(c) }, localesOf(c)) : null;
  return sendRungText(c, allowed, { whatsapp: viaWhatsapp, question: false });
}

const shopNameOf = (c: LadderConfirmation) => c.shop.name ?? c.shop.domain;
const rungLink = (c: LadderConfirmation) => confirmationLink(c.shop, linkToken(c.id));

/**
 * What the two text rungs share: the confirmation link's SMS, or a WhatsApp template with the SMS as its
 * fallback, and the confirmation marked with what went: `whatsappAt` when the question was asked on WhatsApp,
 * `smsLinkAt` when the link went (by SMS, or on WhatsApp's link template).
 */
async function sendRungText(c: LadderConfirmation, allowed: Allowed, message: { whatsapp: WhatsappTemplate | null; question: boolean }): Promise<Sent> {
  const result = await sendSms({
    shop: shopOf(c),
    to: c.phone!,
    body: confirmationSms(localesOf(c), { shop: shopNameOf(c), order: c.orderName ?? "", link: rungLink(c) }),
    channel: message.whatsapp ? "whatsapp" : "sms",
    whatsapp: message.whatsapp,
    sealFallback: false,
    purpose: "order_confirmation",
    orderGid: c.orderGid,
    countWhenSent: allowed.countWhenSent,
  });
  if (!result.ok) return { ok: false, error: `${result.code}: ${result.detail}`, retry: result.code === "sms_unavailable", maybeSent: result.maybeSent };
  const now = clock.now();
  const asked = message.question && result.channel === "whatsapp";
  await prisma.orderConfirmation.update({ where: { id: c.id }, data: { notifiedAt: now, ...(asked ? { whatsappAt: now } : { smsLinkAt: now }) } });
  return { ok: true, detail: message.question && !asked ? "WhatsApp refused: the link went by SMS" : undefined };
}

/** The voice rung: a call that asks for one key (answered through POST /twilio/voice/gather). */
async function callShopper(c: LadderConfirmation, allowed: Allowed): Promise<Sent> {
  const prompt = voicePrompt(localesOf(c), { shop: c.shop.name ?? c.shop.domain, order: c.orderName ?? "", amount: await amountDue(c) });
  const result = await placeCall({ shop: shopOf(c), to: c.phone!, twiml: questionTwiml(prompt, voiceLine(localesOf(c), "noInput")), purpose: "order_confirmation", orderGid: c.orderGid, countWhenSent: allowed.countWhenSent });
  if (!result.ok) {
    // No caller ID configured: the rung cannot be climbed here, so it is skipped. Twilio unreachable: retried.
    // Twilio silent (the call may be ringing already): not retried, as a second call is worse than none.
    const noCaller = /no voice caller ID/.test(result.detail);
    const retry = result.code === "voice_unavailable" && !noCaller && !result.maybeSent;
    return { ok: false, error: result.maybeSent ? `outcome unknown: ${result.detail}` : result.detail, retry, skip: noCaller, maybeSent: result.maybeSent };
  }
  return { ok: true, providerId: result.sid };
}

/**
 * The last rung: the order joins the merchant's "needs a person" queue (app/orders/confirmation/person-queue.server.ts).
 * `why`: it came early, because the shop could text or call no more (the person rung's row says so, once).
 */
async function queueForPerson(c: LadderConfirmation, id: string, now: Date, why?: string): Promise<JobResult> {
  await prisma.orderConfirmation.updateMany({ where: { id: c.id, status: "pending", personAt: null }, data: { personAt: now } });
  if (why) {
    await execute(sql`
      INSERT INTO "ConfirmationRung" ("id", "confirmationId", "shopId", "rung", "state", "detail", "dueAt", "sentAt", "createdAt")
      VALUES (${id}, ${c.id}, ${c.shopId}, 'person', 'queued', ${`early: ${why}`.slice(0, 200)}, ${now}, ${now}, ${now})
      ON CONFLICT ("id") DO NOTHING`);
  }
  await prisma.confirmationRung.updateMany({ where: { id, state: "due" }, data: { state: "queued", sentAt: now } });
  log.info("confirmation ladder: the order needs a person", { shop: c.shop.domain, orderGid: c.orderGid, why });
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------
// Answers

export type SettleStatus = "confirmed" | "cancelled";

/**
 * Settles a pending confirmation by a rung's answer, once: one conditional UPDATE (`status` = pending,
 * deadline not passed), so of two answers at once only one changes it. True when this call settled it;
 * its effects (tags, holds, the cancel) are then queued.
 */
export async function settleByRung(c: Pick<Confirmation, "id" | "shopId" | "orderGid">, shopDomain: string, status: SettleStatus, by: Rung): Promise<boolean> {
  const now = clock.now();
  const rows =
    status === "confirmed"
      ? await query<{ id: string }>(sql`
          UPDATE "OrderConfirmation" SET "status" = 'confirmed', "confirmedAt" = ${now}, "settledBy" = ${by}, "updatedAt" = ${now}
          WHERE "id" = ${c.id} AND "status" = 'pending' AND "deadlineAt" > ${now}
          RETURNING "id"`)
      : await query<{ id: string }>(sql`
          UPDATE "OrderConfirmation" SET "status" = 'cancelled', "closedAt" = ${now}, "settledBy" = ${by}, "updatedAt" = ${now}
          WHERE "id" = ${c.id} AND "status" = 'pending' AND "deadlineAt" > ${now}
          RETURNING "id"`);
  if (!rows.length) return false;
  await settleOrderRecord(c.shopId, c.orderGid, status);
  await scheduleConfirmationStep(shopDomain, c, status, now);
  // Shopify Flow: the rung that settled it (a key on the call, or the merchant after talking to the shopper).
  await enqueueFlowTrigger(shopDomain, c.orderGid, "answered", { answer: status, channel: by });
  log.info("confirmation ladder: settled", { shop: shopDomain, orderGid: c.orderGid, status, by });
  return true;
}

/** The address-correction link by text, for a key 3 on the call or the merchant's click (one per source and order). */
const addressLinkPayload = z.object({ confirmationId: z.string().min(1), source: z.enum(["voice", "person"]) });
export const addressLinkJob = defineJob({
  kind: "order-confirmation.address-link",
  payload: addressLinkPayload,
  merge: (queued, incoming) => (incoming.source !== queued.source ? incoming : null),
  run: async ({ confirmationId, source }): Promise<JobResult> => {
    const c = await prisma.orderConfirmation.findUnique({ where: { id: confirmationId }, include: { shop: true } });
    if (!c || c.shop.uninstalledAt) return { ok: true };
    const sent = await requestAddressCorrection(c.shop, { orderId: c.orderGid, locale: c.locale ?? undefined }, { source });
    if (!sent.ok && (sent.code === "sms_unavailable" || sent.code === "shopify_unavailable")) return { ok: false, error: sent.code, retry: true };
    if (!sent.ok) log.info("confirmation ladder: no address link", { shop: c.shop.domain, orderGid: c.orderGid, code: sent.code });
    return { ok: true };
  },
});

export async function queueAddressLink(shopDomain: string, c: Pick<Confirmation, "id" | "orderGid">, source: "voice" | "person") {
  await enqueueJob(addressLinkJob, { shop: shopDomain, key: orderJobKey(shopDomain, c.orderGid), payload: { confirmationId: c.id, source } });
}

const KEYS: Record<string, "confirm" | "cancel" | "address" | "stop"> = { "1": "confirm", "2": "cancel", "3": "address", "9": "stop" };

export type CallAnswer = { twiml: string; outcome: "confirmed" | "cancelled" | "address_link" | "opted_out" | "settled" | "again" | "duplicate" | "unknown_call" };

/**
 * The key the shopper pressed on the call (Twilio's <Gather> action, signature checked by the route). One
 * key per call: the rung leaves `sent` once (a replayed request finds it answered and changes nothing).
 * 1 confirms, 2 cancels (the first answer on any rung wins), 3 texts the address link, 9 stops calls.
 */
export async function answerCall(callSid: string, digits: string): Promise<CallAnswer> {
  const row = await prisma.confirmationRung.findUnique({ where: { providerId: callSid }, include: { confirmation: { include: { shop: true } } } });
  if (!row) return { outcome: "unknown_call", twiml: sayAndHangUp(voiceLine([], "noInput")) };
  const c = row.confirmation;
  const locales = localesOf(c);
  const key = KEYS[digits];
  if (!key) {
    const prompt = voicePrompt(locales, { shop: c.shop.name ?? c.shop.domain, order: c.orderName ?? "", amount: await amountDue(c) });
    return { outcome: "again", twiml: questionTwiml(prompt, voiceLine(locales, "noInput")) };
  }
  const now = clock.now();
  const claimed = await query<{ id: string }>(sql`
    UPDATE "ConfirmationRung" SET "state" = 'answered', "detail" = ${digits}, "endedAt" = ${now}
    WHERE "id" = ${row.id} AND "state" = 'sent'
    RETURNING "id"`);
  if (!claimed.length) return { outcome: "duplicate", twiml: sayAndHangUp(voiceLine(locales, "settled")) };
  if (key === "stop") {
    await recordOptOut(c.shopId, c.phone!, "voice", "voice_digit");
    const ladder = parseLadder(c.ladder);
    if (ladder && stateOf(c, now) === "pending") await bringNextRungForward(c.shop.domain, c, ladder, "voice");
    return { outcome: "opted_out", twiml: sayAndHangUp(voiceLine(locales, "optedOut")) };
  }
  if (key === "address") {
    if (stateOf(c, now) !== "pending") return { outcome: "settled", twiml: sayAndHangUp(voiceLine(locales, "settled")) };
    await queueAddressLink(c.shop.domain, c, "voice");
    return { outcome: "address_link", twiml: sayAndHangUp(voiceLine(locales, "address")) };
  }
  const status: SettleStatus = key === "confirm" ? "confirmed" : "cancelled";
  const settled = await settleByRung(c, c.shop.domain, status, "voice");
  if (!settled) return { outcome: "settled", twiml: sayAndHangUp(voiceLine(locales, "settled")) };
  return { outcome: status, twiml: sayAndHangUp(voiceLine(locales, status)) };
}

/** Twilio's call states; the last five end the call. */
export const CALL_STATES = ["queued", "initiated", "ringing", "in-progress", "completed", "busy", "no-answer", "failed", "canceled"] as const;
export type CallState = (typeof CALL_STATES)[number];
const ENDED: Partial<Record<CallState, string>> = { busy: "busy", "no-answer": "no_answer", failed: "failed", canceled: "failed" };

export type CallStatusOutcome = { known: false } | { known: true; outcome: "recorded" | "advanced" | "unchanged" };

/**
 * Twilio's report on a call (POST /twilio/voice/status): the answering machine detection's verdict
 * (AnsweredBy, kept on the rung), then the end of the call. A call that ended without a key (no answer,
 * busy, failed, or completed by an answering machine or without a key) ends its rung once, and the next
 * rung comes now. A replayed report finds the rung ended and changes nothing.
 */
export async function recordCallStatus(update: { callSid: string; status: CallState | null; answeredBy: string | null }): Promise<CallStatusOutcome> {
  const row = await prisma.confirmationRung.findUnique({ where: { providerId: update.callSid }, include: { confirmation: { include: { shop: true } } } });
  if (update.status) {
    await prisma.messageDelivery.updateMany({ where: { providerId: update.callSid, channel: "voice", status: { notIn: ["completed", "busy", "no-answer", "failed", "canceled"] } }, data: { status: update.status } });
  }
  if (!row) return { known: false };
  const now = clock.now();
  if (update.answeredBy) {
    await prisma.confirmationRung.updateMany({ where: { id: row.id, state: "sent", detail: null }, data: { detail: `answered by ${update.answeredBy}`.slice(0, 200) } });
  }
  const ended = update.status === "completed" ? "completed" : update.status ? ENDED[update.status] : undefined;
  if (!ended) return { known: true, outcome: "recorded" };
  const machine = /machine|fax/.test(update.answeredBy ?? "") || /answered by (machine|fax)/.test(row.detail ?? "");
  const state = ended === "completed" ? (machine ? "voicemail" : "no_answer") : ended;
  const moved = await prisma.confirmationRung.updateMany({ where: { id: row.id, state: "sent" }, data: { state, endedAt: now } });
  if (moved.count !== 1) return { known: true, outcome: "unchanged" };
  const c = row.confirmation;
  const ladder = parseLadder(c.ladder);
  if (ladder && stateOf(c, now) === "pending") await bringNextRungForward(c.shop.domain, c, ladder, "voice");
  log.info("confirmation ladder: the call ended without a key", { shop: c.shop.domain, orderGid: c.orderGid, state });
  return { known: true, outcome: "advanced" };
}
