import crypto from "node:crypto";
import { writtenMoney } from "~/shared/money-words";
import { z } from "zod";
import { execute, sql } from "~/core/db/sql.server";
import { prisma } from "~/core/db.server";
import { env } from "~/core/env.server";
import { defineJob, enqueueJob, orderJobKey, planJob, type JobResult, type PlannedJob } from "~/core/jobs/queue.server";
import { getShop, hasActiveSubscription, type Shop } from "~/core/settings/shop.server";
import { ORDER_INVOICE_SEND, PREPAID_OFFER_ORDER } from "~/core/shopify/operations";
import { clock } from "~/core/utils/clock.server";
import { keyedHash } from "~/core/utils/crypto.server";
import { log } from "~/core/utils/log.server";
import { currencyDigits } from "~/shared/money";
import { lastShopDaysStart, type ShopZone } from "~/shared/shop-day";
import { takeContact, type ContactAllowance, type ContactShop } from "~/billing/contact-allowance.server";
import { sendSms, type SmsChannel } from "~/sms/sms.server";
import { whatsappLinkTemplate } from "~/sms/whatsapp";
import type { PageShell } from "~/shared/hosted-page";
import { pickLocale } from "~/shared/locales";
import { admin, fail, userErrors, type StepResult } from "./confirmation/holds.server";
import { invoiceNote, prepaidOfferSms } from "./prepaid-offer-texts";

/**
 * Pay now after the order (docs/prepaid-offer.md). A COD order, once placed and confirmed where it has a
 * confirmation, may be offered Shopify's own payment page for its outstanding amount
 * (`Order.paymentCollectionDetails.additionalPaymentCollectionUrl`, read on every send and every open) by
 * the channel the shopper used, through a link of ours that counts the open; where Shopify gives the
 * order no such page, Shopify's invoice email (`orderInvoiceSend`). Once Shopify reports the order paid
 * online (orders/paid, confirmed by reading its transactions), the order is tagged prepaid, its payment-mode
 * tag moves from cod to prepaid, any confirmation still awaited ends and any hold of ours is released;
 * the merchant's reward, when there is one, is refunded against that payment once
 * (docs/decisions/prepaid-incentive-by-refund.md). Every step is a durable job, safe to run twice.
 */

/** The tag a COD order gets once paid online, and the one that warns the merchant the parcel left with its COD amount. */
export const PREPAID_TAG = "cod-prepaid";
export const PAID_AFTER_SHIPPING_TAG = "cod-paid-after-shipping";

/** Why an offer was not made, as the settings card explains it. */
export const NOT_OFFERED_REASONS = {
  no_collection_url: "Shopify gave the order no payment page and it has no email for Shopify's invoice",
  multi_currency: "Shopify gave the order no payment page, and Shopify cannot send an invoice for an order in another currency",
  invoice_refused: "Shopify refused to send the invoice",
  not_outstanding: "nothing was left to pay",
  cancelled: "the order was cancelled",
  fulfilled: "the parcel had already left with its cash-on-delivery amount",
  order_gone: "the order no longer exists",
  phone_unreachable: "the shopper's number could not be texted",
  text_refused: "the shopper's number could not be texted now (a limit, the plan's allowance, or a blocked number) and the order has no email",
} as const;
export type NotOfferedReason = keyof typeof NOT_OFFERED_REASONS;

export type OfferShop = Pick<
  Shop,
  "id" | "domain" | "name" | "locale" | "currency" | "country" | "uninstalledAt" | "subscriptionStatus" | "prepaidOffer" | "prepaidOfferIncentiveType" | "prepaidOfferIncentiveValue" | "prepaidOfferIncentiveCap" | "tagOrders" | "tagModePrefix" | "linkDomain"
> &
  ContactShop;

/** Whether the shop makes the offer at all: switched on, a plan, installed. */
export function offersPrepaid(shop: Pick<Shop, "prepaidOffer" | "subscriptionStatus" | "uninstalledAt">): boolean {
  return shop.prepaidOffer && hasActiveSubscription(shop) && !shop.uninstalledAt;
}

/**
 * What the shopper gets back for paying `amount` now: the merchant's fixed amount (never more than the
 * amount) or percentage (at most the cap), rounded down to the currency's smallest unit. Null: no reward.
 */
