import { z } from "zod";
import { execute, query, sql } from "~/core/db/sql.server";
import { prisma } from "~/core/db.server";
import { defineJob, enqueueJob, orderJobKey, type JobResult } from "~/core/jobs/queue.server";
import { hitRateLimit, releaseRateLimit, type RateLimitResult } from "~/core/rate-limit/rate-limit.server";
import { hasActiveSubscription, type Shop } from "~/core/settings/shop.server";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import { requestAddressCorrection } from "~/address-correction/address-correction.server";
import { verificationStatus } from "~/enforcement/pause.server";
import { settleOrderRecord } from "~/orders/order-record.server";
import { dailyCapKey } from "~/otp/otp.server";
import { maskPhone } from "~/shared/phone-mask";
import { sendSms } from "~/sms/sms.server";
import { placeCall, questionTwiml, sayAndHangUp } from "~/sms/voice.server";
import { whatsappConfirmTemplate, whatsappLinkTemplate } from "~/sms/whatsapp";
import { confirmationLink, linkToken, scheduleConfirmationStep, stateOf, type Confirmation } from "./confirmation.server";
import { parseLadder, quietUntil, RUNGS, voiceLine, voicePrompt, type Rung } from "./ladder";
import { bringNextRungForward, isOptedOut, moveRungJob, RUNG_JOBS } from "./ladder-jobs.server";
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
 *   a blocked number, a shop without plan or allowance, past its daily cap or the per-number limit gets no
 *   text or call: the rung is skipped and the next one comes now.
 */
type LadderConfirmation = Confirmation & { shop: Shop };

export const LADDER_JOBS = RUNGS.map((rung) => defineJob({ ...RUNG_JOBS[rung], run: ({ confirmationId }) => runRung(confirmationId, rung) }));

/** Texts and calls of the ladder to one number, whatever the orders, per 24 hours. */
export const LADDER_CONTACTS_PER_NUMBER = 6;
const contactKey = (shopId: string, phone: string) => `ladder-contact:${shopId}:${phone}`;

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
  const guard = await contactGuard(c.shop, c.phone, rung, now);
  if (!guard.ok) {
    await endRung(id, "skipped", guard.reason);
    await bringNextRungForward(c.shop.domain, c, ladder, rung);
    return { ok: true };
  }
  const sent = rung === "whatsapp" ? await askOnWhatsapp(c) : rung === "sms" ? await sendLink(c) : await callShopper(c);
  // Twilio refused the text because the number replied STOP to the sender (21610): the ladder remembers it.
  if (!sent.ok && /code 21610\b/.test(sent.error)) await recordOptOut(c.shopId, c.phone, "all", "twilio_21610");
  if (sent.ok) {
    await prisma.confirmationRung.updateMany({ where: { id, state: "due" }, data: { state: "sent", sentAt: clock.now(), providerId: sent.providerId ?? null, detail: sent.detail ?? null } });
    return { ok: true };
  }
  // Nothing went: the counters get their hits back.
  for (const { key, hit } of guard.hits) await releaseRateLimit(key, hit);
  if (sent.retry) return { ok: false, error: sent.error, retry: true };
  await endRung(id, sent.skip ? "skipped" : "failed", sent.error);
  await bringNextRungForward(c.shop.domain, c, ladder, rung);
  return { ok: true };
}

async function endRung(id: string, state: string, detail: string): Promise<JobResult> {
  await prisma.confirmationRung.updateMany({ where: { id, state: "due" }, data: { state, detail: detail.slice(0, 200), endedAt: clock.now() } });
  return { ok: true };
}

type Guard = { ok: true; hits: { key: string; hit: RateLimitResult }[] } | { ok: false; reason: string };

/**
 * Whether the ladder may text or call this number now: not opted out (all, or voice for a call), not
 * blocked, the shop on a plan with allowance left (texts and calls are the plan's like codes are), then
 * the per-number limit and the shop's daily cap (the codes' own counter), each one atomic hit.
 */
