import crypto from "node:crypto";
import { z } from "zod";
import { query, sql, toBoolean, toDate, type Sql } from "~/core/db/sql.server";
import { prisma } from "~/core/db.server";
import { env } from "~/core/env.server";
import { ORDER_CANCEL } from "~/core/shopify/operations";
import { checkVerificationCode, sendVerificationCode, type SendOutcome, type VerifyOutcome } from "~/otp/otp.server";
import { hasActiveSubscription, type Shop } from "~/core/settings/shop.server";
import { sendSms } from "~/sms/sms.server";
import { takePhoneText } from "~/sms/phone-cap.server";
import { clock } from "~/core/utils/clock.server";
import { keyedHash } from "~/core/utils/crypto.server";
import { log } from "~/core/utils/log.server";
import { enqueueCustomerVerifiedTag, enqueueOrderTags } from "~/orders/tag-jobs.server";
import { enqueueFlowTrigger } from "~/flow/trigger-jobs.server";
import { settleOrderRecord } from "~/orders/order-record.server";
import { queuePrepaidOfferAfterConfirmation } from "~/orders/prepaid-offer.server";
import { defineJob, enqueueJob, orderJobKey, planJob, type JobResult, type PlannedJob } from "~/core/jobs/queue.server";
import { CONFIRMATION_ESCALATE } from "~/message-status/confirmation-escalation.server";
import { admin, fail, holdFulfillment, readOrderState, releaseOurHolds, userErrors, type StepResult } from "./holds.server";
import { whatsappConfirmTemplate, whatsappLinkTemplate } from "~/sms/whatsapp";
import { confirmationSms, confirmationSummary, NO_PHONE_TAG, PENDING_TAG, SHOPPER_CANCELLED_TAG, UNCONFIRMED_TAG } from "./texts";
import { confirmedByTag, parseLadder, shopLadder, type Rung } from "./ladder";
import { advanceLadder, ladderJobs } from "./ladder-jobs.server";
import { isOptedOut } from "~/sms/opt-out.server";

/**
 * Verification after purchase. A cash-on-delivery order that arrives without a matching verification
 * gets a confirmation: tagged `cod-pending`, its fulfillment held if the merchant wants it, and the
 * shopper texted a link to /apps/<subpath>/vc/<token> where they confirm the order's phone with a
 * one-time code. Confirmed: the verified tag, the hold released. Not by the deadline: `cod-unconfirmed`,
 * and the order cancelled if the merchant enabled it, unless it had no phone to text (then it is tagged
 * `cod-no-phone` at once and left to the merchant). Each step is a durable job, safe to run twice.
 */
export type Confirmation = NonNullable<Awaited<ReturnType<typeof prisma.orderConfirmation.findUnique>>>;
export type ConfirmationStep = "notify" | "hold" | "deadline" | "confirmed" | "escalate" | "cancelled";

/**
 * The steps as background jobs (app/core/jobs): one kind per step, keyed by the order (so customers/redact
 * deletes them with the order's other jobs), payload the confirmation's id. Each step reads the row
 * again and does only what is left, so it is safe to run twice.
 */
const stepPayload = z.object({ confirmationId: z.string().min(1), resendAt: z.string().max(40).optional() });
type StepPayload = z.infer<typeof stepPayload>;
const stepJob = (step: ConfirmationStep, merge?: (queued: StepPayload, incoming: StepPayload) => StepPayload | null) =>
  defineJob({
    kind: `order-confirmation.${step}`,
    payload: stepPayload,
    run: async ({ confirmationId }): Promise<JobResult> => stepResult(await runConfirmationStep(confirmationId, step)),
    merge,
  });
function stepResult(result: Awaited<ReturnType<typeof runConfirmationStep>>): JobResult {
  return result.ok ? { ok: true } : { ok: false, error: result.error, retry: result.retry };
}
const JOBS = {
  // The merchant's "resend" makes the order's one notify job due again (resendConfirmation): one row,
  // so however many clicks arrive, the sends run one after another and notify's own check sends once.
  notify: stepJob("notify", (queued, incoming) => (incoming.resendAt && incoming.resendAt !== queued.resendAt ? incoming : null)),
  hold: stepJob("hold"),
  deadline: stepJob("deadline"),
  confirmed: stepJob("confirmed"),
  // No answer on WhatsApp within the shop's window, or its message reported failed: the SMS link
  // (declared with the status callback, which makes it due at once: app/message-status).
  escalate: defineJob({ ...CONFIRMATION_ESCALATE, run: async ({ confirmationId }): Promise<JobResult> => stepResult(await runConfirmationStep(confirmationId, "escalate")) }),
  // The shopper pressed Cancel on WhatsApp: tagged, and cancelled when the shop allows it.
  cancelled: stepJob("cancelled"),
};
/** The kinds the worker runs (app/server-build.ts JOB_KINDS). */
export const CONFIRMATION_JOBS = Object.values(JOBS);

