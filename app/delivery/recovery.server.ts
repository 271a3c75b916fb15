import crypto from "node:crypto";
import { z } from "zod";
import { prisma } from "~/core/db.server";
import { execute, query, sql } from "~/core/db/sql.server";
import { env } from "~/core/env.server";
import { defineJob, enqueueJob, orderJobKey, type JobResult } from "~/core/jobs/queue.server";
import type { Shop } from "~/core/settings/shop.server";
import { clock } from "~/core/utils/clock.server";
import { keyedHash } from "~/core/utils/crypto.server";
import { log } from "~/core/utils/log.server";
import { enqueueFlowTrigger } from "~/core/flow/trigger-jobs.server";
import { takeContact } from "~/billing/contact-allowance.server";
import { whatsappLinkTemplate } from "~/sms/whatsapp";
import { sendSms } from "~/sms/sms.server";
import { nextSendTime, shopDate } from "./quiet-hours";
import { appendOrderNote, tagDeliveryAnswer, writeDeliveryAnswerMetafield } from "~/core/shopify/orders.server";
import { recoveryText } from "./texts";

/**
 * Failed-delivery recovery (docs/delivery.md). A carrier reports a failed attempt on a COD order
 * (fulfillment_events/create `attempted_delivery` or `failure`, or the courier app's tag the merchant
 * names): the order gets one DeliveryRecovery row (unique per order, so every later event of the same
 * failure finds it), the shopper one text with a link to /apps/<subpath>/dr/<token>, and Flow the
 * `cod-delivery-failed` trigger. On that page the shopper chooses: deliver again tomorrow, on a day they
 * pick, at a corrected address (the address-correction form), at another phone, or pay online now. The
 * first answer wins (one conditional UPDATE); it is written to the order (a note line, a tag, the
 * `cod_verify.delivery_answer` metafield a courier app can read) and sent to Flow (`cod-delivery-choice`),
 * each by a durable job.
 */
export const RECOVERY_TTL_HOURS = 72;
/** The shopper picks a day from tomorrow to this many days ahead. */
export const PICK_DAY_RANGE = 7;
export const DELIVERY_CHOICES = ["tomorrow", "pick_day", "fix_address", "fix_phone", "pay_online"] as const;
export type DeliveryChoice = (typeof DELIVERY_CHOICES)[number];
/** The order's tag for each answer (the merchant filters on it; a courier app may too). */
export const CHOICE_TAGS: Record<DeliveryChoice, string> = {
  tomorrow: "cod-redeliver-tomorrow",
  pick_day: "cod-redeliver-on-day",
  fix_address: "cod-redeliver-new-address",
  fix_phone: "cod-redeliver-new-phone",
  pay_online: "cod-pay-online",
};
export const FAILED_DELIVERY_TAG = "cod-delivery-failed";

export type Recovery = NonNullable<Awaited<ReturnType<typeof prisma.deliveryRecovery.findUnique>>>;
type RecoveryShop = Pick<Shop, "id" | "domain" | "deliveryRecovery" | "timezone" | "quietHoursStart" | "quietHoursEnd" | "locale">;

/** The link's token: derived from the row's id under the app's secret, so a retried text can rebuild it; only its hash is stored. */
export function recoveryToken(id: string): string {
  return crypto.createHmac("sha256", env.OTP_HASH_SECRET).update(`delivery-recovery-link\0${id}`).digest("base64url").slice(0, 32);
}

export function hashRecoveryToken(token: string): string {
  return keyedHash("delivery-recovery-token", token);
}

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

export async function findRecoveryByToken(shop: Pick<Shop, "id">, token: string | undefined): Promise<Recovery | null> {
  if (!token || !TOKEN_PATTERN.test(token)) return null;
  return prisma.deliveryRecovery.findFirst({ where: { shopId: shop.id, tokenHash: hashRecoveryToken(token) } });
}

