import { z } from "zod";
import { execute, sql } from "~/core/db/sql.server";
import { prisma } from "~/core/db.server";
import { defineJob, enqueueJob, orderJobKey } from "~/core/jobs/queue.server";
import { getShop } from "~/core/settings/shop.server";
import { PREPAID_INCENTIVE_REFUND, TAGS_REMOVE } from "~/core/shopify/operations";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import { currencyDigits, roundMoney } from "~/shared/money";
import { admin, fail, releaseOurHolds, userErrors, type StepResult } from "./confirmation/holds.server";
import { PENDING_TAG } from "./confirmation/texts";
import { asJobResult, onlinePayment, PAID_AFTER_SHIPPING_TAG, PREPAID_TAG, readOfferOrder, SHIPPED, type OfferOrder, type OfferShop } from "./prepaid-offer.server";
import { enqueueOrderTags } from "./tag-jobs.server";

/**
 * Paid online after the order (docs/prepaid-offer.md): once Shopify reports a COD order paid (orders/paid),
 * the payment is read back from the order's transactions and its effects applied once: the order tagged
 * prepaid, its payment-mode tag moved, a confirmation still awaited ended, our holds released, and the
 * merchant's reward refunded against that payment (docs/decisions/prepaid-incentive-by-refund.md).
 */

/** Shopify said the order is paid (orders/paid): the payment is read back and its effects applied once. */
export const prepaidPaidJob = defineJob({
  kind: "prepaid-offer.paid",
  payload: z.object({ orderGid: z.string().regex(/^gid:\/\/shopify\/Order\/\d+$/) }),
  run: async ({ orderGid }, { shop }) => asJobResult(await applyOnlinePayment(shop, orderGid)),
});

/** orders/paid for an order the app recorded as COD: its effects as a durable job (the order is read back first). */
export async function queueOrderPaid(shopDomain: string, orderGid: string): Promise<boolean> {
  const shop = await getShop(shopDomain);
  if (!shop || shop.uninstalledAt) return false;
  const record = await prisma.orderRecord.findUnique({ where: { shopId_orderGid: { shopId: shop.id, orderGid } }, select: { cod: true } });
  if (!record?.cod) return false;
  await enqueueJob(prepaidPaidJob, { shop: shop.domain, key: orderJobKey(shop.domain, orderGid), payload: { orderGid } });
  return true;
}

const tagsRemoveReply = z.object({ tagsRemove: z.object({ userErrors: z.array(z.object({ message: z.string() })) }) });

/**
 * A COD order paid online, read back from Shopify. Each effect is once: the record's `prepaidAt` and the
 * offer's `paidAt` by conditional updates, the confirmation closed only while pending, tags added by the
 * order's tags job (appending), holds released from what Shopify shows, the reward by one refund under
 * an idempotency key and a note that a later run finds on the order.
 */
export async function applyOnlinePayment(shopDomain: string, orderGid: string): Promise<StepResult> {
  const shop = await getShop(shopDomain);
  if (!shop || shop.uninstalledAt) return { ok: true, note: "shop gone" };
  const read = await readOfferOrder(shop.domain, orderGid);
  if (!read.ok) return fail(read.error);
  const order = read.order;
  if (!order) return { ok: true, note: "order gone" };
  const payment = onlinePayment(order);
  if (!payment) return { ok: true, note: "no online payment (cash recorded by hand, or nothing paid yet)" };
  if (Number(order.totalOutstandingSet.presentmentMoney.amount) > 0) return { ok: true, note: "partly paid online: still COD" };
  const now = clock.now();

  const moved = await execute(sql`
    UPDATE "OrderRecord" SET "prepaidAt" = ${now}, "updatedAt" = ${now},
      "verifiedBy" = CASE WHEN "status" = 'pending' THEN 'payment' ELSE "verifiedBy" END,
      "status" = CASE WHEN "status" = 'pending' THEN 'confirmed' ELSE "status" END
    WHERE "shopId" = ${shop.id} AND "orderGid" = ${orderGid} AND "cod" = ${true} AND "prepaidAt" IS NULL`);
  await execute(sql`
    UPDATE "PrepaidOffer" SET "status" = 'paid', "paidAt" = ${now}, "updatedAt" = ${now}
    WHERE "shopId" = ${shop.id} AND "orderGid" = ${orderGid} AND "paidAt" IS NULL AND "status" IN ('sent', 'invoiced')`);
  // A confirmation still awaited ends: the money is in, nothing is left to verify for this order.
  await prisma.orderConfirmation.updateMany({ where: { shopId: shop.id, orderGid, status: "pending" }, data: { status: "paid", closedAt: now } });
  const confirmation = await prisma.orderConfirmation.findUnique({ where: { shopId_orderGid: { shopId: shop.id, orderGid } }, select: { hold: true, status: true } });

  const parts: StepResult[] = [];
  if (confirmation?.hold) parts.push(await releaseOurHolds(shop.domain, orderGid));
  if (shop.tagOrders) parts.push(await retag(shop, order, confirmation?.status === "paid"));
  parts.push(await giveIncentive(shop, order, payment));
  if (moved) log.info("COD order moved to prepaid", { shop: shop.domain, orderGid, gateway: payment.gateway });
  return parts.find((p) => !p.ok) ?? { ok: true, note: moved ? "moved to prepaid" : "already recorded" };
}