export async function scheduleConfirmationStep(shop: string, c: Pick<Confirmation, "id" | "orderGid">, step: ConfirmationStep, at: Date) {
  await enqueueJob(JOBS[step], { shop, key: orderJobKey(shop, c.orderGid), payload: { confirmationId: c.id }, runAt: at });
}

type ConfirmationShop = Pick<
  Shop,
  | "id"
  | "domain"
  | "name"
  | "locale"
  | "currency"
  | "otpEnabled"
  | "subscriptionStatus"
  | "holdUnverifiedCod"
  | "confirmDeadlineHours"
  | "cancelUnconfirmed"
  | "uninstalledAt"
  | "tagOrders"
  | "whatsappConfirmation"
  | "whatsappReplyMinutes"
  | "cancelOnWhatsappCancel"
  | "linksOnWhatsapp"
  | "linkDomain"
  | "prepaidOffer"
  | "ladderWhatsappMinutes"
  | "ladderSmsMinutes"
  | "ladderVoiceMinutes"
  | "ladderPersonMinutes"
>;

/** Whether a verified COD order is asked on WhatsApp too (the shop's "every COD order"): a courtesy confirmation. */
export function asksVerifiedOrders(shop: Pick<Shop, "whatsappConfirmation" | "otpEnabled" | "subscriptionStatus" | "uninstalledAt">): boolean {
  return shop.whatsappConfirmation === "all" && confirmsAfterPurchase(shop);
}

/** The link's token: derived from the confirmation's id under the app's secret, so a retried SMS job can rebuild it; only its hash is stored. */
export function linkToken(confirmationId: string): string {
  return crypto.createHmac("sha256", env.OTP_HASH_SECRET).update(`order-confirmation-link\0${confirmationId}`).digest("base64url").slice(0, 32);
}

export function hashLinkToken(token: string): string {
  return keyedHash("order-confirmation-token", token);
}

/** The link in the SMS (the storefront's app proxy; the local server's emulation in local mode). */
export function confirmationLink(shop: Pick<Shop, "domain" | "linkDomain">, token: string): string {
  const origin = env.localMode ? env.SHOPIFY_APP_URL.replace(/\/$/, "") : `https://${shop.linkDomain ?? shop.domain}`;
  return `${origin}${env.proxyBasePath}/vc/${token}`;
}

/** Whether an unverified COD order goes to verification after purchase: the shop verifies phones and its plan is active. */
export function confirmsAfterPurchase(shop: Pick<Shop, "otpEnabled" | "subscriptionStatus" | "uninstalledAt">): boolean {
  return shop.otpEnabled && hasActiveSubscription(shop) && !shop.uninstalledAt;
}

/**
 * Opens the confirmation of an order (once: a redelivery finds the same row) and schedules its steps:
 * the SMS now, the hold now if the shop holds unverified orders, the deadline at `deadlineAt`.
 * A redelivery schedules the existing row's steps again: the insert and the scheduling are separate
 * statements, so a process stopped between them leaves a row without jobs, and the delivery, not yet
 * recorded, comes back. Scheduling is idempotent on the job's (kind, key) and every step reads the row
 * and does only what is left, so scheduling again is harmless.
 */
export async function openConfirmation(
  shop: ConfirmationShop,
  order: ConfirmationOrder,
  kind: "verify" | "courtesy" = "verify",
): Promise<{ id: string; opened: boolean }> {
  const now = clock.now();
  const opening = confirmationOpening(shop, order, kind, now);
  // One direct statement (app/core/db/sql.server.ts), idempotent on the order, so a redelivery opens nothing twice.
  const inserted = await query<{ id: string }>(opening.insert());
  if (!inserted.length) return { id: (await scheduleExistingConfirmation(shop, order.gid, now)) ?? opening.row.id, opened: false };
  await scheduleSteps(shop, opening.row, now);
  opening.logOpened();
  return { id: opening.row.id, opened: true };
}

export type ConfirmationOrder = { gid: string; name: string | null; phone: string | null; customerGid?: string | null; locale?: string | null };
type StepRow = Pick<Confirmation, "id" | "orderGid" | "phone" | "hold" | "deadlineAt" | "kind" | "ladder" | "createdAt">;

