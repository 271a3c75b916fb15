import { prisma } from "~/core/db.server";
import { orderJobKey } from "~/core/jobs/queue.server";
import { normalizePhone } from "~/shared/phone";

/**
 * What the app holds about one customer of a shop, found by phone and orders (the compliance topics'
 * first step: customers/data_request reports it, customers/redact deletes it, privacy.server.ts).
 */
export async function matchingRecords(shopDomain: string, phone: string | null | undefined, orderGids: string[]) {
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