/**
 * The order's tags: `cod-prepaid` (and `cod-paid-after-shipping` when the parcel had left, so the merchant
 * tells the courier not to collect), the payment mode's tag moved from cod to prepaid (a shipping app that
 * reads it books the parcel without cash), and `cod-pending` removed when the payment ended the confirmation.
 */
async function retag(shop: OfferShop, order: OfferOrder, endedConfirmation: boolean): Promise<StepResult> {
  const add = [PREPAID_TAG, `${shop.tagModePrefix}prepaid`, ...(SHIPPED.has(order.displayFulfillmentStatus) ? [PAID_AFTER_SHIPPING_TAG] : [])];
  const remove = [`${shop.tagModePrefix}cod`, ...(endedConfirmation ? [PENDING_TAG] : [])];
  await enqueueOrderTags(shop.domain, order.id, add, remove);
  const removed = await admin(shop.domain, TAGS_REMOVE, { id: order.id, tags: remove }, tagsRemoveReply);
  if (!removed.ok) return fail(removed.error);
  if (removed.data.tagsRemove.userErrors.length) return fail(`user_errors: ${removed.data.tagsRemove.userErrors.map((e) => e.message).join("; ")}`, false);
  return { ok: true };
}

const refundReply = z.object({ refundCreate: z.object({ refund: z.object({ id: z.string() }).nullable(), userErrors }) });

/** The note on the reward's refund: a later run finds it on the order and refunds nothing more. */
export function incentiveNote(offerId: string): string {
  return `COD Verify: reward for paying online (offer ${offerId})`;
}

async function giveIncentive(shop: OfferShop, order: OfferOrder, payment: NonNullable<ReturnType<typeof onlinePayment>>): Promise<StepResult> {
  const offer = await prisma.prepaidOffer.findUnique({ where: { shopId_orderGid: { shopId: shop.id, orderGid: order.id } } });
  if (!offer?.paidAt || !offer.incentive || offer.incentiveRefundId || offer.incentiveError) return { ok: true };
  const note = incentiveNote(offer.id);
  const existing = order.refunds.find((r) => r.note === note);
  if (existing) return recordRefund(offer.id, existing.id, null);
  const paid = Number(payment.amountSet.presentmentMoney.amount);
  const currency = payment.amountSet.presentmentMoney.currencyCode;
  if (currency !== offer.currency) return recordRefund(offer.id, null, `paid in ${currency}, the reward was offered in ${offer.currency}`);
  const amount = roundMoney(Math.min(offer.incentive, paid), currencyDigits(currency));
  const refunded = await admin(
    shop.domain,
    PREPAID_INCENTIVE_REFUND,
    {
      idempotencyKey: `prepaid-incentive-${offer.id}`,
      input: {
        orderId: order.id,
        note,
        notify: true,
        currency,
        transactions: [{ orderId: order.id, parentId: payment.id, amount: amount.toFixed(currencyDigits(currency)), gateway: payment.gateway, kind: "REFUND" }],
      },
    },
    refundReply,
  );
  if (!refunded.ok) return fail(refunded.error);
  const errors = refunded.data.refundCreate.userErrors;
  if (errors.length || !refunded.data.refundCreate.refund) {
    const why = errors.map((e) => e.message).join("; ").slice(0, 300) || "no refund in Shopify's answer";
    log.warn("prepaid offer: Shopify refused the reward's refund", { shop: shop.domain, orderGid: order.id, why });
    return recordRefund(offer.id, null, why);
  }
  return recordRefund(offer.id, refunded.data.refundCreate.refund.id, null);
}

async function recordRefund(offerId: string, refundId: string | null, error: string | null): Promise<StepResult> {
  const now = clock.now();
  await execute(sql`
    UPDATE "PrepaidOffer" SET "incentiveRefundId" = ${refundId}, "incentiveError" = ${error}, "updatedAt" = ${now}
    WHERE "id" = ${offerId} AND "incentiveRefundId" IS NULL AND "incentiveError" IS NULL`);
  return { ok: true, note: refundId ? "reward refunded" : `reward not refunded: ${error}` };
}

