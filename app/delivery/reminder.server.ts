import { z } from "zod";
import { writtenMoney } from "~/shared/money-words";
import { prisma } from "~/core/db.server";
import { execute, query, sql } from "~/core/db/sql.server";
import { defineJob, enqueueJob, orderJobKey, type JobResult } from "~/core/jobs/queue.server";
import { getShop, type Shop } from "~/core/settings/shop.server";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import { takeContact } from "~/billing/contact-allowance.server";
import { sendSms } from "~/sms/sms.server";
import { pickLocale } from "~/shared/locales";
import { nextSendTime } from "./quiet-hours";
import { readOrderBalance } from "~/core/shopify/orders.server";
import { reminderText } from "./texts";

/**
 * The delivery-day reminder (docs/delivery.md): a COD order whose shipment is out for delivery
 * (fulfillment_events/create `out_for_delivery`) gets one text with the amount to keep ready and the
 * store's contact, outside the shop's quiet hours. Once per order, kept by the database: the event inserts
 * the order's DeliveryReminder row (`ON CONFLICT DO NOTHING`), and the job claims the row (`queued` →
 * `sending`, one conditional UPDATE) before it texts, so neither a redelivered event nor two job runs send
 * a second text. A claim whose process died is not retried: a reminder lost is better than two.
 * The text is the plan's like a verification (app/billing/contact-allowance.server.ts): it counts
 * against the allowance and the limits, and a number that asked to stop gets none.
 */
export const reminderJob = defineJob({
  kind: "delivery.reminder",
  payload: z.object({ orderGid: z.string().regex(/^gid:\/\/shopify\/Order\/\d{1,20}$/), notBefore: z.string().max(40).optional() }),
  // The quiet hours moved the job (a new notBefore): it runs again then.
  merge: (queued, incoming) => (incoming.notBefore && incoming.notBefore !== queued.notBefore ? incoming : null),
  run: ({ orderGid }, { shop }) => runReminder(shop, orderGid),
});

type ReminderShop = Pick<Shop, "id" | "domain" | "deliveryReminder" | "timezone" | "quietHoursStart" | "quietHoursEnd">;

/**
 * A shipment of the order is out for delivery: the order's reminder row (a COD order the app recorded,
 * with the shop's reminder on) and its job, due now or when the quiet hours end. Returns whether the order
 * has a reminder queued. A second event finds the row: its job is queued again, which changes nothing.
 */
export async function queueDeliveryReminder(shop: ReminderShop, orderGid: string): Promise<boolean> {
  if (!shop.deliveryReminder) return false;
  const now = clock.now();
  await execute(sql`
    INSERT INTO "DeliveryReminder" ("shopId", "orderGid", "phone", "status", "createdAt", "updatedAt")
    SELECT ${shop.id}, ${orderGid}, "phone", 'queued', ${now}, ${now} FROM "OrderRecord"
    WHERE "shopId" = ${shop.id} AND "orderGid" = ${orderGid} AND "cod" = ${true}
    ON CONFLICT ("shopId", "orderGid") DO NOTHING`);
  // The insert and the job are two statements: a process stopped between them leaves a row whose job the
  // next delivery of the event queues (Shopify retries a webhook it got no answer for).
  const [row] = await query<{ status: string }>(sql`SELECT "status" FROM "DeliveryReminder" WHERE "shopId" = ${shop.id} AND "orderGid" = ${orderGid}`);
  if (row?.status !== "queued") return false;
  const runAt = nextSendTime(now, shop);
  await enqueueJob(reminderJob, { shop: shop.domain, key: orderJobKey(shop.domain, orderGid), payload: { orderGid }, runAt });
  return true;
}

async function settle(shopId: string, orderGid: string, status: "sent" | "skipped" | "failed" | "queued", note: string | null) {
  const now = clock.now();
  await prisma.deliveryReminder.updateMany({
    where: { shopId, orderGid },
    data: { status, note, ...(status === "sent" ? { sentAt: now } : {}), ...(status === "queued" ? { sendingAt: null } : {}) },
  });
}