export function incentiveFor(
  shop: Pick<Shop, "prepaidOfferIncentiveType" | "prepaidOfferIncentiveValue" | "prepaidOfferIncentiveCap">,
  amount: number,
  currency: string,
): number | null {
  const value = shop.prepaidOfferIncentiveValue;
  if (!(value > 0) || !(amount > 0)) return null;
  let reward = 0;
  if (shop.prepaidOfferIncentiveType === "fixed") reward = Math.min(value, amount);
  else if (shop.prepaidOfferIncentiveType === "percentage") reward = Math.min((amount * Math.min(value, 100)) / 100, shop.prepaidOfferIncentiveCap ?? Infinity);
  const digits = currencyDigits(currency);
  const rounded = Math.floor(reward * 10 ** digits + 1e-6) / 10 ** digits;
  return rounded > 0 ? rounded : null;
}

// ---------------------------------------------------------------------------------------------
// The jobs

const sendPayload = z.object({ orderGid: z.string().regex(/^gid:\/\/shopify\/Order\/\d+$/), after: z.enum(["created", "confirmed"]) });

/**
 * The offer's send, one row per order. Queued by orders/create for a COD order without a confirmation, and
 * by the confirmation's confirmed step otherwise: the second enqueue (a different `after`) makes the
 * order's row due again, even when the first run found the confirmation still pending.
 */
export const prepaidOfferJob = defineJob({
  kind: "prepaid-offer.send",
  payload: sendPayload,
  merge: (queued, incoming) => (incoming.after !== queued.after ? incoming : null),
  run: async ({ orderGid }, { shop }) => asJobResult(await sendPrepaidOffer(shop, orderGid)),
});


export function asJobResult(result: StepResult): JobResult {
  return result.ok ? { ok: true } : { ok: false, error: result.error, retry: result.retry };
}

/** A minute after the order: Shopify has settled the order's payment state by then. */
const SEND_DELAY_MS = 60_000;

/** orders/create's planned send, for a COD order that opens no confirmation (null: the shop makes no offer). */
export function prepaidOfferJobFor(shop: Pick<Shop, "domain" | "prepaidOffer" | "subscriptionStatus" | "uninstalledAt">, orderGid: string, now: Date): PlannedJob | null {
  if (!offersPrepaid(shop)) return null;
  return planJob(prepaidOfferJob, { shop: shop.domain, key: orderJobKey(shop.domain, orderGid), payload: { orderGid, after: "created" }, runAt: new Date(now.getTime() + SEND_DELAY_MS) });
}

/** The confirmation ended well (confirmed, or a courtesy question closed): the offer may go now. */
export async function queuePrepaidOfferAfterConfirmation(shop: Pick<Shop, "domain" | "prepaidOffer" | "subscriptionStatus" | "uninstalledAt">, orderGid: string): Promise<void> {
  if (!offersPrepaid(shop)) return;
  await enqueueJob(prepaidOfferJob, { shop: shop.domain, key: orderJobKey(shop.domain, orderGid), payload: { orderGid, after: "confirmed" } });
}

// ---------------------------------------------------------------------------------------------
// Reading the order

const money = z.object({ amount: z.string(), currencyCode: z.string() });
const orderReply = z.object({
  order: z
    .object({
      id: z.string(),
      email: z.string().nullable(),
      cancelledAt: z.string().nullable(),
      displayFinancialStatus: z.string().nullable(),
      displayFulfillmentStatus: z.string(),
      currencyCode: z.string(),
      presentmentCurrencyCode: z.string(),
      totalOutstandingSet: z.object({ presentmentMoney: money, shopMoney: money }),
      paymentCollectionDetails: z.object({ additionalPaymentCollectionUrl: z.string().nullable() }),
      transactions: z.array(
        z.object({
          id: z.string(),
          kind: z.string(),
          status: z.string(),
          gateway: z.string().nullable(),
          manualPaymentGateway: z.boolean(),
          amountSet: z.object({ presentmentMoney: money }),
        }),
      ),
      refunds: z.array(z.object({ id: z.string(), note: z.string().nullable() })),
    })
    .nullable(),
});
export type OfferOrder = NonNullable<z.infer<typeof orderReply>["order"]>;

