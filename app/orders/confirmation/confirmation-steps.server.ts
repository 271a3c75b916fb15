import { z } from "zod";
import { prisma } from "~/core/db.server";
import { defineJob, type JobResult } from "~/core/jobs/queue.server";
import type { Shop } from "~/core/settings/shop.server";
import { ORDER_CANCEL } from "~/core/shopify/operations";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import { enqueueCustomerVerifiedTag, enqueueOrderTags } from "~/orders/tag-jobs.server";
import { amountToCollect, settleOrderRecord } from "~/orders/order-record.server";
import { writtenMoney } from "~/shared/money-words";
import { pickLocale } from "~/shared/locales";
import { queuePrepaidOfferAfterConfirmation } from "~/orders/prepaid-offer.server";
import { takeContact, type ContactShop } from "~/billing/contact-allowance.server";
import type { Sql } from "~/core/db/sql.server";
import { isOptedOut } from "~/sms/opt-out.server";
import { takePhoneText } from "~/sms/phone-cap.server";
import { sendSms } from "~/sms/sms.server";
import { whatsappConfirmTemplate, whatsappLinkTemplate } from "~/sms/whatsapp";
import { admin, fail, holdFulfillment, readOrderState, releaseOurHolds, userErrors, type StepResult } from "./holds.server";
import { confirmationSms, confirmationSummary, PENDING_TAG, SHOPPER_CANCELLED_TAG, UNCONFIRMED_TAG } from "./texts";
import { confirmedByTag, parseLadder, type Rung } from "./ladder";
import { advanceLadder } from "./ladder-jobs.server";
import { scheduleConfirmationStep, STEP_JOBS, type ConfirmationStep } from "./confirmation-jobs.server";
import { confirmationLink, linkToken, stateOf, type Confirmation, type ConfirmationShop } from "./confirmation.server";

/**
 * The steps of a confirmation after purchase (./confirmation.server.ts opens it), run by the job worker:
 * the first text, the hold, the escalation to SMS, the deadline, and what a confirmation or a cancel
 * does to the order. Each one reads the row again and does only what is left.
 */
function stepResult(result: StepResult): JobResult {
  return result.ok ? { ok: true } : { ok: false, error: result.error, retry: result.retry };
}

/** The kinds the worker runs (app/server-build.ts JOB_KINDS). */
export const CONFIRMATION_JOBS = (Object.keys(STEP_JOBS) as ConfirmationStep[]).map((step) =>
  defineJob({ ...STEP_JOBS[step], run: async ({ confirmationId, resendAt }): Promise<JobResult> => stepResult(await runConfirmationStep(confirmationId, step, { resend: Boolean(resendAt) })) }),
);


type StepShop = ConfirmationShop & ContactShop & Pick<Shop, "tagVerified" | "tagOrders">;