async function runReminder(shopDomain: string, orderGid: string): Promise<JobResult> {
  const shop = await getShop(shopDomain);
  if (!shop || shop.uninstalledAt) return { ok: true };
  const now = clock.now();
  const allowed = nextSendTime(now, shop);
  if (allowed.getTime() > now.getTime()) {
    // The quiet hours began since the job was queued (or the merchant moved them): it waits for their end.
    await enqueueJob(reminderJob, { shop: shopDomain, key: orderJobKey(shopDomain, orderGid), payload: { orderGid, notBefore: allowed.toISOString() }, runAt: allowed });
    return { ok: true };
  }
  // The claim: only one run moves the row from queued to sending.
  const claimed = await execute(sql`
    UPDATE "DeliveryReminder" SET "status" = 'sending', "sendingAt" = ${now}, "updatedAt" = ${now}
    WHERE "shopId" = ${shop.id} AND "orderGid" = ${orderGid} AND "status" = 'queued'`);
  if (claimed !== 1) return { ok: true };
  const row = await prisma.deliveryReminder.findUniqueOrThrow({ where: { shopId_orderGid: { shopId: shop.id, orderGid } } });
  if (!shop.deliveryReminder) return settle(shop.id, orderGid, "skipped", "reminder turned off").then(() => ({ ok: true }) as const);
  if (!row.phone) return settle(shop.id, orderGid, "skipped", "no phone").then(() => ({ ok: true }) as const);
  const outcome = await prisma.orderOutcome.findUnique({ where: { shopId_orderGid: { shopId: shop.id, orderGid } }, select: { outcome: true } });
  if (outcome && outcome.outcome !== "none") return settle(shop.id, orderGid, "skipped", `already ${outcome.outcome}`).then(() => ({ ok: true }) as const);

  const balance = await readOrderBalance(shopDomain, orderGid);
  if (!balance.ok) {
    await settle(shop.id, orderGid, "queued", null);
    return { ok: false, error: balance.error };
  }
  const order = balance.data;
  if (!order || order.cancelledAt) return settle(shop.id, orderGid, "skipped", order ? "order cancelled" : "order not found").then(() => ({ ok: true }) as const);
  const due = order.totalOutstandingSet.shopMoney;
  if (!(Number(due.amount) > 0)) return settle(shop.id, orderGid, "skipped", "nothing to pay on delivery").then(() => ({ ok: true }) as const);

  const record = await prisma.orderRecord.findUnique({ where: { shopId_orderGid: { shopId: shop.id, orderGid } }, select: { orderName: true } });
  const confirmation = await prisma.orderConfirmation.findUnique({ where: { shopId_orderGid: { shopId: shop.id, orderGid } }, select: { locale: true } });
  const locale = pickLocale(confirmation?.locale, shop.locale);
  const body = reminderText([locale], {
    shop: shop.name ?? shop.domain,
    order: record?.orderName ?? order.name,
    amount: writtenMoney({ amount: Number(due.amount), currency: due.currencyCode }, locale, shop.country),
    contact: shop.storeContact ?? shop.primaryDomain ?? shop.domain,
  });
  const contact = await takeContact(shop, row.phone, "reminder");
  if (!contact.ok) return settle(shop.id, orderGid, "skipped", contact.reason).then(() => ({ ok: true }) as const);
  const sent = await sendSms({
    shop: { id: shop.id, name: shop.name, domain: shop.domain },
    to: row.phone,
    body,
    channel: "sms",
    purpose: "delivery_reminder",
    orderGid,
    countWhenSent: contact.countWhenSent,
  });
  if (sent.ok || sent.maybeSent) await contact.counted(orderGid);
  else await contact.giveBack();
  if (sent.ok) {
    await settle(shop.id, orderGid, "sent", null);
    log.info("delivery reminder sent", { shop: shopDomain, orderGid });
    return { ok: true };
  }
  if (sent.maybeSent) {
    // Twilio did not answer in time: the text may have gone, and a second one is what this row prevents.
    await settle(shop.id, orderGid, "sent", `outcome unknown: ${sent.code}`);
    return { ok: true };
  }
  if (sent.code === "sms_unavailable") {
    await settle(shop.id, orderGid, "queued", null);
    return { ok: false, error: sent.code };
  }
  await settle(shop.id, orderGid, "failed", sent.code);
  return { ok: true };
}