export async function readOfferOrder(shop: string, orderGid: string) {
  const read = await admin(shop, PREPAID_OFFER_ORDER, { id: orderGid }, orderReply);
  return read.ok ? ({ ok: true, order: read.data.order } as const) : read;
}

/** Shopify's payment page for the order, when it gives one and it is an https URL (never sent on otherwise). */
function collectionUrl(order: OfferOrder): string | null {
  const raw = order.paymentCollectionDetails.additionalPaymentCollectionUrl;
  try {
    return raw && new URL(raw).protocol === "https:" ? raw : null;
  } catch {
    return null;
  }
}

/** Shipped, or on its way: the parcel carries its cash-on-delivery amount, so paying online now could mean paying twice. */
export const SHIPPED = new Set(["FULFILLED", "PARTIALLY_FULFILLED", "IN_PROGRESS", "PENDING_FULFILLMENT", "RESTOCKED"]);

export type Payability = { payable: true; amount: number; currency: string; url: string | null } | { payable: false; reason: NotOfferedReason | "paid" };

/** Whether the order can still be paid online now, and how much. */
export function payabilityOf(order: OfferOrder | null): Payability {
  if (!order) return { payable: false, reason: "order_gone" };
  if (order.cancelledAt) return { payable: false, reason: "cancelled" };
  const outstanding = Number(order.totalOutstandingSet.presentmentMoney.amount);
  if (onlinePayment(order) && !(outstanding > 0)) return { payable: false, reason: "paid" };
  if (!(outstanding > 0) || order.displayFinancialStatus === "PAID") return { payable: false, reason: "not_outstanding" };
  if (SHIPPED.has(order.displayFulfillmentStatus)) return { payable: false, reason: "fulfilled" };
  return { payable: true, amount: outstanding, currency: order.totalOutstandingSet.presentmentMoney.currencyCode, url: collectionUrl(order) };
}

/**
 * The order's payment made online: a successful sale or capture through a gateway that is not manual.
 * Cash handed to the courier and recorded with "Mark as paid" goes through the manual gateway, so it is
 * never taken for a move to prepaid, nor rewarded.
 */
export function onlinePayment(order: OfferOrder) {
  return order.transactions.find((t) => (t.kind === "SALE" || t.kind === "CAPTURE") && t.status === "SUCCESS" && !t.manualPaymentGateway && !!t.gateway) ?? null;
}

// ---------------------------------------------------------------------------------------------
// The send

/** The link's token: derived from the offer's id under the app's secret, so a retried send rebuilds it; only its hash is stored. */
export function offerToken(offerId: string): string {
  return crypto.createHmac("sha256", env.OTP_HASH_SECRET).update(`prepaid-offer-link\0${offerId}`).digest("base64url").slice(0, 32);
}

export function hashOfferToken(token: string): string {
  return keyedHash("prepaid-offer-token", token);
}

function offerLink(shop: Pick<Shop, "domain" | "linkDomain">, token: string): string {
  const origin = env.localMode ? env.SHOPIFY_APP_URL.replace(/\/$/, "") : `https://${shop.linkDomain ?? shop.domain}`;
  return `${origin}${env.proxyBasePath}/pp/${token}`;
}

/** The amount as the shopper reads money in the shop's language and country ("₹499", "499 ₹"). */
function formatAmount(amount: number, currency: string, shop: Pick<Shop, "locale" | "country">): string {
  return writtenMoney({ amount, currency }, shop.locale, shop.country);
}

/**
 * The channel the shopper used with us: the last message to this number that was not refused or lost
 * (their code, or their order's confirmation), WhatsApp or SMS. SMS when we never reached them.
 */
async function shopperChannel(shopId: string, phone: string): Promise<SmsChannel> {
  const last = await prisma.messageDelivery.findFirst({
    where: { shopId, phone, purpose: { in: ["otp", "order_confirmation"] }, providerId: { not: null }, status: { notIn: ["failed", "undelivered", "canceled"] } },
    orderBy: { createdAt: "desc" },
    select: { channel: true },
  });
  return last?.channel === "whatsapp" ? "whatsapp" : "sms";
}

