import { prisma } from "~/core/db.server";
import { forgetShop } from "~/core/settings/shop.server";
import { sessionStorage } from "~/core/shopify/app.server";
import { clock } from "~/core/utils/clock.server";
import { z } from "zod";
import { defineJob, deleteJobsNaming, deleteOrderJobs, deleteShopJobs, enqueueJob, orderJobKey } from "~/core/jobs/queue.server";
import { log } from "~/core/utils/log.server";
import { normalizePhone } from "~/shared/phone";
import { deleteRateCountersNaming } from "~/core/rate-limit/rate-limit.server";
import { forgetPrepaidPhones } from "~/risk/rules.server";

/**
 * The mandatory compliance topics. What the app holds about a shopper is keyed by phone (the verified
 * mark, payment-mode selections, a pending one-time code's hash, a blocklist entry, rate-limit counters (sends, address-correction requests),
 * the messages sent, address corrections, confirmations after purchase) and by order (selections
 * linked to orders, address corrections, confirmations, and the background jobs about the order).
 */

/** Numeric order ids of a compliance payload, read from the raw body as strings (they exceed 2^53). */
export function orderIdsIn(rawBody: string, field: "orders_requested" | "orders_to_redact"): string[] {
  const m = new RegExp(`"${field}"\\s*:\\s*\\[([^\\]]*)\\]`).exec(rawBody);
  if (!m) return [];
  return [...m[1].matchAll(/"?(\d{1,25})"?/g)].map((x) => x[1]);
}

export function orderGidsOf(ids: string[]): string[] {
  return ids.map((id) => `gid://shopify/Order/${id}`);
}

