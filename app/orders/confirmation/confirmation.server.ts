import crypto from "node:crypto";
import { query, sql, toBoolean, toDate, type Sql } from "~/core/db/sql.server";
import { prisma } from "~/core/db.server";
import { env } from "~/core/env.server";
import { sendVerificationCode, type SendOutcome } from "~/otp/otp.server";
import { checkVerificationCode, type VerifyOutcome } from "~/otp/verify.server";
import { hasActiveSubscription, type Shop } from "~/core/settings/shop.server";
import { clock } from "~/core/utils/clock.server";
import { keyedHash } from "~/core/utils/crypto.server";
import { log } from "~/core/utils/log.server";
import { enqueueOrderTags } from "~/orders/tag-jobs.server";
import { enqueueFlowTrigger } from "~/core/flow/trigger-jobs.server";
import { settleOrderRecord } from "~/orders/order-record.server";
import { enqueueJob, type PlannedJob } from "~/core/jobs/queue.server";
import { NO_PHONE_TAG } from "./texts";
import { parseLadder, shopLadder } from "./ladder";
import { ladderJobs } from "./ladder-jobs.server";
import { planConfirmationStep, scheduleConfirmationStep, type ConfirmationStep } from "./confirmation-jobs.server";

/**
 * Verification after purchase. A cash-on-delivery order that arrives without a matching verification
 * gets a confirmation: tagged `cod-pending`, its fulfillment held if the merchant wants it, and the
 * shopper texted a link to /apps/<subpath>/vc/<token> where they confirm the order's phone with a
 * one-time code. Confirmed: the verified tag, the hold released. Not by the deadline: `cod-unconfirmed`,
 * and the order cancelled if the merchant enabled it, unless it had no phone to text (then it is tagged
 * `cod-no-phone` at once and left to the merchant). Each step is a durable job, safe to run twice.
 *
 * This file opens a confirmation and answers for it (its link, its state, the code on its page, the
 * merchant's resend); its steps run in ./confirmation-steps.server.ts.
 */
export type Confirmation = NonNullable<Awaited<ReturnType<typeof prisma.orderConfirmation.findUnique>>>;

export type ConfirmationShop = Pick<
  Shop,
  | "id"
  | "domain"
  | "timezone"
  | "name"
  | "locale"
  | "currency"
  | "country"
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
  const step = (name: ConfirmationStep, at: Date) => planConfirmationStep(shop.domain, c, name, at);
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
    const job = planConfirmationStep(shop.domain, { id: reopened.id, orderGid }, "notify", now, now.toISOString());
    await enqueueJob(job.kind, job.input);
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

/**
 * The hosted page's "send me a code": a one-time code to the order's phone, with send-otp's limits, the
 * shares of the asking IP and its network included (`ip`: the shopper's, null when unknown).
 */
export async function sendConfirmationCode(
  shop: Parameters<typeof sendVerificationCode>[0]["shop"],
  c: Confirmation,
  locale: string | null,
  ip: string | null,
): Promise<SendOutcome> {
  if (!c.phone) return { ok: false, code: "phone_unreachable" };
  // No device token: after purchase the code is always asked for. A confirmation already open is never
  // stranded by a pause (the allowance used up, the plan ended, codes switched off): its code still goes.
  return sendVerificationCode({ shop, phone: c.phone, locale, ip, afterPurchase: true });
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