async function closeOffer(offerId: string, reason: NotOfferedReason): Promise<StepResult> {
  const now = clock.now();
  await execute(sql`UPDATE "PrepaidOffer" SET "status" = 'not_offered', "reason" = ${reason}, "updatedAt" = ${now} WHERE "id" = ${offerId} AND "status" = 'queued'`);
  return { ok: true, note: `not offered: ${reason}` };
}

/**
 * The send: the order's offer row (one per order, `ON CONFLICT DO NOTHING`), the order read from Shopify,
 * then the link by text or Shopify's invoice. The row leaves `queued` once, by a conditional update; the
 * order's one job row means two instances never send together.
 */
export async function sendPrepaidOffer(shopDomain: string, orderGid: string): Promise<StepResult> {
  const shop = await getShop(shopDomain);
  if (!shop || !offersPrepaid(shop)) return { ok: true, note: "the shop makes no offer" };
  const record = await prisma.orderRecord.findUnique({ where: { shopId_orderGid: { shopId: shop.id, orderGid } } });
  if (!record?.cod) return { ok: true, note: "not a COD order" };
  if (record.prepaidAt) return { ok: true, note: "paid already" };
  const confirmation = await prisma.orderConfirmation.findUnique({ where: { shopId_orderGid: { shopId: shop.id, orderGid } }, select: { status: true } });
  // The confirmation's confirmed step queues the offer again; an order not confirmed is never offered.
  if (confirmation?.status === "pending") return { ok: true, note: "waiting for the confirmation" };
  if (confirmation && confirmation.status !== "confirmed" && confirmation.status !== "unanswered") return { ok: true, note: `confirmation ${confirmation.status}` };

  const now = clock.now();
  const id = crypto.randomUUID().replace(/-/g, "");
  await execute(sql`
    INSERT INTO "PrepaidOffer" ("id", "shopId", "orderGid", "orderName", "phone", "tokenHash", "status", "createdAt", "updatedAt")
    VALUES (${id}, ${shop.id}, ${orderGid}, ${record.orderName}, ${record.phone}, ${hashOfferToken(offerToken(id))}, 'queued', ${now}, ${now})
    ON CONFLICT ("shopId", "orderGid") DO NOTHING`);
  const offer = await prisma.prepaidOffer.findUniqueOrThrow({ where: { shopId_orderGid: { shopId: shop.id, orderGid } } });
  if (offer.status !== "queued") return { ok: true, note: `offer ${offer.status}` };

  const read = await readOfferOrder(shop.domain, orderGid);
  if (!read.ok) return fail(read.error);
  const payable = payabilityOf(read.order);
  if (!payable.payable) return closeOffer(offer.id, payable.reason === "paid" ? "not_outstanding" : payable.reason);
  const order = read.order!;
  // A reward in the shop's currency only: a fixed amount is the merchant's in their own currency.
  const incentive = payable.currency === shop.currency || (!shop.currency && payable.currency === order.currencyCode) ? incentiveFor(shop, payable.amount, payable.currency) : null;
  const reward = incentive ? formatAmount(incentive, payable.currency, shop) : null;
  const facts = { amount: payable.amount, currency: payable.currency, incentive };

  // The text is the app's own, so the plan's like a verification (app/billing/contact-allowance.server.ts):
  // the allowance and the limits. A number that asked the shop to stop, or one the guard refuses, gets no
  // text: Shopify's invoice email may still go.
  const contact = payable.url && offer.phone ? await takeContact(shop, offer.phone, "prepaid_offer") : null;
  if (contact?.ok) return textOffer(shop, offer, facts, reward, contact);
  if (!order.email) return closeOffer(offer.id, !payable.url ? "no_collection_url" : contact && contact.reason !== "opted_out" ? "text_refused" : "phone_unreachable");
  // Shopify cannot send an invoice for an order placed in another currency than the shop's.
  if (order.presentmentCurrencyCode !== order.currencyCode) return closeOffer(offer.id, "multi_currency");
  return invoiceOffer(shop, offer, order, facts, reward);
}