async function matchingRecords(shopDomain: string, phone: string | null | undefined, orderGids: string[]) {
  const shop = await prisma.shop.findUnique({ where: { domain: shopDomain }, select: { id: true } });
  if (!shop) return null;
  const e164 = normalizePhone(phone ?? null);
  const or = [...(e164 ? [{ phone: e164 }] : []), ...(orderGids.length ? [{ orderGid: { in: orderGids } }] : [])];
  const selections = or.length ? await prisma.selection.findMany({ where: { shopId: shop.id, OR: or }, orderBy: { createdAt: "asc" } }) : [];
  const byOrder = or.length
    ? await prisma.addressCorrection.findMany({ where: { shopId: shop.id, OR: or }, orderBy: { createdAt: "asc" } })
    : [];
  const confirmedByOrder = or.length
    ? await prisma.orderConfirmation.findMany({ where: { shopId: shop.id, OR: or }, orderBy: { createdAt: "asc" } })
    : [];
  // The phones found through the orders (selections, address corrections, confirmations) count as the customer's too.
  const phones = [
    ...new Set([
      ...(e164 ? [e164] : []),
      ...selections.map((s) => s.phone),
      ...byOrder.map((c) => c.phone),
      ...confirmedByOrder.flatMap((c) => (c.phone ? [c.phone] : [])),
    ]),
  ];
  const byPhone = { shopId: shop.id, phone: { in: phones } };
  const none = Promise.resolve([]);
  const [verified, messages, pendingCodes, blocked, corrections, confirmations] = await Promise.all([
    phones.length ? prisma.verifiedCustomer.findMany({ where: byPhone }) : none,
    phones.length ? prisma.messageDelivery.findMany({ where: byPhone, orderBy: { createdAt: "asc" } }) : none,
    phones.length ? prisma.otpChallenge.findMany({ where: byPhone }) : none,
    phones.length ? prisma.blockedPhone.findMany({ where: byPhone }) : none,
    phones.length
      ? prisma.addressCorrection.findMany({
          where: { shopId: shop.id, OR: [{ id: { in: byOrder.map((c) => c.id) } }, { phone: { in: phones } }] },
          orderBy: { createdAt: "asc" },
        })
      : byOrder,
    phones.length
      ? prisma.orderConfirmation.findMany({
          where: { shopId: shop.id, OR: [{ id: { in: confirmedByOrder.map((c) => c.id) } }, { phone: { in: phones } }] },
          orderBy: { createdAt: "asc" },
        })
      : confirmedByOrder,
  ]);
  // Every order the customer's records name: their background jobs carry phones and addresses too.
  const orders = [
    ...new Set([
      ...orderGids,
      ...selections.flatMap((s) => (s.orderGid ? [s.orderGid] : [])),
      ...corrections.map((c) => c.orderGid),
      ...confirmations.map((c) => c.orderGid),
    ]),
  ];
  // The app's record of each of those orders (the merchant's Orders page), by order or by phone.
  const orderRecords = await prisma.orderRecord.findMany({
    where: { shopId: shop.id, OR: [{ orderGid: { in: orders } }, ...(phones.length ? [{ phone: { in: phones } }] : [])] },
    orderBy: { placedAt: "asc" },
  });
  // What became of the customer's COD orders (the risk score's outcomes), by phone and by order, as customers/redact deletes them.
  const orderOutcomes = await prisma.orderOutcome.findMany({
    where: { shopId: shop.id, OR: [{ orderGid: { in: orders } }, ...(phones.length ? [{ phone: { in: phones } }] : [])] },
    orderBy: [{ decidedAt: "asc" }, { orderGid: "asc" }],
  });
  // The offers to pay now after the order (docs/prepaid-offer.md), by phone and by order, as customers/redact deletes them.
  const prepaidOffers = await prisma.prepaidOffer.findMany({
    where: { shopId: shop.id, OR: [{ orderGid: { in: orders } }, ...(phones.length ? [{ phone: { in: phones } }] : [])] },
    orderBy: [{ createdAt: "asc" }, { orderGid: "asc" }],
  });
  // The shopper's WhatsApp answers (by order), the background jobs about the orders (their payloads carry
  // the order's phones and address), the send counters naming a phone, and the merchant's prepaid-only list.
  const [replies, jobs, counters, lists] = await Promise.all([
    orders.length ? prisma.whatsappReply.findMany({ where: { shopId: shop.id, orderGid: { in: orders } }, orderBy: { createdAt: "asc" } }) : none,
    orders.length ? prisma.job.findMany({ where: { shop: shopDomain, key: { in: orders.map((gid) => orderJobKey(shopDomain, gid)) } }, orderBy: { createdAt: "asc" } }) : none,
    phones.length || orders.length ? prisma.rateCounter.findMany({ where: { OR: [...phones, ...orders].map((s) => ({ key: { endsWith: `:${shop.id}:${s}` } })) } }) : none,
    prisma.shop.findUnique({ where: { id: shop.id }, select: { riskPrepaidPhones: true } }),
  ]);
  const prepaidOnly = (lists?.riskPrepaidPhones ?? "").split("\n").filter((e) => e && phones.includes(normalizePhone(e) ?? e));
  // After dispatch (app/delivery): the reminder and the failed-delivery answer, by phone (the order's or the one given) and by order.
  const byPhoneOrOrder = { shopId: shop.id, OR: [{ orderGid: { in: orders } }, ...(phones.length ? [{ phone: { in: phones } }] : [])] };
  const deliveryReminders = await prisma.deliveryReminder.findMany({ where: byPhoneOrOrder, orderBy: { createdAt: "asc" } });
  const deliveryRecoveries = await prisma.deliveryRecovery.findMany({
    where: { ...byPhoneOrOrder, OR: [...byPhoneOrOrder.OR, ...(phones.length ? [{ newPhone: { in: phones } }] : [])] },
    orderBy: { createdAt: "asc" },
  });
  // The number's opt-outs, the ladder's steps of the customer's confirmations (a call's id, the key pressed), and
  // the number's group in the merchant's holdout experiments.
  const [optOuts, rungs, experimentGroups] = await Promise.all([
    phones.length ? prisma.contactOptOut.findMany({ where: { shopId: shop.id, phone: { in: phones } }, orderBy: { createdAt: "asc" } }) : none,
    confirmations.length ? prisma.confirmationRung.findMany({ where: { confirmationId: { in: confirmations.map((c) => c.id) } }, orderBy: { dueAt: "asc" } }) : none,
    prisma.experimentAssignment.findMany({ where: byPhone, include: { experiment: { select: { startedAt: true, endsAt: true, stoppedAt: true } } }, orderBy: { assignedAt: "asc" } }),
  ]);
  return {
    shopId: shop.id,
    phones,
    orders,
    optOuts,
    rungs,
    selections,
    verified,
    pendingCodes,
    blocked,
    corrections,
    confirmations,
    messages,
    orderRecords,
    orderOutcomes,
    prepaidOffers,
    replies,
    jobs,
    counters,
    prepaidOnly,
    deliveryReminders,
    deliveryRecoveries,
    experimentGroups,
  };
}

/** An order record's risk reasons (JSON text) as data, or the text as stored when it does not parse. */
/** The behaviour readings an order's stored assessment kept (app/risk/order-risk.server.ts: riskColumns), or null. */
function behaviourOf(riskReasons: string | null): unknown {
  const parsed = parsedOrText(riskReasons);
  return parsed && typeof parsed === "object" && "behaviour" in parsed ? (parsed as { behaviour: unknown }).behaviour : null;
}