/**
 * A confirmation about to be opened: its row, the insert that opens it (`INSERT ... ON CONFLICT DO NOTHING
 * RETURNING "id"`: no row back when the order has one already; with `source`, only when the source has a
 * row, a step of a data-modifying CTE) and the steps to schedule once it is open (`confirmationSteps`).
 * orders/create opens it in the statement that writes the rest of the order (app/orders/order-created-write.server.ts).
 */
export function confirmationOpening(shop: ConfirmationShop, order: ConfirmationOrder, kind: "verify" | "courtesy", now: Date) {
  // A courtesy confirmation (a verified order asked on WhatsApp) never holds the order.
  const holds = kind === "verify" && shop.holdUnverifiedCod;
  const id = crypto.randomUUID().replace(/-/g, "");
  const deadlineAt = new Date(now.getTime() + shop.confirmDeadlineHours * 3600_000);
  // The shop's ladder, kept with the confirmation: a later change of the settings leaves it as it was.
  const steps = kind === "verify" ? shopLadder(shop) : null;
  const ladder = steps ? JSON.stringify(steps) : null;
  const row: StepRow = { id, orderGid: order.gid, phone: order.phone, hold: holds, deadlineAt, kind, ladder, createdAt: now };
  const values = sql`${id}, ${shop.id}, ${order.gid}, ${order.name}, ${order.customerGid ?? null}, ${order.phone}, ${hashLinkToken(linkToken(id))},
      'pending', ${holds}, ${order.locale ?? null}, ${deadlineAt}, ${kind}, ${ladder}, ${now}, ${now}`;
  return {
    row,
    insert: (source?: Sql) => sql`
    INSERT INTO "OrderConfirmation" ("id", "shopId", "orderGid", "orderName", "customerGid", "phone", "tokenHash", "status", "hold",
      "locale", "deadlineAt", "kind", "ladder", "createdAt", "updatedAt")
    ${source ? sql`SELECT ${values} ${source}` : sql`VALUES (${values})`}
    ON CONFLICT ("shopId", "orderGid") DO NOTHING
    RETURNING "id"`,
    steps: confirmationSteps(shop, row, now),
    logOpened: () =>
      log.info("order confirmation opened", {
        shop: shop.domain,
        orderGid: order.gid,
        kind,
        hold: holds,
        phone: Boolean(order.phone),
        deadlineAt: deadlineAt.toISOString(),
      }),
  };
}

/** The order's confirmation was opened before (a redelivery): its steps scheduled again from its row. Null: it is gone (customers/redact). */
export async function scheduleExistingConfirmation(shop: ConfirmationShop, orderGid: string, now = clock.now()): Promise<string | null> {
  const [existing] = await query<{ id: string; phone: string | null; hold: unknown; deadlineAt: unknown; kind: string; ladder: string | null; createdAt: unknown }>(sql`
    SELECT "id", "phone", "hold", "deadlineAt", "kind", "ladder", "createdAt" FROM "OrderConfirmation" WHERE "shopId" = ${shop.id} AND "orderGid" = ${orderGid}`);
  if (!existing) return null; // deleted meanwhile (customers/redact): nothing to schedule
  const row = { id: existing.id, orderGid, phone: existing.phone, hold: toBoolean(existing.hold), deadlineAt: toDate(existing.deadlineAt), kind: existing.kind };
  await scheduleSteps(shop, { ...row, ladder: existing.ladder, createdAt: toDate(existing.createdAt) }, now);
  return existing.id;
}

/**
 * A confirmation's steps, from its row: the jobs (the text now when it has a phone, or with a ladder each
 * rung at its delay (./ladder.server.ts); the hold now when it holds; the deadline) and the order's tags (`cod-no-phone` when there is no phone to text: the shopper
 * cannot confirm, so the merchant is told on the order and the deadline cancels nothing).
 */
export function confirmationSteps(shop: Pick<Shop, "domain" | "tagOrders">, c: StepRow, now: Date): { jobs: PlannedJob[]; tags: string[] } {
  const step = (name: ConfirmationStep, at: Date) => planJob(JOBS[name], { shop: shop.domain, key: orderJobKey(shop.domain, c.orderGid), payload: { confirmationId: c.id }, runAt: at });
  const ladder = parseLadder(c.ladder);
  const contact = !c.phone ? [] : ladder ? ladderJobs(shop.domain, c, ladder, c.createdAt) : [step("notify", now)];
  return {
    jobs: [...contact, ...(c.hold ? [step("hold", now)] : []), step("deadline", c.deadlineAt)],
    tags: !c.phone && shop.tagOrders && c.kind === "verify" ? [NO_PHONE_TAG] : [],
  };
}