type OfferRow = { id: string; orderGid: string; orderName: string | null; phone: string | null };
type OfferFacts = { amount: number; currency: string; incentive: number | null };

async function textOffer(shop: OfferShop, offer: OfferRow, facts: OfferFacts, reward: string | null, contact: Extract<ContactAllowance, { ok: true }>): Promise<StepResult> {
  const phone = offer.phone!;
  const link = offerLink(shop, offerToken(offer.id));
  const shopName = shop.name ?? shop.domain;
  const order = offer.orderName ?? "";
  const channel = await shopperChannel(shop.id, phone);
  const template = channel === "whatsapp" ? whatsappLinkTemplate({ shop: shopName, order, link }, [shop.locale]) : null;
  const result = await sendSms({
    shop: { id: shop.id, name: shop.name, domain: shop.domain },
    to: phone,
    body: prepaidOfferSms([shop.locale], { shop: shopName, order, amount: formatAmount(facts.amount, facts.currency, shop), link, reward }),
    channel: template ? "whatsapp" : "sms",
    whatsapp: template,
    sealFallback: false,
    purpose: "prepaid_offer",
    orderGid: offer.orderGid,
    countWhenSent: contact.countWhenSent,
  });
  if (!result.ok) {
    // Nothing went for certain: the limits get their hits back (one that may have gone keeps them).
    if (!result.maybeSent) await contact.giveBack();
    if (result.code === "sms_unavailable") return fail(result.code);
    return closeOffer(offer.id, "phone_unreachable");
  }
  await contact.counted(offer.id);
  await markSent(offer.id, result.channel, facts);
  return { ok: true, note: `offered by ${result.channel}` };
}

async function invoiceOffer(shop: OfferShop, offer: OfferRow, order: OfferOrder, facts: OfferFacts, reward: string | null): Promise<StepResult> {
  const sent = await admin(
    shop.domain,
    ORDER_INVOICE_SEND,
    { id: order.id, email: { customMessage: invoiceNote(reward) } },
    z.object({ orderInvoiceSend: z.object({ order: z.object({ id: z.string() }).nullable(), userErrors }) }),
  );
  if (!sent.ok) return fail(sent.error);
  const errors = sent.data.orderInvoiceSend.userErrors;
  if (errors.length) {
    log.warn("prepaid offer: Shopify refused the invoice", { shop: shop.domain, orderGid: offer.orderGid, errors: errors.map((e) => e.message).join("; ") });
    return closeOffer(offer.id, "invoice_refused");
  }
  await markSent(offer.id, "email", facts);
  return { ok: true, note: "Shopify's invoice sent" };
}

async function markSent(offerId: string, channel: SmsChannel | "email", facts: OfferFacts) {
  const now = clock.now();
  await execute(sql`
    UPDATE "PrepaidOffer" SET "status" = ${channel === "email" ? "invoiced" : "sent"}, "channel" = ${channel}, "amount" = ${facts.amount},
      "currency" = ${facts.currency}, "incentive" = ${facts.incentive}, "sentAt" = ${now}, "updatedAt" = ${now}
    WHERE "id" = ${offerId} AND "status" = 'queued'`);
}

// ---------------------------------------------------------------------------------------------
// The link

export type OfferOpened = { kind: "redirect"; url: string } | { kind: "page"; page: "paid" | "closed" | "unknown" | "unavailable"; orderName: string };

/**
 * GET /apps/<subpath>/pp/<token> as the shopper sees it: Shopify's payment page, or our page in the
 * shopper's language (the link's `locale`, else the shop's) with the shop's name.
 */
export async function showPrepaidOfferLink(
  shop: Pick<Shop, "id" | "domain" | "locale" | "name">,
  token: string,
  queryLocale: string | null,
): Promise<Extract<OfferOpened, { kind: "redirect" }> | (Extract<OfferOpened, { kind: "page" }> & { shell: PageShell })> {
  const opened = await openPrepaidOffer(shop, token);
  if (opened.kind === "redirect") return opened;
  return { ...opened, shell: { locale: pickLocale(queryLocale, shop.locale), shopName: shop.name ?? "" } };
}

/**
 * The link's open: the first open is recorded once, then the order is read again and the shopper goes
 * to Shopify's payment page while there is something to pay and the parcel has not left.
 */