async function contactGuard(shop: Shop, phone: string, rung: Rung, now: Date): Promise<Guard> {
  if (await isOptedOut(shop.id, phone, rung === "voice")) return { ok: false, reason: "opted_out" };
  if (await prisma.blockedPhone.findUnique({ where: { shopId_phone: { shopId: shop.id, phone } }, select: { phone: true } })) return { ok: false, reason: "phone_blocked" };
  if (!hasActiveSubscription(shop)) return { ok: false, reason: "subscription_required" };
  const status = await verificationStatus(shop, now);
  if (status.pause) return { ok: false, reason: status.pause };
  const hits: { key: string; hit: RateLimitResult }[] = [];
  const perNumber = await hitRateLimit(contactKey(shop.id, phone), LADDER_CONTACTS_PER_NUMBER, 86_400);
  hits.push({ key: contactKey(shop.id, phone), hit: perNumber });
  if (!perNumber.allowed) {
    await releaseRateLimit(contactKey(shop.id, phone), perNumber);
    return { ok: false, reason: "rate_limited" };
  }
  const daily = await hitRateLimit(dailyCapKey(shop.id, now), shop.dailySendCap, 86_400);
  hits.push({ key: dailyCapKey(shop.id, now), hit: daily });
  if (!daily.allowed) {
    for (const { key, hit } of hits) await releaseRateLimit(key, hit);
    return { ok: false, reason: "shop_daily_cap" };
  }
  return { ok: true, hits };
}

type Sent = { ok: true; providerId?: string; detail?: string } | { ok: false; error: string; retry: boolean; skip?: boolean };

const shopOf = (c: LadderConfirmation) => ({ id: c.shop.id, name: c.shop.name, domain: c.shop.domain });
const localesOf = (c: LadderConfirmation) => [c.locale, c.shop.locale];

/** The amount to pay on delivery, as the order recorded it ("1299.00 INR"), or null. */
async function amountDue(c: LadderConfirmation): Promise<string | null> {
  const record = await prisma.orderRecord.findUnique({ where: { shopId_orderGid: { shopId: c.shopId, orderGid: c.orderGid } }, select: { value: true } });
  return record?.value != null ? `${record.value.toFixed(2)}${c.shop.currency ? ` ${c.shop.currency}` : ""}` : null;
}

/** The WhatsApp rung: the question with Confirm / Cancel / Change address (answered through POST /twilio/whatsapp). */
async function askOnWhatsapp(c: LadderConfirmation): Promise<Sent> {
  const shopName = c.shop.name ?? c.shop.domain;
  const summary = confirmationSummary(localesOf(c), { order: c.orderName ?? "", amount: await amountDue(c) });
  const template = whatsappConfirmTemplate({ shop: shopName, order: c.orderName ?? "", summary }, localesOf(c));
  if (!template) return { ok: false, error: "no WhatsApp confirmation template", retry: false, skip: true };
  const link = confirmationLink(c.shop, linkToken(c.id));
  const result = await sendSms({
    shop: shopOf(c),
    to: c.phone!,
    body: confirmationSms(localesOf(c), { shop: shopName, order: c.orderName ?? "", link }),
    channel: "whatsapp",
    whatsapp: template,
    sealFallback: false,
    purpose: "order_confirmation",
    orderGid: c.orderGid,
  });
  if (!result.ok) return { ok: false, error: `${result.code}: ${result.detail}`, retry: result.code === "sms_unavailable" };
  const now = clock.now();
  const onWhatsapp = result.channel === "whatsapp";
  await prisma.orderConfirmation.update({ where: { id: c.id }, data: { notifiedAt: now, ...(onWhatsapp ? { whatsappAt: now } : { smsLinkAt: now }) } });
  return { ok: true, detail: onWhatsapp ? undefined : "WhatsApp refused: the link went by SMS" };
}