/** A confirmation's steps, from its row (a job already queued for a step is left as it is). */
async function scheduleSteps(shop: ConfirmationShop, c: StepRow, now: Date) {
  const { jobs, tags } = confirmationSteps(shop, c, now);
  await enqueueOrderTags(shop.domain, c.orderGid, tags);
  for (const job of jobs) await enqueueJob(job.kind, job.input);
}

/** The merchant waits this long after a text before sending the link again (a double click sends one). */
export const RESEND_AFTER_MS = 60_000;

export type ResendOutcome = { ok: true; phone: string } | { ok: false; code: "not_pending" | "no_phone" | "recently_sent" };

/**
 * The Orders page's "resend the confirmation": the pending confirmation's link goes out again through
 * the notify job. One conditional statement clears `notifiedAt` (so notify sends) only for a pending
 * confirmation with a phone whose last text is older than RESEND_AFTER_MS.
 */
export async function resendConfirmation(shop: Pick<Shop, "id" | "domain">, orderGid: string): Promise<ResendOutcome> {
  const now = clock.now();
  const [reopened] = await query<{ id: string; phone: string }>(sql`
    UPDATE "OrderConfirmation" SET "notifiedAt" = NULL, "updatedAt" = ${now}
    WHERE "shopId" = ${shop.id} AND "orderGid" = ${orderGid} AND "status" = 'pending' AND "deadlineAt" > ${now} AND "phone" IS NOT NULL
      AND ("notifiedAt" IS NULL OR "notifiedAt" <= ${new Date(now.getTime() - RESEND_AFTER_MS)})
    RETURNING "id", "phone"`);
  if (reopened) {
    await enqueueJob(JOBS.notify, { shop: shop.domain, key: orderJobKey(shop.domain, orderGid), payload: { confirmationId: reopened.id, resendAt: now.toISOString() } });
    log.info("order confirmation resent by the merchant", { shop: shop.domain, orderGid });
    return { ok: true, phone: reopened.phone };
  }
  const c = await prisma.orderConfirmation.findFirst({ where: { shopId: shop.id, orderGid } });
  if (!c || stateOf(c, now) !== "pending") return { ok: false, code: "not_pending" };
  return { ok: false, code: c.phone ? "recently_sent" : "no_phone" };
}

/**
 * orders/cancelled: a confirmation still pending closes as cancelled (no answer recorded: the merchant or
 * Shopify cancelled it), so a later WhatsApp press or link answers that the order was cancelled, and the
 * deadline neither tags nor cancels it. One conditional statement; a redelivery changes nothing.
 */
export async function closeOnOrderCancelled(shopDomain: string, orderGid: string): Promise<boolean> {
  const now = clock.now();
  const shop = await prisma.shop.findUnique({ where: { domain: shopDomain }, select: { id: true } });
  if (!shop) return false;
  const { count } = await prisma.orderConfirmation.updateMany({
    where: { shopId: shop.id, orderGid, status: "pending" },
    data: { status: "cancelled", closedAt: now, cancelledAt: now },
  });
  return count > 0;
}

export type ConfirmationState = "pending" | "confirmed" | "unconfirmed" | "cancelled";

/**
 * A pending confirmation past its deadline reads as unconfirmed even before the deadline job ran. One the
 * shopper's online payment ended (`paid`: app/orders/prepaid-offer.server.ts) reads as confirmed to the shopper.
 */
export function stateOf(c: Pick<Confirmation, "status" | "deadlineAt">, now = clock.now()): ConfirmationState {
  if (c.status === "confirmed" || c.status === "paid") return "confirmed";
  if (c.status === "cancelled") return "cancelled";
  if (c.status === "unconfirmed" || c.deadlineAt.getTime() <= now.getTime()) return "unconfirmed";
  return "pending";
}

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

export async function findConfirmationByToken(shop: Pick<Shop, "id">, token: string): Promise<Confirmation | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  return prisma.orderConfirmation.findFirst({ where: { shopId: shop.id, tokenHash: hashLinkToken(token) } });
}