function parsedOrText(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** customers/data_request: everything held for the customer's phone and orders, as a report. */
export async function customerDataReport(shopDomain: string, phone: string | null | undefined, orderGids: string[]) {
  const found = await matchingRecords(shopDomain, phone, orderGids);
  return {
    shop: shopDomain,
    phones: found?.phones ?? [],
    verifiedMarks: (found?.verified ?? []).map((v) => ({ phone: v.phone, verifiedAt: v.verifiedAt.toISOString() })),
    selections: (found?.selections ?? []).map((s) => ({
      id: s.id,
      phone: s.phone,
      mode: s.mode,
      verified: s.verified,
      verifiedAt: s.verifiedAt?.toISOString() ?? null,
      items: s.items,
      cartToken: s.cartToken,
      checkoutUrl: s.checkoutUrl,
      createdAt: s.createdAt.toISOString(),
      orderGid: s.orderGid,
      orderName: s.orderName,
      // The behaviour readings verify-otp's risk score used (docs/risk.md, "Behaviour").
      riskBehaviour: parsedOrText(s.riskBehaviour),
    })),
    // Messages sent to the customer: channel and delivery state (the texts are not kept, except a WhatsApp
    // code's SMS fallback, sealed, until it is sent or the code expires: said, not shown).
    messages: (found?.messages ?? []).map((m) => ({
      phone: m.phone,
      purpose: m.purpose,
      channel: m.channel,
      status: m.status,
      errorCode: m.errorCode,
      orderGid: m.orderGid,
      fallbackBody: m.fallbackBody ? "a sealed SMS fallback of the code, held until it is sent or the code expires" : null,
      createdAt: m.createdAt.toISOString(),
    })),
    // The shopper's answers on WhatsApp (Confirm, Cancel, Change address) to the order's messages.
    whatsappReplies: (found?.replies ?? []).map((r) => ({
      orderGid: r.orderGid,
      sender: r.sender,
      action: r.action,
      outcome: r.outcome,
      createdAt: r.createdAt.toISOString(),
    })),
    pendingCodes: (found?.pendingCodes ?? []).map((c) => ({
      phone: c.phone,
      sentAt: new Date(Number(c.sentAt)).toISOString(),
      expiresAt: new Date(Number(c.expiresAt)).toISOString(),
    })),
    // The end the merchant gave the block (null: until they unblock it): how long it is kept.
    blocklistEntries: (found?.blocked ?? []).map((b) => ({ phone: b.phone, reason: b.reason, createdAt: b.createdAt.toISOString(), expiresAt: b.expiresAt?.toISOString() ?? null })),
    // The merchant's lists the phone is on besides the blocklist: the Risk page's prepaid-only numbers.
    lists: (found?.prepaidOnly ?? []).map((entry) => ({ list: "prepaid_only", phone: normalizePhone(entry) ?? entry })),
    // Per-number send limits: counters whose key names the phone or an order, kept until their window ends.
    sendCounters: (found?.counters ?? []).map((c) => ({ key: c.key, count: c.count, expiresAt: new Date(Number(c.expiresAt)).toISOString() })),
    orderConfirmations: (found?.confirmations ?? []).map((c) => ({
      id: c.id,
      phone: c.phone,
      orderGid: c.orderGid,
      orderName: c.orderName,
      customerGid: c.customerGid,
      status: c.status,
      createdAt: c.createdAt.toISOString(),
      notifiedAt: c.notifiedAt?.toISOString() ?? null,
      confirmedAt: c.confirmedAt?.toISOString() ?? null,
      deadlineAt: c.deadlineAt.toISOString(),
    })),
    // The order's verification state as the merchant's Orders page shows it, and its COD risk score
    // (docs/risk.md): score, band, reasons, the order's value, and its browser IP as a keyed hash (never the IP).
    orders: (found?.orderRecords ?? []).map((o) => ({
      orderGid: o.orderGid,
      orderName: o.orderName,
      phone: o.phone,
      mode: o.mode,
      status: o.status,
      verifiedBy: o.verifiedBy,
      riskScore: o.riskScore,
      riskBand: o.riskBand,
      riskReasons: parsedOrText(o.riskReasons),
      // The behaviour readings the order's risk score used, kept with its reasons.
      riskBehaviour: behaviourOf(o.riskReasons),
      value: o.value,
      ipHash: o.ipHash,
      postalCode: o.postalCode,
      trafficSource: o.trafficSource,
      trafficMedium: o.trafficMedium,
      trafficCampaign: o.trafficCampaign,
      products: parsedOrText(o.products),
      placedAt: o.placedAt.toISOString(),
    })),
    // What became of each COD order, as the risk score learnt it (docs/risk.md).
    orderOutcomes: (found?.orderOutcomes ?? []).map((o) => ({
      orderGid: o.orderGid,
      orderName: found?.orderRecords.find((r) => r.orderGid === o.orderGid)?.orderName ?? null,
      phone: o.phone,
      postalCode: o.postalCode,
      outcome: o.outcome,
      reason: o.reason,
      decidedAt: o.decidedAt.toISOString(),
    })),
    // The group of the merchant's holdout experiment the number was drawn into (held out: not asked to verify).
    experimentGroups: (found?.experimentGroups ?? []).map(({ phone, arm, assignedAt, experiment: e }) => ({
      phone, arm, assignedAt: assignedAt.toISOString(), experimentStartedAt: e.startedAt.toISOString(), experimentEndsAt: (e.stoppedAt ?? e.endsAt)?.toISOString() ?? null,
    })),
    contactOptOuts: (found?.optOuts ?? []).map((o) => ({ phone: o.phone, channel: o.channel, source: o.source, createdAt: o.createdAt.toISOString() })),
    confirmationSteps: (found?.rungs ?? []).map((r) => ({
      orderGid: found?.confirmations.find((c) => c.id === r.confirmationId)?.orderGid ?? null,
      rung: r.rung,
      state: r.state,
      detail: r.detail,
      providerId: r.providerId,
      sentAt: r.sentAt?.toISOString() ?? null,
    })),
    deliveryReminders: (found?.deliveryReminders ?? []).map((r) => ({
      orderGid: r.orderGid,
      phone: r.phone,
      status: r.status,
      sentAt: r.sentAt?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
    })),
    deliveryRecoveries: (found?.deliveryRecoveries ?? []).map((r) => ({
      orderGid: r.orderGid,
      orderName: r.orderName,
      phone: r.phone,
      cause: r.cause,
      status: r.status,
      choice: r.choice,
      choiceDate: r.choiceDate,
      newPhone: r.newPhone,
      digipin: r.digipin,
      createdAt: r.createdAt.toISOString(),
    })),
    // Offers to pay the order online after it was placed: what was offered, sent, opened and paid.
    prepaidOffers: (found?.prepaidOffers ?? []).map((p) => ({
      orderGid: p.orderGid,
      orderName: p.orderName,
      phone: p.phone,
      status: p.status,
      reason: p.reason,
      channel: p.channel,
      amount: p.amount,
      currency: p.currency,
      incentive: p.incentive,
      createdAt: p.createdAt.toISOString(),
      sentAt: p.sentAt?.toISOString() ?? null,
      openedAt: p.openedAt?.toISOString() ?? null,
      paidAt: p.paidAt?.toISOString() ?? null,
    })),
    // Work waiting or done about the customer's orders (tags, checks, confirmations): its payload holds
    // copies of the order's phones and address. Kept 30 days after it is done.
    backgroundJobs: (found?.jobs ?? []).map((j) => ({
      kind: j.kind,
      payload: parsedOrText(j.payload),
      createdAt: j.createdAt.toISOString(),
      doneAt: j.doneAt?.toISOString() ?? null,
      failedAt: j.failedAt?.toISOString() ?? null,
    })),
    addressCorrections: (found?.corrections ?? []).map((c) => ({
      id: c.id,
      phone: c.phone,
      orderGid: c.orderGid,
      orderName: c.orderName,
      status: c.status,
      before: c.before,
      after: c.after,
      digipin: c.digipin,
      createdAt: c.createdAt.toISOString(),
      completedAt: c.completedAt?.toISOString() ?? null,
    })),
  };
}

/**
 * customers/redact: deletes the customer's verified mark, selections, pending code, blocklist entry,
 * rate-limit counters naming a phone or an order, message records, address corrections, confirmations
 * after purchase and order records (by phone and by order), the background jobs about those orders, and
 * the reports of the customer's earlier data requests (by Shopify's customer id or phone).
 */
export async function redactCustomer(shopDomain: string, phone: string | null | undefined, orderGids: string[], customerId?: string | null) {
  const found = await matchingRecords(shopDomain, phone, orderGids);
  if (!found) return { selections: 0, verifiedMarks: 0, pendingCodes: 0, blocklistEntries: 0, addressCorrections: 0, orderConfirmations: 0, dataRequests: 0 };
  // The phones found through the orders count as the customer's too.
  const selections = await prisma.selection.deleteMany({
    where: { shopId: found.shopId, OR: [{ id: { in: found.selections.map((s) => s.id) } }, { phone: { in: found.phones } }] },
  });
  const verifiedMarks = await prisma.verifiedCustomer.deleteMany({ where: { shopId: found.shopId, phone: { in: found.phones } } });
  const pendingCodes = await prisma.otpChallenge.deleteMany({ where: { shopId: found.shopId, phone: { in: found.phones } } });
  // A merchant's blocklist entry names the person too; redaction removes it (documented in the README).
  const blocklistEntries = await prisma.blockedPhone.deleteMany({ where: { shopId: found.shopId, phone: { in: found.phones } } });
  // So does the number's "do not text / do not call" (the confirmation ladder's opt-outs).
  await prisma.contactOptOut.deleteMany({ where: { shopId: found.shopId, phone: { in: found.phones } } });
  // The same for the Risk page's prepaid-only phones (app/risk). The risk score's own data goes with what
  // holds it: the assessment with the order's record, the 24 h counters with the phone's counters below.
  await forgetPrepaidPhones(found.shopId, found.phones);
  // Send counters, address-correction counters: every key that names one of the phones or orders.
  await deleteRateCountersNaming(found.shopId, [...found.phones, ...found.orders]);
  await prisma.messageDelivery.deleteMany({ where: { shopId: found.shopId, OR: [{ phone: { in: found.phones } }, { orderGid: { in: found.orders } }] } });
  // The shopper's WhatsApp answers (Confirm / Cancel / Change address) name the sender: by order.
  await prisma.whatsappReply.deleteMany({ where: { shopId: found.shopId, orderGid: { in: found.orders } } });
  const addressCorrections = await prisma.addressCorrection.deleteMany({
    where: { shopId: found.shopId, OR: [{ id: { in: found.corrections.map((c) => c.id) } }, { phone: { in: found.phones } }] },
  });
  const orderConfirmations = await prisma.orderConfirmation.deleteMany({
    where: { shopId: found.shopId, OR: [{ id: { in: found.confirmations.map((c) => c.id) } }, { phone: { in: found.phones } }] },
  });
  await prisma.orderRecord.deleteMany({ where: { shopId: found.shopId, orderGid: { in: found.orderRecords.map((o) => o.orderGid) } } });
  // The pay-now offers sent about those orders (the phone the link went to), by phone and by order.
  await prisma.prepaidOffer.deleteMany({ where: { shopId: found.shopId, OR: [{ phone: { in: found.phones } }, { orderGid: { in: found.orders } }] } });
  // What became of the customer's orders (the risk score's outcomes: phone and postal code), by phone and by order.
  await prisma.orderOutcome.deleteMany({ where: { shopId: found.shopId, OR: [{ phone: { in: found.phones } }, { orderGid: { in: found.orders } }] } });
  // After dispatch: the reminder and the failed-delivery answer (with any number the shopper gave), by the rows found.
  await prisma.deliveryReminder.deleteMany({ where: { shopId: found.shopId, orderGid: { in: found.deliveryReminders.map((r) => r.orderGid) } } });
  await prisma.deliveryRecovery.deleteMany({ where: { shopId: found.shopId, id: { in: found.deliveryRecoveries.map((r) => r.id) } } });
  // The customer's arm in the merchant's holdout experiment (app/experiment).
  await prisma.experimentAssignment.deleteMany({ where: { shopId: found.shopId, phone: { in: found.phones } } });
  // The background jobs about those orders hold their phones and addresses.
  await deleteOrderJobs(shopDomain, [...new Set([...found.orders, ...found.deliveryRecoveries.map((r) => r.orderGid), ...found.deliveryReminders.map((r) => r.orderGid)])]);
  // ...and every other job, finished ones included, whose payload names the shopper (a phone, an order,
  // the customer: the verified-customer tag job carries the phone).
  const customerGid = customerId && /^\d+$/.test(String(customerId)) ? `gid://shopify/Customer/${customerId}` : null;
  await deleteJobsNaming(shopDomain, [...found.phones, ...found.orders, ...(customerGid ? [customerGid] : [])]);
  // The customer's earlier data requests: their reports name the customer and hold all of the above.
  const dataRequests = await deleteDataRequestsOf(found.shopId, customerId ?? null, found.phones);
  return {
    dataRequests,
    selections: selections.count,
    verifiedMarks: verifiedMarks.count,
    pendingCodes: pendingCodes.count,
    blocklistEntries: blocklistEntries.count,
    addressCorrections: addressCorrections.count,
    orderConfirmations: orderConfirmations.count,
  };
}

async function deleteDataRequestsOf(shopId: string, customerId: string | null, phones: string[]): Promise<number> {
  const or = [...(customerId ? [{ customerId }] : []), ...(phones.length ? [{ customerPhone: { in: phones } }] : [])];
  if (!or.length) return 0;
  const { count } = await prisma.dataRequestReport.deleteMany({ where: { shopId, OR: or } });
  return count;
}

/** Shopify sends shop/redact 48 hours after an uninstall; the shop's data is kept until then, in case it reinstalls. */
export const REDACT_AFTER_UNINSTALL_MS = 48 * 60 * 60 * 1000;

export type ShopRedactOutcome =
  | { ok: true; shops: number }
  | { ok: false; code: "shop_installed" }
  | { ok: false; code: "redact_too_early"; dueAt: Date };

/**
 * shop/redact: deletes everything held for the shop (its row cascades to its customers' records,
 * pending codes and blocklist), but never for a shop that is installed or was uninstalled less than
 * 48 hours ago: a redact then is not due (or comes from a shop that reinstalled), and nothing is
 * deleted. The decision is the shop row's conditional delete, so a reinstall racing the redact wins.
 */
export async function redactShop(shopDomain: string): Promise<ShopRedactOutcome> {
  const cutoff = new Date(clock.now().getTime() - REDACT_AFTER_UNINSTALL_MS);
  const shop = await prisma.shop.findUnique({ where: { domain: shopDomain }, select: { id: true, uninstalledAt: true } });
  if (shop) {
    if (!shop.uninstalledAt) return { ok: false, code: "shop_installed" };
    if (shop.uninstalledAt > cutoff) return { ok: false, code: "redact_too_early", dueAt: new Date(shop.uninstalledAt.getTime() + REDACT_AFTER_UNINSTALL_MS) };
  }
  const shops = await prisma.shop.deleteMany({ where: { domain: shopDomain, uninstalledAt: { lte: cutoff } } });
  if (shop && !shops.count) return { ok: false, code: "shop_installed" };
  await prisma.session.deleteMany({ where: { shop: shopDomain } });
  sessionStorage.forgetShop(shopDomain);
  await deleteShopJobs(shopDomain);
  // Counter keys name the shop's id between colons (e.g. otp-send:<shopId>:<phone>).
  if (shop) await prisma.rateCounter.deleteMany({ where: { key: { contains: `:${shop.id}:` } } });
  forgetShop(shopDomain);
  // Kept last: the delivery records are how a redelivery of this very webhook is recognised.
  await prisma.webhookDelivery.deleteMany({ where: { shop: shopDomain, topic: { not: "SHOP_REDACT" } } });
  return { ok: true, shops: shops.count };
}

/**
 * A shop/redact that came before its 48 hours (the shop was uninstalled less than 48 hours ago): the
 * deletion is scheduled for when it is due, as a job (one per shop). It runs `redactShop` then, which
 * deletes nothing if the shop reinstalled meanwhile.
 */
export const shopRedactJob = defineJob({
  kind: "shop-redact",
  payload: z.object({}),
  run: async (_payload, { shop }) => {
    const outcome = await redactShop(shop);
    log.info("scheduled shop/redact", { shop, outcome: outcome.ok ? "deleted" : outcome.code });
    return { ok: true };
  },
});

export async function scheduleShopRedact(shopDomain: string, dueAt: Date): Promise<void> {
  await enqueueJob(shopRedactJob, { shop: shopDomain, key: `${shopDomain}|redact`, payload: {}, runAt: dueAt });
}

/**
 * app/uninstalled: the shop's sessions are removed and the shop is marked uninstalled. Its data stays
 * until shop/redact (48 hours later), in case the merchant reinstalls. A redelivery (or a late one)
 * keeps the first uninstall time.
 */
export async function uninstallShop(shopDomain: string) {
  await prisma.session.deleteMany({ where: { shop: shopDomain } });
  sessionStorage.forgetShop(shopDomain);
  await prisma.shop.updateMany({ where: { domain: shopDomain, uninstalledAt: null }, data: { uninstalledAt: clock.now() } });
  forgetShop(shopDomain);
}
