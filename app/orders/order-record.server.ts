import { prisma } from "~/core/db.server";
import type { Money } from "~/shared/money-words";
import { execute, query, sql, type Sql } from "~/core/db/sql.server";
import { clock } from "~/core/utils/clock.server";
import { ORDER_COUNT_CAP, ORDER_STATUSES, type DepositState, type OrderStatus } from "~/shared/order-status";
import { lastShopDaysStart } from "~/shared/shop-day";

export type OrderRecordInput = {
  orderGid: string;
  orderName: string | null;
  phone: string | null;
  mode: string | null;
  cod: boolean;
  status: OrderStatus;
  verifiedBy: string | null;
  placedAt: Date;
  /** The COD order's risk assessment (app/risk) and its value; absent for an order that is not COD. */
  risk?: { score: number; band: string; reasons: string } | null;
  value?: number | null;
  /** A COD order's browser IP as a keyed hash (app/risk: orderIpHash), for the per-IP order count; never the IP. */
  ipHash?: string | null;
  /** Where the shopper came from (app/shared/traffic-source.ts), when known. */
  traffic?: { source: string; medium: string | null; campaign: string | null } | null;
  /** The shipping postal code (normalised) and the product titles, for the delivery analytics. */
  postalCode?: string | null;
  products?: string[];
};

/**
 * orders/create's record of the order for the merchant's Orders page and dashboard. The first delivery
 * writes it; a redelivery changes nothing (it would compute the same state, and must not move a
 * confirmed order back to pending). A direct statement: every delivery runs it.
 */
export async function recordOrder(shopId: string, o: OrderRecordInput): Promise<void> {
  await execute(orderRecordInsert(shopId, o));
}

/** `recordOrder`'s statement; with `source` (`FROM ... WHERE ...`), only when the source has a row (a step of a data-modifying CTE). */
export function orderRecordInsert(shopId: string, o: OrderRecordInput, source?: Sql): Sql {
  const now = clock.now();
  const row = sql`${shopId}, ${o.orderGid}, ${o.orderName}, ${o.phone}, ${o.mode}, ${o.cod}, ${o.status}, ${o.verifiedBy}, ${o.placedAt}, ${now}, ${now},
      ${o.risk?.score ?? null}, ${o.risk?.band ?? null}, ${o.risk?.reasons ?? null}, ${o.value ?? null}, ${o.ipHash ?? null},
      ${o.traffic?.source ?? null}, ${o.traffic?.medium ?? null}, ${o.traffic?.campaign ?? null},
      ${o.postalCode ?? null}, ${o.products?.length ? JSON.stringify(o.products) : null}`;
  return sql`
    INSERT INTO "OrderRecord" ("shopId", "orderGid", "orderName", "phone", "mode", "cod", "status", "verifiedBy", "placedAt", "createdAt", "updatedAt",
      "riskScore", "riskBand", "riskReasons", "value", "ipHash", "trafficSource", "trafficMedium", "trafficCampaign", "postalCode", "products")
    ${source ? sql`SELECT ${row} ${source}` : sql`VALUES (${row})`}
    ON CONFLICT ("shopId", "orderGid") DO NOTHING`;
}

/** Verification after purchase moved on: the shopper confirmed or cancelled (WhatsApp), or the deadline passed. Only a pending order moves. */
export async function settleOrderRecord(shopId: string, orderGid: string, status: "confirmed" | "unconfirmed" | "cancelled"): Promise<void> {
  await prisma.orderRecord.updateMany({
    where: { shopId, orderGid, status: "pending" },
    data: { status, ...(status === "confirmed" ? { verifiedBy: "confirmation" } : {}) },
  });
}

/** The app's record of one of the shop's orders (null: the app never recorded it, or it is another shop's). */
export async function findOrderRecord(shopId: string, orderGid: string) {
  return prisma.orderRecord.findUnique({ where: { shopId_orderGid: { shopId, orderGid } }, select: { orderGid: true, orderName: true, phone: true } });
}

export const ORDERS_PAGE_SIZE = 25;

/** Where an order's address correction stands, for the Orders page (the latest request per order). */
export type CorrectionState = "none" | "pending" | "completed" | "not_editable" | "expired";