/** The hosted page's "send me a code": a one-time code to the order's phone, with send-otp's limits. */
export async function sendConfirmationCode(shop: Parameters<typeof sendVerificationCode>[0]["shop"], c: Confirmation, locale: string | null): Promise<SendOutcome> {
  if (!c.phone) return { ok: false, code: "phone_unreachable" };
  // No device token: after purchase the code is always asked for. A confirmation already open is never
  // stranded by a pause (the allowance used up, the plan ended, codes switched off): its code still goes.
  return sendVerificationCode({ shop, phone: c.phone, locale, afterPurchase: true });
}

export type ConfirmOutcome = VerifyOutcome | { ok: false; code: "closed" };

/** The hosted page's code: on success the confirmation is confirmed (once) and its effects scheduled. */
export async function confirmWithCode(shop: ConfirmationShop & { returningSkipDays: number }, c: Confirmation, otp: string): Promise<ConfirmOutcome> {
  if (!c.phone || stateOf(c) !== "pending") return { ok: false, code: "closed" };
  const verified = await checkVerificationCode({ shop, phone: c.phone, otp, recordSelection: false });
  if (!verified.ok) return verified;
  const now = clock.now();
  const { count } = await prisma.orderConfirmation.updateMany({
    where: { id: c.id, status: "pending", deadlineAt: { gt: now } },
    // The link's code: the SMS rung (whichever channel carried the link).
    data: { status: "confirmed", confirmedAt: now, settledBy: "sms" },
  });
  if (count !== 1) return { ok: false, code: "closed" };
  await settleOrderRecord(c.shopId, c.orderGid, "confirmed");
  await scheduleConfirmationStep(shop.domain, c, "confirmed", now);
  await enqueueFlowTrigger(shop.domain, c.orderGid, "answered", { answer: "confirmed", channel: "sms" });
  log.info("order confirmed after purchase", { shop: shop.domain, orderGid: c.orderGid });
  return verified;
}

// ---------------------------------------------------------------------------------------------
// The steps, run by the job worker. Each one reads the row again and does only what is left.

type StepShop = ConfirmationShop & Pick<Shop, "tagVerified" | "tagOrders">;

export async function runConfirmationStep(confirmationId: string, step: ConfirmationStep): Promise<StepResult> {
  const c = await prisma.orderConfirmation.findUnique({ where: { id: confirmationId }, include: { shop: true } });
  if (!c) return { ok: true, note: "confirmation deleted" };
  if (c.shop.uninstalledAt) return { ok: true, note: "app uninstalled" };
  switch (step) {
    case "notify":
      return notify(c.shop, c);
    case "hold":
      return hold(c.shop, c);
    case "deadline":
      return deadline(c.shop, c);
    case "confirmed":
      return confirmed(c.shop, c);
    case "escalate":
      return escalate(c.shop, c);
    case "cancelled":
      return shopperCancelled(c.shop, c);
  }
}

/**
 * The first message of a confirmation. With WhatsApp confirmation on (or for a courtesy confirmation)
 * and a confirmation template configured: the WhatsApp message with Confirm / Cancel / Change address
 * buttons, the SMS link following when no answer comes within the shop's window (escalate) or WhatsApp
 * fails. Otherwise the SMS link, on WhatsApp first when the shop sends links there and a link template exists.
 */
async function notify(shop: StepShop, c: Confirmation): Promise<StepResult> {
  if (stateOf(c) !== "pending" || !c.phone || c.notifiedAt) return { ok: true, note: "nothing to send" };
  if (await isOptedOut(shop.id, c.phone)) return { ok: true, note: "the number asked us to stop" };
  const now = clock.now();
  const locales = [c.locale, shop.locale];
  const shopName = shop.name ?? shop.domain;
  const buttons =
    shop.whatsappConfirmation !== "off" || c.kind === "courtesy"
      ? whatsappConfirmTemplate({ shop: shopName, order: c.orderName ?? "", summary: await orderSummaryLine(shop, c) }, locales)
      : null;
  // A verified order is asked only where it can answer with a button; it never gets an SMS link.
  if (c.kind === "courtesy" && !buttons) return { ok: true, note: "no WhatsApp confirmation template: a verified order is not asked" };
  const link = confirmationLink(shop, linkToken(c.id));
  const smsBody = confirmationSms(locales, { shop: shopName, order: c.orderName ?? "", link });
  const viaLink = !buttons && shop.linksOnWhatsapp ? whatsappLinkTemplate({ shop: shopName, order: c.orderName ?? "", link }, locales) : null;
  const template = buttons ?? viaLink;
  const allowed = await takePhoneText(shop.id, c.phone, "link");
  if (!allowed.ok) return textCapped(shop, c);
  const result = await sendSms({
    shop: { id: shop.id, name: shop.name, domain: shop.domain },
    to: c.phone,
    body: smsBody,
    channel: template ? "whatsapp" : "sms",
    whatsapp: template,
    // The SMS link is rebuilt from the confirmation by escalate: nothing to keep sealed.
    sealFallback: false,
    purpose: "order_confirmation",
    orderGid: c.orderGid,
  });
  if (!result.ok) {
    if (!result.maybeSent) await allowed.giveBack();
    return { ok: false, retry: result.code === "sms_unavailable", error: result.code };
  }
  const onWhatsapp = result.channel === "whatsapp";
  await prisma.orderConfirmation.update({
    where: { id: c.id },
    data: { notifiedAt: now, textCappedAt: null, ...(onWhatsapp ? { whatsappAt: now } : { smsLinkAt: now }) },
  });
  // The buttons wait for an answer; a verified order's courtesy question gets no SMS after it.
  if (onWhatsapp && buttons && c.kind === "verify") {
    await scheduleConfirmationStep(shop.domain, c, "escalate", new Date(now.getTime() + shop.whatsappReplyMinutes * 60_000));
  }
  return { ok: true, note: onWhatsapp ? (buttons ? "asked on WhatsApp" : "link on WhatsApp") : "link by SMS" };
}