export function recoveryLink(shop: Pick<Shop, "domain" | "linkDomain">, token: string): string {
  const origin = env.localMode ? env.SHOPIFY_APP_URL.replace(/\/$/, "") : `https://${shop.linkDomain ?? shop.domain}`;
  return `${origin}${env.proxyBasePath}/dr/${token}`;
}

export type RecoveryState = "open" | "answered" | "expired";

export function stateOf(r: Pick<Recovery, "status" | "expiresAt">, now = clock.now()): RecoveryState {
  if (r.status === "answered") return "answered";
  return r.status === "expired" || r.expiresAt.getTime() <= now.getTime() ? "expired" : "open";
}

export const notifyJob = defineJob({
  kind: "delivery.recovery-notify",
  payload: z.object({ recoveryId: z.string().min(1), notBefore: z.string().max(40).optional() }),
  merge: (queued, incoming) => (incoming.notBefore && incoming.notBefore !== queued.notBefore ? incoming : null),
  run: ({ recoveryId }) => notify(recoveryId),
});

export const answerJob = defineJob({
  kind: "delivery.recovery-answer",
  payload: z.object({ recoveryId: z.string().min(1) }),
  run: ({ recoveryId }) => writeAnswer(recoveryId),
});

/**
 * A failed attempt of the order (`cause`: the carrier's status or `tag:<tag>`): its recovery opened once
 * (a COD order the app recorded, with the shop's recovery on), the shopper's text queued for outside the
 * quiet hours, and Flow told. A later failure event finds the row and queues the same jobs, which change
 * nothing once done. Returns whether the order has a recovery.
 */
export async function openDeliveryRecovery(shop: RecoveryShop, orderGid: string, cause: string): Promise<boolean> {
  if (!shop.deliveryRecovery) return false;
  const now = clock.now();
  const id = crypto.randomUUID().replace(/-/g, "");
  const expiresAt = new Date(now.getTime() + RECOVERY_TTL_HOURS * 3600_000);
  await execute(sql`
    INSERT INTO "DeliveryRecovery" ("id", "shopId", "orderGid", "orderName", "phone", "locale", "tokenHash", "cause", "status", "expiresAt", "createdAt", "updatedAt")
    SELECT ${id}, ${shop.id}, ${orderGid}, "r"."orderName", "r"."phone",
      (SELECT "locale" FROM "OrderConfirmation" WHERE "shopId" = ${shop.id} AND "orderGid" = ${orderGid}),
      ${hashRecoveryToken(recoveryToken(id))}, ${cause.slice(0, 100)}, 'open', ${expiresAt}, ${now}, ${now}
    FROM "OrderRecord" "r" WHERE "r"."shopId" = ${shop.id} AND "r"."orderGid" = ${orderGid} AND "r"."cod" = ${true}
    ON CONFLICT ("shopId", "orderGid") DO NOTHING`);
  const [row] = await query<{ id: string; cause: string; status: string }>(sql`
    SELECT "id", "cause", "status" FROM "DeliveryRecovery" WHERE "shopId" = ${shop.id} AND "orderGid" = ${orderGid}`);
  if (!row) return false;
  if (row.id === id) log.info("failed delivery: recovery opened", { shop: shop.domain, orderGid, cause });
  if (row.status === "open") {
    const runAt = nextSendTime(now, shop);
    await enqueueJob(notifyJob, { shop: shop.domain, key: orderJobKey(shop.domain, orderGid), payload: { recoveryId: row.id }, runAt });
  }
  await enqueueFlowTrigger(shop.domain, orderGid, "deliveryFailed", { cause: row.cause });
  return true;
}

/**
 * The shopper's text with the link, once (notifiedAt is claimed before it is sent), outside the quiet hours.
 * It is the plan's like a verification (app/billing/contact-allowance.server.ts): counted against the
 * allowance and the limits. Refused (the number asked to stop, a limit reached, the allowance used up) or
 * failed for good, the claim is given back and the recovery keeps why in `notTexted`, which the Deliveries
 * page shows; the recovery stays open for the shopper's answer (the merchant may tell them another way).
 */