async function openPrepaidOffer(shop: Pick<Shop, "id" | "domain">, token: string): Promise<OfferOpened> {
  if (!/^[A-Za-z0-9_-]{32}$/.test(token)) return { kind: "page", page: "unknown", orderName: "" };
  const offer = await prisma.prepaidOffer.findFirst({ where: { shopId: shop.id, tokenHash: hashOfferToken(token) } });
  if (!offer || offer.status === "queued" || offer.status === "not_offered") return { kind: "page", page: "unknown", orderName: "" };
  const now = clock.now();
  await execute(sql`UPDATE "PrepaidOffer" SET "openedAt" = ${now}, "updatedAt" = ${now} WHERE "id" = ${offer.id} AND "openedAt" IS NULL`);
  const orderName = offer.orderName ?? "";
  if (offer.paidAt) return { kind: "page", page: "paid", orderName };
  const read = await readOfferOrder(shop.domain, offer.orderGid);
  if (!read.ok) {
    log.warn("prepaid offer: the order could not be read for its link", { shop: shop.domain, orderGid: offer.orderGid, error: read.error });
    return { kind: "page", page: "unavailable", orderName };
  }
  const payable = payabilityOf(read.order);
  if (!payable.payable) return { kind: "page", page: payable.reason === "paid" || payable.reason === "not_outstanding" ? "paid" : "closed", orderName };
  return payable.url ? { kind: "redirect", url: payable.url } : { kind: "page", page: "closed", orderName };
}

// ---------------------------------------------------------------------------------------------
// The merchant's figures

export type PrepaidOfferFigures = {
  sent: number;
  opened: number;
  paid: number;
  moved: number;
  rewards: { amount: number; currency: string | null };
  notOffered: { reason: NotOfferedReason; count: number }[];
};

/** The last `days` shop days of offers: sent, opened, paid, the COD orders moved to prepaid (with or without an offer), and why offers were not made. */
export async function prepaidOfferFigures(shop: ShopZone, days = 30, now = clock.now()): Promise<PrepaidOfferFigures> {
  const shopId = shop.id;
  const since = lastShopDaysStart(now, days, shop.timezone);
  const [sent, opened, paid, moved, rewards, reasons] = await Promise.all([
    prisma.prepaidOffer.count({ where: { shopId, sentAt: { gte: since } } }),
    prisma.prepaidOffer.count({ where: { shopId, sentAt: { gte: since }, openedAt: { not: null } } }),
    prisma.prepaidOffer.count({ where: { shopId, sentAt: { gte: since }, paidAt: { not: null } } }),
    prisma.orderRecord.count({ where: { shopId, cod: true, prepaidAt: { gte: since } } }),
    prisma.prepaidOffer.findMany({ where: { shopId, paidAt: { gte: since }, incentiveRefundId: { not: null } }, select: { incentive: true, currency: true } }),
    prisma.prepaidOffer.groupBy({ by: ["reason"], where: { shopId, status: "not_offered", createdAt: { gte: since } }, _count: { _all: true } }),
  ]);
  return {
    sent,
    opened,
    paid,
    moved,
    rewards: { amount: rewards.reduce((s, r) => s + (r.incentive ?? 0), 0), currency: rewards[0]?.currency ?? null },
    notOffered: reasons
      .filter((r): r is typeof r & { reason: NotOfferedReason } => !!r.reason && r.reason in NOT_OFFERED_REASONS)
      .map((r) => ({ reason: r.reason, count: r._count._all }))
      .sort((a, b) => b.count - a.count),
  };
}

/** The pay-now card's figures for the settings page, with each reason an offer was not made in the merchant's words. */
export async function prepaidOfferSummary(shopId: string, now = clock.now()) {
  // The shop's days are its zone's: read here, so the page passes only the shop.
  const shop = await prisma.shop.findUniqueOrThrow({ where: { id: shopId }, select: { id: true, timezone: true } });
  const figures = await prepaidOfferFigures(shop, 30, now);
  return { ...figures, notOffered: figures.notOffered.map((n) => ({ ...n, why: NOT_OFFERED_REASONS[n.reason] })) };
}