/**
 * The number had its texts of the day (app/sms/phone-cap.server.ts): nothing is sent, and the confirmation
 * is marked so that its deadline never cancels the order (the shopper was not asked); the merchant sees
 * it pending and may resend the link later.
 */
async function textCapped(shop: StepShop, c: Confirmation): Promise<StepResult> {
  await prisma.orderConfirmation.updateMany({ where: { id: c.id, textCappedAt: null }, data: { textCappedAt: clock.now() } });
  log.info("order confirmation: the number had its texts of the day; not sent, never cancelled at the deadline", { shop: shop.domain, orderGid: c.orderGid });
  return { ok: true, note: "the number had its texts of the day" };
}

/** The order in one line for the WhatsApp question: its number, its amount to pay on delivery. */
async function orderSummaryLine(shop: StepShop, c: Confirmation): Promise<string> {
  const record = await prisma.orderRecord.findUnique({ where: { shopId_orderGid: { shopId: c.shopId, orderGid: c.orderGid } }, select: { value: true } });
  const amount = record?.value != null ? `${record.value.toFixed(2)}${shop.currency ? ` ${shop.currency}` : ""}` : null;
  return confirmationSummary([c.locale, shop.locale], { order: c.orderName ?? "", amount });
}

/**
 * No answer on WhatsApp within the shop's window, or the WhatsApp message failed: the SMS link, once
 * (smsLinkAt; the order has one escalate job, so two instances never run it together). Nothing once
 * the confirmation is answered, closed, or its link already went by SMS.
 */
async function escalate(shop: StepShop, c: Confirmation): Promise<StepResult> {
  if (c.kind !== "verify" || stateOf(c) !== "pending" || !c.phone || c.smsLinkAt) return { ok: true, note: "nothing to send" };
  if (await isOptedOut(shop.id, c.phone)) return { ok: true, note: "the number asked us to stop" };
  // On a ladder, the WhatsApp rung failed: the next rung comes now, whatever it is.
  const ladder = parseLadder(c.ladder);
  if (ladder) return { ok: true, note: (await advanceLadder(shop.domain, c, ladder, "whatsapp", "failed")) ?? "no rung after WhatsApp" };
  const link = confirmationLink(shop, linkToken(c.id));
  // The SMS after an unanswered WhatsApp question is the same link again: counted as a text, not as another link.
  const allowed = await takePhoneText(shop.id, c.phone);
  if (!allowed.ok) return textCapped(shop, c);
  const replaced = await prisma.messageDelivery.findFirst({
    where: { shopId: c.shopId, orderGid: c.orderGid, purpose: "order_confirmation", channel: "whatsapp", providerId: { not: null } },
    orderBy: { createdAt: "desc" },
    select: { id: true },
  });
  const result = await sendSms({
    shop: { id: shop.id, name: shop.name, domain: shop.domain },
    to: c.phone,
    body: confirmationSms([c.locale, shop.locale], { shop: shop.name ?? shop.domain, order: c.orderName ?? "", link }),
    channel: "sms",
    purpose: "order_confirmation",
    orderGid: c.orderGid,
    fallbackOf: replaced?.id ?? null,
  });
  if (!result.ok) {
    if (!result.maybeSent) await allowed.giveBack();
    return { ok: false, retry: result.code === "sms_unavailable", error: result.code };
  }
  await prisma.orderConfirmation.update({ where: { id: c.id }, data: { smsLinkAt: clock.now() } });
  return { ok: true, note: "link by SMS" };
}

