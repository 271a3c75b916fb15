import { prisma } from "~/db.server";
import { execute, sql } from "~/db/sql.server";
import { clock } from "~/utils/clock.server";
import type { OrderStatus } from "./order-status";

export type OrderRecordInput = {
  orderGid: string;
  orderName: string | null;
  phone: string | null;
  mode: string | null;
  cod: boolean;
  status: OrderStatus;
  verifiedBy: string | null;
  placedAt: Date;
};

/**
 * orders/create's record of the order for the merchant's Orders page and dashboard. The first delivery
 * writes it; a redelivery changes nothing (it would compute the same state, and must not move a
 * confirmed order back to pending). A direct statement: every delivery runs it.
 */
export async function recordOrder(shopId: string, o: OrderRecordInput): Promise<void> {
  const now = clock.now();
  await execute(sql`
    INSERT INTO "OrderRecord" ("shopId", "orderGid", "orderName", "phone", "mode", "cod", "status", "verifiedBy", "placedAt", "createdAt", "updatedAt")
    VALUES (${shopId}, ${o.orderGid}, ${o.orderName}, ${o.phone}, ${o.mode}, ${o.cod}, ${o.status}, ${o.verifiedBy}, ${o.placedAt}, ${now}, ${now})
    ON CONFLICT ("shopId", "orderGid") DO NOTHING`);
}

/** Verification after purchase moved on: the shopper confirmed, or the deadline passed. Only a pending order moves. */
export async function settleOrderRecord(shopId: string, orderGid: string, status: "confirmed" | "unconfirmed"): Promise<void> {
  await prisma.orderRecord.updateMany({
    where: { shopId, orderGid, status: "pending" },
    data: { status, ...(status === "confirmed" ? { verifiedBy: "confirmation" } : {}) },
  });
}