/** `resend`: the run is the merchant's "Resend link" from the Orders page (resendConfirmation). */
export async function runConfirmationStep(confirmationId: string, step: ConfirmationStep, options: { resend?: boolean } = {}): Promise<StepResult> {
  const c = await prisma.orderConfirmation.findUnique({ where: { id: confirmationId }, include: { shop: true } });
  if (!c) return { ok: true, note: "confirmation deleted" };
  if (c.shop.uninstalledAt) return { ok: true, note: "app uninstalled" };
  switch (step) {
    case "notify":
      return notify(c.shop, c, options.resend === true);
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
 * Sent on the app's own, it counts against the shop's allowance and limits (takeConfirmationText); a shop
 * with a ladder sends its first message as the ladder's first rung, so only the merchant's resend comes here.
 */
async function notify(shop: StepShop, c: Confirmation, resend: boolean): Promise<StepResult> {
  if (stateOf(c) !== "pending" || !c.phone || c.notifiedAt) return { ok: true, note: "nothing to send" };
  // The app's own first message asks the opt-out with its allowance (takeContact, below); the merchant's resend here.
  if (resend && (await isOptedOut(shop.id, c.phone))) return { ok: true, note: OPTED_OUT };
  if (!resend && parseLadder(c.ladder)) return { ok: true, note: "the ladder sends the first message" };
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
  const allowed = await takeConfirmationText(shop, c.phone, { link: true, resend });
  // A number that asked to stop was not refused by a limit: nothing to mark.
  if (!allowed.ok) return allowed.reason === "opted_out" ? { ok: true, note: OPTED_OUT } : textCapped(shop, c, allowed.reason);
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
    countWhenSent: allowed.countWhenSent,
  });
  if (!result.ok) {
    if (!result.maybeSent) await allowed.giveBack();
    return { ok: false, retry: result.code === "sms_unavailable", error: result.code };
  }
  await allowed.counted(`${c.id}:first`);
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

const OPTED_OUT = "the number asked us to stop";

type ConfirmationText = { ok: true; countWhenSent?: Sql; counted: (id: string) => Promise<void>; giveBack: () => Promise<void> } | { ok: false; reason: string };

/**
 * May the confirmation's text go to the number now. Sent on the app's own, it is the plan's like a
 * verification (app/billing/contact-allowance.server.ts): the allowance, the shop's daily cap and the
 * number's limits, one count when it went. The merchant's "Resend link" is the merchant's doing: only the
 * number's texts and links of the day, not the allowance (docs/confirmation-ladder.md#limits-and-privacy).
 */
async function takeConfirmationText(shop: StepShop, phone: string, options: { link?: boolean; resend?: boolean }): Promise<ConfirmationText> {
  if (!options.resend) return takeContact(shop, phone, "confirmation", { link: options.link });
  const taken = await takePhoneText(shop.id, phone, options.link ? "link" : "text");
  return taken.ok ? { ok: true, counted: async () => {}, giveBack: taken.giveBack } : { ok: false, reason: "number_texts" };
}

/**
 * The text was refused (`reason`: a limit of the number or the shop, a blocked number, no plan or no
 * allowance left): nothing is sent, and the confirmation is marked so that its deadline never cancels the
 * order (the shopper was not asked); the merchant sees it pending and may resend the link later.
 */
async function textCapped(shop: StepShop, c: Confirmation, reason: string): Promise<StepResult> {
  await prisma.orderConfirmation.updateMany({ where: { id: c.id, textCappedAt: null }, data: { textCappedAt: clock.now() } });
  log.info("order confirmation: not sent, never cancelled at the deadline", { shop: shop.domain, orderGid: c.orderGid, reason });
  return { ok: true, note: `not sent: ${reason}` };
}

/** The order in one line for the WhatsApp question: its number, its amount to pay on delivery. */
async function orderSummaryLine(shop: StepShop, c: Confirmation): Promise<string> {
  const due = await amountToCollect(c.shopId, c.orderGid, shop.currency);
  const amount = due && writtenMoney(due, pickLocale(c.locale, shop.locale), shop.country);
  return confirmationSummary([c.locale, shop.locale], { order: c.orderName ?? "", amount });
}

/**
 * No answer on WhatsApp within the shop's window, or the WhatsApp message failed: the SMS link, once
 * (smsLinkAt; the order has one escalate job, so two instances never run it together). Nothing once
 * the confirmation is answered, closed, or its link already went by SMS.
 */
async function escalate(shop: StepShop, c: Confirmation): Promise<StepResult> {
  if (c.kind !== "verify" || stateOf(c) !== "pending" || !c.phone || c.smsLinkAt) return { ok: true, note: "nothing to send" };
  if (await isOptedOut(shop.id, c.phone)) return { ok: true, note: OPTED_OUT };
  // On a ladder, the WhatsApp rung failed: the next rung comes now, whatever it is.
  const ladder = parseLadder(c.ladder);
  if (ladder) return { ok: true, note: (await advanceLadder(shop.domain, c, ladder, "whatsapp", "failed")) ?? "no rung after WhatsApp" };
  const link = confirmationLink(shop, linkToken(c.id));
  // The SMS after an unanswered WhatsApp question is the same link again: one more text (and one more
  // against the allowance), not another link.
  const allowed = await takeConfirmationText(shop, c.phone, {});
  if (!allowed.ok) return textCapped(shop, c, allowed.reason);
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
    countWhenSent: allowed.countWhenSent,
  });
  if (!result.ok) {
    if (!result.maybeSent) await allowed.giveBack();
    return { ok: false, retry: result.code === "sms_unavailable", error: result.code };
  }
  await allowed.counted(`${c.id}:sms`);
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