/**
 * The shopper pressed Cancel on WhatsApp (the confirmation is `cancelled`): the order is tagged
 * cod-cancelled-by-shopper (cod-pending removed) and cancelled when the shop allows it. Its holds stay:
 * a cancelled order ships nothing, and an order the merchant keeps is theirs to release.
 */
async function shopperCancelled(shop: StepShop, c: Confirmation): Promise<StepResult> {
  if (c.status !== "cancelled") return { ok: true, note: "not cancelled by the shopper" };
  const tagged = await swapTags(shop, c.orderGid, [SHOPPER_CANCELLED_TAG], [PENDING_TAG]);
  // The merchant's own "cancel" from the needs-a-person queue always cancels; the shopper's only when the shop allows it.
  const by = (c.settledBy ?? "whatsapp") as Rung;
  const cancels = by === "person" || shop.cancelOnWhatsappCancel;
  const cancelled = cancels && !c.cancelledAt ? await cancel(shop, c, { reason: "CUSTOMER", staffNote: CANCEL_NOTES[by] }) : null;
  return firstFailure(tagged, cancelled) ?? { ok: true, note: cancelled ? "order cancelled" : "tagged" };
}

const CANCEL_NOTES: Record<Rung, string> = {
  whatsapp: "Cash on delivery: the shopper pressed Cancel on the WhatsApp confirmation.",
  sms: "Cash on delivery: the shopper cancelled on the confirmation page.",
  voice: "Cash on delivery: the shopper pressed 2 (cancel) on the confirmation call.",
  person: "Cash on delivery: cancelled from the confirmation queue after a call with the shopper.",
};


const cancelReply = z.object({
  orderCancel: z.object({ job: z.object({ id: z.string() }).nullable(), orderCancelUserErrors: userErrors }),
});

/**
 * Holds the order's fulfillment (app/orders/confirmation/holds.server.ts reads back what is there, so a
 * hold whose answer never reached us is seen, not placed twice). Confirmed before or while this ran:
 * every hold of ours is released, read back the same way.
 */
async function hold(shop: StepShop, c: Confirmation): Promise<StepResult> {
  if (c.status === "confirmed") return release(shop, c);
  if (stateOf(c) !== "pending") return { ok: true, note: "no longer pending" };
  const placed = await holdFulfillment(shop.domain, c.orderGid);
  if (!placed.ok) return placed;
  // For support only: release never reads this list.
  await prisma.orderConfirmation.update({ where: { id: c.id }, data: { holds: JSON.stringify(placed.held) } });
  const now = await prisma.orderConfirmation.findUniqueOrThrow({ where: { id: c.id } });
  if (now.status === "confirmed") return release(shop, now);
  return { ok: true, note: `${placed.held.length} hold(s) on the order` };
}

/** Releases every hold of ours the order carries now (a confirmation of a shop that did not hold has none). */
async function release(shop: StepShop, c: Confirmation): Promise<StepResult> {
  if (!c.hold) return { ok: true, note: "not held" };
  const released = await releaseOurHolds(shop.domain, c.orderGid);
  if (released.ok) await prisma.orderConfirmation.update({ where: { id: c.id }, data: { holdsReleasedAt: clock.now() } });
  return released;
}

/**
 * Adds `add` and takes `remove` off through the order's durable tag job (app/orders/tag-jobs.server.ts),
 * which retries both until the order's tags are right: a removal that fails, or that lands before an add
 * of the same tag still in flight, is done again by the job's next run.
 */
async function swapTags(shop: StepShop, id: string, add: string[], remove: string[]): Promise<StepResult | null> {
  if (!shop.tagOrders) return null;
  const fresh = add.filter((t) => t.trim());
  if (fresh.length || remove.length) await enqueueOrderTags(shop.domain, id, fresh, remove);
  return null;
}

