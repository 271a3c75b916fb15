import { z } from "zod";
import { query, sql } from "~/core/db/sql.server";
import { prisma } from "~/core/db.server";
import type { Shop } from "~/core/settings/shop.server";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import { messageLogsOf } from "~/orders/message-log.server";
import type { MessageLogEntry } from "~/orders/message-log";
import { countryTimeZone, localClock } from "~/shared/country-time-zones";
import { phoneCountry } from "~/shared/phone";
import { queueAddressLink, settleByRung } from "./ladder.server";

/**
 * "Needs a person": the orders the confirmation ladder could not confirm (its last rung reached, still
 * pending before the deadline), oldest first, for the merchant's team to call; and what they record
 * after the call, each once per order: confirmed on the phone, cancelled, or the address link sent.
 */
export type PersonQueueRow = {
  confirmationId: string;
  orderGid: string;
  orderName: string;
  placedAt: string;
  queuedAt: string;
  phone: string | null;
  /** The shopper's time now ("14:05") and its zone, when the phone's country has one. */
  shopperTime: { clock: string; zone: string } | null;
  amount: string | null;
  history: MessageLogEntry[];
  done: string[];
};

const QUEUE_LIMIT = 100;

export async function personQueue(shop: Pick<Shop, "id" | "currency">): Promise<PersonQueueRow[]> {
  const now = clock.now();
  const rows = await prisma.orderConfirmation.findMany({
    where: { shopId: shop.id, status: "pending", personAt: { not: null }, deadlineAt: { gt: now } },
    orderBy: { createdAt: "asc" },
    take: QUEUE_LIMIT,
    include: { personActions: { select: { action: true } } },
  });
  const gids = rows.map((r) => r.orderGid);
  const [logs, records] = await Promise.all([
    messageLogsOf(shop.id, gids),
    prisma.orderRecord.findMany({ where: { shopId: shop.id, orderGid: { in: gids } }, select: { orderGid: true, value: true } }),
  ]);
  const values = new Map(records.map((r) => [r.orderGid, r.value]));
  return rows.map((c) => {
    const zone = c.phone ? countryTimeZone(phoneCountry(c.phone)) : null;
    const value = values.get(c.orderGid);
    return {
      confirmationId: c.id,
      orderGid: c.orderGid,
      orderName: c.orderName ?? c.orderGid.replace(/^gid:\/\/shopify\/Order\//, "#"),
      placedAt: c.createdAt.toISOString(),
      queuedAt: c.personAt!.toISOString(),
      phone: c.phone,
      shopperTime: zone ? { clock: localClock(now, zone), zone } : null,
      amount: value != null ? `${value.toFixed(2)}${shop.currency ? ` ${shop.currency}` : ""}` : null,
      history: logs.get(c.orderGid) ?? [],
      done: c.personActions.map((a) => a.action),
    };
  });
}

export const PERSON_INTENTS = ["confirmed", "cancelled", "address_link"] as const;
export type PersonIntent = (typeof PERSON_INTENTS)[number];

export const personActionForm = z.object({
  intent: z.enum(PERSON_INTENTS),
  confirmationId: z.string().regex(/^[0-9a-f]{32}$/),
});

export type PersonActionOutcome =
  | { ok: true; intent: PersonIntent; orderName: string; result: "done" | "already_recorded" | "closed" }
  | { ok: false; intent: PersonIntent | null; code: "not_found" | "invalid_request" };

/**
 * One click on the list, recorded once (one row per confirmation and action): confirm and cancel settle
 * by one conditional UPDATE, so of a double click, or two people clicking, one settles it ("done") and
 * the other finds it settled the same way ("already_recorded"); the address link is queued once per
 * order from this list (one job per order and source).
 */
export async function actForPerson(shop: Pick<Shop, "id" | "domain">, confirmationId: string, intent: PersonIntent): Promise<PersonActionOutcome> {
  const c = await prisma.orderConfirmation.findFirst({ where: { id: confirmationId, shopId: shop.id } });
  if (!c) return { ok: false, intent, code: "not_found" };
  const orderName = c.orderName ?? c.orderGid;
  const record = (outcome: "done" | "closed") =>
    query<{ action: string }>(sql`
      INSERT INTO "PersonAction" ("confirmationId", "action", "outcome", "createdAt") VALUES (${c.id}, ${intent}, ${outcome}, ${clock.now()})
      ON CONFLICT ("confirmationId", "action") DO ${outcome === "done" ? sql`UPDATE SET "outcome" = 'done'` : sql`NOTHING`}
      RETURNING "action"`);
  if (intent === "address_link") {
    // The link goes once per order from this list (one job per order and source); the record says it was asked.
    const pending = c.status === "pending" && c.deadlineAt.getTime() > clock.now().getTime();
    if (!pending) return { ok: true, intent, orderName, result: (await record("closed")).length ? "closed" : "already_recorded" };
    const fresh = await query<{ action: string }>(sql`
      INSERT INTO "PersonAction" ("confirmationId", "action", "outcome", "createdAt") VALUES (${c.id}, ${intent}, 'done', ${clock.now()})
      ON CONFLICT ("confirmationId", "action") DO NOTHING
      RETURNING "action"`);
    await queueAddressLink(shop.domain, c, "person");
    return { ok: true, intent, orderName, result: fresh.length ? "done" : "already_recorded" };
  }
  // The settlement decides: the click whose UPDATE settled the order did it, whatever the other click recorded.
  if (await settleByRung(c, shop.domain, intent, "person")) {
    await record("done");
    log.info("needs a person: the merchant recorded the call", { shop: shop.domain, orderGid: c.orderGid, intent });
    return { ok: true, intent, orderName, result: "done" };
  }
  const now = await prisma.orderConfirmation.findUnique({ where: { id: c.id }, select: { status: true, settledBy: true } });
  if (now?.settledBy === "person" && now.status === intent) return { ok: true, intent, orderName, result: "already_recorded" };
  return { ok: true, intent, orderName, result: (await record("closed")).length ? "closed" : "already_recorded" };
}