async function notify(recoveryId: string): Promise<JobResult> {
  const r = await prisma.deliveryRecovery.findUnique({ where: { id: recoveryId }, include: { shop: true } });
  if (!r || r.shop.uninstalledAt || stateOf(r) !== "open" || r.notifiedAt) return { ok: true };
  const shop = r.shop;
  if (!r.phone) return { ok: true };
  const now = clock.now();
  const allowed = nextSendTime(now, shop);
  if (allowed.getTime() > now.getTime()) {
    await enqueueJob(notifyJob, { shop: shop.domain, key: orderJobKey(shop.domain, r.orderGid), payload: { recoveryId, notBefore: allowed.toISOString() }, runAt: allowed });
    return { ok: true };
  }
  const claimed = await execute(sql`
    UPDATE "DeliveryRecovery" SET "notifiedAt" = ${now}, "notTexted" = NULL, "updatedAt" = ${now} WHERE "id" = ${recoveryId} AND "notifiedAt" IS NULL AND "status" = 'open'`);
  if (claimed !== 1) return { ok: true };
  // `why`: the text did not go for good (null: it is retried, still queued).
  const giveClaimBack = (why: string | null) =>
    execute(sql`UPDATE "DeliveryRecovery" SET "notifiedAt" = NULL, "notTexted" = ${why?.slice(0, 100) ?? null}, "updatedAt" = ${clock.now()} WHERE "id" = ${recoveryId} AND "notifiedAt" = ${now}`);
  const contact = await takeContact(shop, r.phone, "recovery");
  if (!contact.ok) {
    await giveClaimBack(contact.reason);
    log.info("failed delivery: no text", { shop: shop.domain, orderGid: r.orderGid, reason: contact.reason });
    return { ok: true };
  }
  const link = recoveryLink(shop, recoveryToken(r.id));
  const values = { shop: shop.name ?? shop.domain, order: r.orderName ?? "", link };
  const template = shop.linksOnWhatsapp ? whatsappLinkTemplate(values, [r.locale, shop.locale]) : null;
  const sent = await sendSms({
    shop: { id: shop.id, name: shop.name, domain: shop.domain },
    to: r.phone,
    body: recoveryText([r.locale, shop.locale], values),
    channel: template ? "whatsapp" : "sms",
    whatsapp: template,
    // The SMS fallback is rebuilt from the row's id: nothing to keep sealed.
    sealFallback: false,
    purpose: "delivery_recovery",
    orderGid: r.orderGid,
    fallbackUntil: r.expiresAt.getTime(),
    countWhenSent: contact.countWhenSent,
  });
  if (sent.ok || sent.maybeSent) {
    await contact.counted(r.id);
    return { ok: true };
  }
  // Nothing went for certain: the claim and the limits' hits are given back, and an outage is retried.
  const retried = sent.code === "sms_unavailable";
  await contact.giveBack();
  await giveClaimBack(retried ? null : sent.code);
  log.warn("failed delivery: text not sent", { shop: shop.domain, orderGid: r.orderGid, code: sent.code });
  return retried ? { ok: false, error: sent.code } : { ok: true };
}

export type AnswerInput = { choice: DeliveryChoice; date?: string | null; phone?: string | null };
export type AnswerOutcome = { ok: true; recovery: Recovery } | { ok: false; code: "closed" };

/**
 * The shopper's answer: the first one settles the recovery (one conditional UPDATE, so two tabs or a
 * replayed form change nothing more), then its effects are queued: the order's note, tag and metafield,
 * and Flow's `cod-delivery-choice`. `tomorrow` is stored as the shop's date of tomorrow.
 */
