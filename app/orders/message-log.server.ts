import { prisma } from "~/core/db.server";
import type { MessageLogEntry } from "./message-log";

/** The message logs of a page of orders: three indexed reads (MessageDelivery, WhatsappReply, the ladder's rungs by shop and order), oldest first per order. */
export async function messageLogsOf(shopId: string, orderGids: string[]): Promise<Map<string, MessageLogEntry[]>> {
  const logs = new Map<string, MessageLogEntry[]>();
  if (!orderGids.length) return logs;
  const [messages, replies, rungs] = await Promise.all([
    // Not ordered here: asked to, SQLite walks the shop's messages by time instead of the orders' (2.2 s at
    // 250,000 messages, npm run bench:growth); the entries are put in time order below.
    prisma.messageDelivery.findMany({
      where: { shopId, orderGid: { in: orderGids }, providerId: { not: null } },
      select: { orderGid: true, channel: true, purpose: true, status: true, errorCode: true, createdAt: true },
    }),
    prisma.whatsappReply.findMany({ where: { shopId, orderGid: { in: orderGids } }, select: { orderGid: true, action: true, outcome: true, createdAt: true }, orderBy: { createdAt: "asc" } }),
    prisma.confirmationRung.findMany({
      where: { shopId, confirmation: { orderGid: { in: orderGids } } },
      select: { rung: true, state: true, detail: true, dueAt: true, confirmation: { select: { orderGid: true } } },
      orderBy: { dueAt: "asc" },
    }),
  ]);
  const add = (gid: string, entry: MessageLogEntry) => logs.set(gid, [...(logs.get(gid) ?? []), entry]);
  for (const m of messages.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())) {
    const channel = m.channel === "whatsapp" || m.channel === "voice" ? m.channel : "sms";
    add(m.orderGid!, { kind: "message", at: m.createdAt.toISOString(), channel, purpose: m.purpose, status: m.status, errorCode: m.errorCode });
  }
  for (const r of rungs) add(r.confirmation.orderGid, { kind: "rung", at: r.dueAt.toISOString(), rung: r.rung, state: r.state, detail: r.detail });
  for (const r of replies) add(r.orderGid, { kind: "reply", at: r.createdAt.toISOString(), action: r.action, outcome: r.outcome });
  for (const entries of logs.values()) entries.sort((a, b) => a.at.localeCompare(b.at));
  return logs;
}