/** Each status's orders in the period, counted up to ORDER_COUNT_CAP: one index range (shopId, status, placedAt) a status that stops there. */
async function cappedStatusCounts(shopId: string, since: Date | null): Promise<Partial<Record<OrderStatus, number>>> {
  const counts = ORDER_STATUSES.map(
    (status) => sql`SELECT CAST(${status} AS TEXT) AS "status", (SELECT COUNT(*) FROM (
      SELECT 1 FROM "OrderRecord" WHERE "shopId" = ${shopId} AND "status" = ${status}${since ? sql` AND "placedAt" >= ${since}` : sql``} LIMIT ${ORDER_COUNT_CAP}
    ) AS "c") AS "n"`,
  );
  const rows = await query<{ status: OrderStatus; n: unknown }>(counts.reduce((all, one) => sql`${all} UNION ALL ${one}`));
  return Object.fromEntries(rows.filter((r) => Number(r.n) > 0).map((r) => [r.status, Number(r.n)]));
}

/**
 * One page of the shop's orders, newest first, optionally of one status and placed in the last `days` shop days,
 * with each order's address correction state, and how many orders of that period each status has (the
 * page's filter, each counted up to ORDER_COUNT_CAP). Indexed: shopId + placedAt, shopId + status + placedAt.
 */
export async function listOrderRecords(shopId: string, options: { status?: OrderStatus; page?: number; days?: number | null; timezone?: string | null } = {}, now = clock.now()) {
  // One period for every figure: the counts of the filter, the total and the rows.
  const since = options.days ? lastShopDaysStart(now, options.days, options.timezone) : null;
  const inPeriod = { shopId, ...(since ? { placedAt: { gte: since } } : {}) };
  const where = { ...inPeriod, ...(options.status ? { status: options.status } : {}) };
  const counts = await cappedStatusCounts(shopId, since);
  const total = options.status ? (counts[options.status] ?? 0) : Math.min(ORDER_COUNT_CAP, Object.values(counts).reduce((a, b) => a + (b ?? 0), 0));
  const pages = Math.max(1, Math.ceil(total / ORDERS_PAGE_SIZE));
  const page = Math.min(Math.max(1, options.page ?? 1), pages);
  const rows = await prisma.orderRecord.findMany({
    where,
    orderBy: [{ placedAt: "desc" }, { orderGid: "desc" }],
    skip: (page - 1) * ORDERS_PAGE_SIZE,
    take: ORDERS_PAGE_SIZE,
  });
  const corrections = rows.length
    ? await prisma.addressCorrection.findMany({
        where: { shopId, orderGid: { in: rows.map((r) => r.orderGid) } },
        select: { orderGid: true, status: true, expiresAt: true, createdAt: true },
        orderBy: { createdAt: "asc" },
      })
    : [];
  const latest = new Map(corrections.map((c) => [c.orderGid, c]));
  // partial orders paid with a deposit code: the deposit, the balance and whether the balance line is on the order.
  const deposits = rows.length
    ? await prisma.selection.findMany({
        where: { shopId, orderGid: { in: rows.map((r) => r.orderGid) }, depositCode: { not: null } },
        select: { orderGid: true, depositAmount: true, balanceAmount: true, depositCurrency: true, balanceAddedAt: true, balanceHeldAt: true },
      })
    : [];
  const depositByOrder = new Map(deposits.map((d) => [d.orderGid, d]));
  const depositOf = (orderGid: string): DepositState | null => {
    const d = depositByOrder.get(orderGid);
    if (!d || d.depositAmount == null || d.balanceAmount == null || !d.depositCurrency) return null;
    const state = d.balanceAddedAt ? "added" : d.balanceHeldAt ? "held" : "adding";
    return { deposit: d.depositAmount, balance: d.balanceAmount, currency: d.depositCurrency, state };
  };
  const correctionOf = (orderGid: string): CorrectionState => {
    const c = latest.get(orderGid);
    if (!c) return "none";
    if (c.status === "completed" || c.status === "not_editable") return c.status;
    return c.expiresAt.getTime() <= now.getTime() ? "expired" : "pending";
  };
  return {
    rows: rows.map((r) => ({ ...r, correction: correctionOf(r.orderGid), deposit: depositOf(r.orderGid) })),
    total,
    page,
    pages,
    counts,
  };
}

/** The amount to pay on delivery as the order's record has it, in the shop's currency, or null: what the confirmation's question and call say (app/shared/money-words.ts words it). */
export async function amountToCollect(shopId: string, orderGid: string, currency: string | null): Promise<Money | null> {
  const record = await prisma.orderRecord.findUnique({ where: { shopId_orderGid: { shopId, orderGid } }, select: { value: true } });
  return record?.value != null ? { amount: record.value, currency } : null;
}