async function confirmed(shop: StepShop, c: Confirmation): Promise<StepResult> {
  if (c.status !== "confirmed") return { ok: true, note: "not confirmed" };
  // The release first, and whatever the tags do: a failed tagsRemove must not keep the order held.
  const released = await release(shop, c);
  // On a ladder, the order says which rung confirmed it (cod-confirmed-by:voice).
  const by = c.ladder && c.settledBy ? [confirmedByTag(c.settledBy as Rung)] : [];
  const tagged = await swapTags(shop, c.orderGid, [shop.tagVerified, ...by], [PENDING_TAG]);
  // The customer's tag is its own job, added only while the confirmed phone is not blocked.
  if (shop.tagOrders && c.customerGid && c.phone) await enqueueCustomerVerifiedTag(shop.domain, c.customerGid, c.phone);
  // Pay now after the order, once it is confirmed (when the shop makes the offer).
  await queuePrepaidOfferAfterConfirmation(shop, c.orderGid);
  return firstFailure(released, tagged) ?? { ok: true };
}

/** The first failed part of a step whose parts run independently (the job retries it; each part is safe to repeat). */
function firstFailure(...parts: (StepResult | null)[]): StepResult | null {
  return parts.find((p) => p && !p.ok) ?? null;
}

async function deadline(shop: StepShop, c: Confirmation): Promise<StepResult> {
  const now = clock.now();
  if (c.kind === "courtesy") {
    // A verified order not answered on WhatsApp: closed quietly (it was verified before it was placed).
    if (c.status === "pending" && c.deadlineAt.getTime() <= now.getTime()) {
      await prisma.orderConfirmation.updateMany({ where: { id: c.id, status: "pending" }, data: { status: "unanswered", closedAt: now } });
    }
    // Verified before it was placed: the pay-now offer goes whether or not the courtesy question was answered.
    await queuePrepaidOfferAfterConfirmation(shop, c.orderGid);
    return { ok: true, note: "courtesy confirmation closed" };
  }
  if (c.status === "pending") {
    if (c.deadlineAt.getTime() > now.getTime()) return fail("deadline not reached", true);
    await prisma.orderConfirmation.updateMany({ where: { id: c.id, status: "pending" }, data: { status: "unconfirmed", closedAt: now } });
    c = await prisma.orderConfirmation.findUniqueOrThrow({ where: { id: c.id } });
  }
  if (c.status === "confirmed") {
    // The confirmation's UPDATE and its confirmed step are separate writes: a step lost between them
    // (the process stopped) is queued here; one already queued or done is left as it is.
    await scheduleConfirmationStep(shop.domain, c, "confirmed", now);
    return { ok: true, note: "confirmed in time" };
  }
  if (c.status !== "unconfirmed") return { ok: true, note: `status ${c.status}` };
  await settleOrderRecord(c.shopId, c.orderGid, "unconfirmed");
  const tagged = await swapTags(shop, c.orderGid, [UNCONFIRMED_TAG], [PENDING_TAG]);
  // An order without a phone could never be confirmed: it is the merchant's to decide (tagged NO_PHONE_TAG at opening).
  // Nor is one whose link the number's text cap held back: the shopper was never asked.
  const cancelled = shop.cancelUnconfirmed && c.phone && !c.textCappedAt && !c.cancelledAt ? await cancel(shop, c) : null;
  return firstFailure(tagged, cancelled) ?? { ok: true, note: cancelled ? "order cancelled" : "marked unconfirmed" };
}

/** Cancels the order; an order already cancelled (by an earlier try whose answer was lost, or by the merchant) is done. */
async function cancel(shop: StepShop, c: Confirmation, why?: { reason: "CUSTOMER" | "OTHER"; staffNote: string }): Promise<StepResult> {
  const result = await admin(
    shop.domain,
    ORDER_CANCEL,
    {
      orderId: c.orderGid,
      reason: why?.reason ?? "OTHER",
      refundMethod: { originalPaymentMethodsRefund: true },
      restock: true,
      notifyCustomer: true,
      staffNote: why?.staffNote ?? `Cash on delivery not confirmed: the shopper did not confirm the order's phone within ${shop.confirmDeadlineHours} hours.`,
    },
    cancelReply,
  );
  if (!result.ok) return fail(result.error);
  const errors = result.data.orderCancel.orderCancelUserErrors;
  if (errors.length) {
    // Shopify's refusal does not say why in a stable code: read the order back to see whether it is cancelled.
    const state = await readOrderState(shop.domain, c.orderGid);
    if (!state.ok) return fail(state.error);
    if (!state.data?.cancelledAt) return fail(`user_errors: ${errors.map((e) => e.message).join("; ")}`, false);
  }
  await prisma.orderConfirmation.update({ where: { id: c.id }, data: { cancelledAt: clock.now() } });
  return { ok: true, note: errors.length ? "order already cancelled" : "order cancelled" };
}
