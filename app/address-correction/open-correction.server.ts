import { prisma } from "~/core/db.server";
import { isUniqueViolation } from "~/core/db/sql.server";

/**
 * An order has at most one open correction: one whose link still works (`pending`) or whose form is
 * being applied (`submitting`). The database holds that, not a read before the insert: the partial
 * unique index `AddressCorrection_open_per_order_key` (hand-written in the address_correction_open_once
 * migration, as Prisma's schema cannot say it) covers exactly these statuses.
 */
export const OPEN_STATUSES = ["pending", "submitting"] as const;

/** The order's open correction that has not expired, if any. */
export function findOpenCorrection(shopId: string, orderGid: string, now: Date) {
  return prisma.addressCorrection.findFirst({
    where: { shopId, orderGid, status: { in: [...OPEN_STATUSES] }, expiresAt: { gt: now } },
  });
}

/** What a new correction is made of; the rest (id, status, times) the database fills in. */
export type NewCorrection = {
  shopId: string;
  orderGid: string;
  orderName: string | null;
  phone: string;
  tokenHash: string;
  source: "api" | "auto" | "whatsapp" | "voice" | "person" | "delivery";
  reason: string | null;
  locale: string;
  before: string;
  expiresAt: Date;
};

type Correction = Awaited<ReturnType<typeof prisma.addressCorrection.create>>;

/**
 * Inserts the order's new open correction, or reports that another one is open (a concurrent request
 * won, here or on another instance). An open correction past its expiry is closed first (`expired`)
 * so that it leaves the index and never blocks a new link.
 */
async function tryOpen(data: NewCorrection, now: Date): Promise<Correction | null> {
  await prisma.addressCorrection.updateMany({
    where: { shopId: data.shopId, orderGid: data.orderGid, status: { in: [...OPEN_STATUSES] }, expiresAt: { lte: now } },
    data: { status: "expired" },
  });
  try {
    return await prisma.addressCorrection.create({ data: { ...data, status: "pending" } });
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

export type OpenOutcome = { ok: true; correction: Correction } | { ok: false; winner: Correction | null };

/**
 * Opens the order's correction, or names the open one that a concurrent request made first. The
 * winner can vanish between the insert and the read (its text failed and it withdrew): then this
 * request tries once more; losing that too, it names whichever is open (none, if that one withdrew too).
 */
export async function openOnce(data: NewCorrection, now: Date): Promise<OpenOutcome> {
  for (let attempt = 1; ; attempt++) {
    const correction = await tryOpen(data, now);
    if (correction) return { ok: true, correction };
    const winner = await findOpenCorrection(data.shopId, data.orderGid, now);
    if (winner || attempt === 2) return { ok: false, winner };
  }
}

/**
 * A new link to the order's open correction, for a shopper who reached it another way that proves the
 * same phone (the failed-delivery page, whose link went to the order's phone): only the token's hash is
 * stored, so the correction's first link cannot be shown again. One conditional UPDATE: the correction
 * must still be pending, unexpired and unchanged since it was read; the link texted before stops working.
 */
export async function reissueCorrectionLink(correction: Pick<Correction, "id" | "tokenHash">, tokenHash: string, now: Date): Promise<boolean> {
  const { count } = await prisma.addressCorrection.updateMany({
    where: { id: correction.id, tokenHash: correction.tokenHash, status: "pending", expiresAt: { gt: now } },
    data: { tokenHash },
  });
  return count === 1;
}
