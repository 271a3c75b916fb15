import { prisma } from "~/core/db.server";
import { forgetShop } from "~/core/settings/shop.server";
import { sessionStorage } from "~/core/shopify/app.server";
import { clock } from "~/core/utils/clock.server";
import { z } from "zod";
import { defineJob, deleteJobsNaming, deleteOrderJobs, deleteShopJobs, enqueueJob } from "~/core/jobs/queue.server";
import { log } from "~/core/utils/log.server";
import { deleteRateCountersNaming } from "~/core/rate-limit/rate-limit.server";
import { forgetPrepaidPhones } from "~/risk/rules.server";
import { matchingRecords } from "./customer-records.server";

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