/** The SMS rung: the link to the confirmation page (on WhatsApp's link template when the shop sends links there). */
async function sendLink(c: LadderConfirmation): Promise<Sent> {
  const shopName = c.shop.name ?? c.shop.domain;
  const link = confirmationLink(c.shop, linkToken(c.id));
  const viaWhatsapp = c.shop.linksOnWhatsapp ? whatsappLinkTemplate({ shop: shopName, order: c.orderName ?? "", link }, localesOf(c)) : null;
  const result = await sendSms({
    shop: shopOf(c),
    to: c.phone!,
    body: confirmationSms(localesOf(c), { shop: shopName, order: c.orderName ?? "", link }),
    channel: viaWhatsapp ? "whatsapp" : "sms",
    whatsapp: viaWhatsapp,
    sealFallback: false,
    purpose: "order_confirmation",
    orderGid: c.orderGid,
  });
  if (!result.ok) return { ok: false, error: `${result.code}: ${result.detail}`, retry: result.code === "sms_unavailable" };
  const now = clock.now();
  await prisma.orderConfirmation.update({ where: { id: c.id }, data: { notifiedAt: now, smsLinkAt: now } });
  return { ok: true };
}

/** The voice rung: a call that asks for one key (answered through POST /twilio/voice/gather). */
async function callShopper(c: LadderConfirmation): Promise<Sent> {
  const prompt = voicePrompt(localesOf(c), { shop: c.shop.name ?? c.shop.domain, order: c.orderName ?? "", amount: await amountDue(c) });
  const result = await placeCall({ shop: shopOf(c), to: c.phone!, twiml: questionTwiml(prompt, voiceLine(localesOf(c), "noInput")), purpose: "order_confirmation", orderGid: c.orderGid });
  if (!result.ok) {
    // No caller ID configured: the rung cannot be climbed here, so it is skipped. Twilio unreachable: retried.
    // Twilio silent (the call may be ringing already): not retried, as a second call is worse than none.
    const noCaller = /no voice caller ID/.test(result.detail);
    const retry = result.code === "voice_unavailable" && !noCaller && !result.maybeSent;
    return { ok: false, error: result.maybeSent ? `outcome unknown: ${result.detail}` : result.detail, retry, skip: noCaller };
  }
  return { ok: true, providerId: result.sid };
}

/** The last rung: the order joins the merchant's "needs a person" queue (app/orders/confirmation/person-queue.server.ts). */
async function queueForPerson(c: LadderConfirmation, id: string, now: Date): Promise<JobResult> {
  await prisma.orderConfirmation.updateMany({ where: { id: c.id, status: "pending", personAt: null }, data: { personAt: now } });
  await prisma.confirmationRung.updateMany({ where: { id, state: "due" }, data: { state: "queued", sentAt: now } });
  log.info("confirmation ladder: the order needs a person", { shop: c.shop.domain, orderGid: c.orderGid });
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

/** A number asked the shop to stop (`all`) or not to call (`voice`): recorded once. */
export async function recordOptOut(shopId: string, phone: string, channel: "all" | "voice", source: string): Promise<void> {
  await execute(sql`
    INSERT INTO "ContactOptOut" ("shopId", "phone", "channel", "source", "createdAt") VALUES (${shopId}, ${phone}, ${channel}, ${source}, ${clock.now()})
    ON CONFLICT ("shopId", "phone", "channel") DO NOTHING`);
  log.info("confirmation ladder: the number asked not to be contacted", { shopId, phone: maskPhone(phone), channel, source });
}

/** Twilio's opt-out keywords (Advanced Opt-Out's defaults) but CANCEL, which a shopper types about the order. */
const STOP_WORDS = new Set(["stop", "stopall", "unsubscribe", "end", "quit", "optout", "revoke"]);

export function isStopMessage(body: string | null | undefined): boolean {
  return STOP_WORDS.has((body ?? "").trim().toLowerCase().replace(/[.!]+$/, ""));
}

/**
 * A shopper wrote STOP to the WhatsApp sender: every shop that messaged the number records it, so the
 * ladder sends it nothing more. `From` may be a business-scoped id rather than a phone: nothing to record.
 */
export async function optOutByMessage(from: string): Promise<number> {
  const phone = from.replace(/^whatsapp:/, "");
  if (!/^\+[1-9]\d{6,14}$/.test(phone)) return 0;
  const shops = await prisma.messageDelivery.findMany({ where: { phone }, distinct: ["shopId"], select: { shopId: true }, take: 50 });
  for (const { shopId } of shops) await recordOptOut(shopId, phone, "all", "whatsapp_stop");
  return shops.length;
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