export async function answerDeliveryRecovery(shop: Pick<Shop, "domain" | "timezone">, r: Recovery, input: AnswerInput): Promise<AnswerOutcome> {
  const now = clock.now();
  const choiceDate = input.choice === "tomorrow" ? shopDate(now, shop.timezone, 1) : input.choice === "pick_day" ? (input.date ?? null) : null;
  const { count } = await prisma.deliveryRecovery.updateMany({
    where: { id: r.id, status: "open", expiresAt: { gt: now } },
    data: { status: "answered", choice: input.choice, choiceDate, newPhone: input.choice === "fix_phone" ? (input.phone ?? null) : null, answeredAt: now },
  });
  if (count !== 1) return { ok: false, code: "closed" };
  await enqueueJob(answerJob, { shop: shop.domain, key: orderJobKey(shop.domain, r.orderGid), payload: { recoveryId: r.id } });
  await enqueueFlowTrigger(shop.domain, r.orderGid, "deliveryChoice", { "choice": input.choice, "chosen date": choiceDate ?? "", "cause": r.cause });
  log.info("failed delivery: the shopper answered", { shop: shop.domain, orderGid: r.orderGid, choice: input.choice });
  return { ok: true, recovery: await prisma.deliveryRecovery.findUniqueOrThrow({ where: { id: r.id } }) };
}

/** The order's note line for the answer, in the merchant's words. */
export function answerNote(r: Pick<Recovery, "choice" | "choiceDate" | "newPhone" | "answeredAt">): string {
  const on = r.choiceDate ? ` on ${r.choiceDate}` : "";
  const what: Record<DeliveryChoice, string> = {
    tomorrow: `deliver again${on}`,
    pick_day: `deliver again${on}`,
    fix_address: "deliver again to a corrected address (see the address correction)",
    fix_phone: `deliver again, calling ${r.newPhone ?? "the new number"}`,
    pay_online: "pay online now (send the payment link)",
  };
  return `COD Verify, failed delivery: the shopper chose to ${what[r.choice as DeliveryChoice] ?? r.choice} (${r.answeredAt?.toISOString().slice(0, 16).replace("T", " ")} UTC).`;
}

/** The answer on the order: the tag, the metafield, the note line; each safe to repeat, all retried until written. */
async function writeAnswer(recoveryId: string): Promise<JobResult> {
  const r = await prisma.deliveryRecovery.findUnique({ where: { id: recoveryId }, include: { shop: true } });
  if (!r || r.shop.uninstalledAt || r.status !== "answered" || !r.choice || r.writtenAt) return { ok: true };
  const shop = r.shop.domain;
  const choice = r.choice as DeliveryChoice;
  const steps = [
    () => (r.shop.tagOrders ? tagDeliveryAnswer(shop, r.orderGid, [FAILED_DELIVERY_TAG, CHOICE_TAGS[choice] ?? `cod-redeliver-${choice}`]) : Promise.resolve({ ok: true as const, data: null })),
    () =>
      writeDeliveryAnswerMetafield(shop, r.orderGid, {
        choice,
        date: r.choiceDate,
        phone: r.newPhone,
        cause: r.cause,
        answeredAt: r.answeredAt?.toISOString() ?? null,
      }),
    () => appendOrderNote(shop, r.orderGid, answerNote(r)),
  ];
  for (const step of steps) {
    const done = await step();
    if (!done.ok) return { ok: false, error: done.error, retry: done.retry };
  }
  await prisma.deliveryRecovery.update({ where: { id: r.id }, data: { writtenAt: clock.now() } });
  return { ok: true };
}

/** The admin's "Deliveries at risk": the shop's recoveries, newest first, with their state. */
export async function listDeliveriesAtRisk(shopId: string, options: { page?: number } = {}) {
  const take = 50;
  const page = Math.max(1, options.page ?? 1);
  const [rows, total] = await Promise.all([
    prisma.deliveryRecovery.findMany({ where: { shopId }, orderBy: { createdAt: "desc" }, take, skip: (page - 1) * take }),
    prisma.deliveryRecovery.count({ where: { shopId } }),
  ]);
  const now = clock.now();
  return { rows: rows.map((r) => ({ ...r, state: stateOf(r, now) })), total, page, pages: Math.max(1, Math.ceil(total / take)) };
}
