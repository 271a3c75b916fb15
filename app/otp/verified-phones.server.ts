import { prisma } from "~/db.server";
import { clock } from "~/utils/clock.server";

/** Marks a phone as verified for a shop now (the mark the returning-customer skip reads). */
export async function markPhoneVerified(shopId: string, phone: string, at: Date = clock.now()) {
  await prisma.verifiedCustomer.upsert({
    where: { shopId_phone: { shopId, phone } },
    create: { shopId, phone, verifiedAt: at },
    update: { verifiedAt: at },
  });
}

/** When the phone last verified for this shop, or null. */
export async function lastVerifiedAt(shopId: string, phone: string): Promise<Date | null> {
  const row = await prisma.verifiedCustomer.findUnique({ where: { shopId_phone: { shopId, phone } } });
  return row?.verifiedAt ?? null;
}

/** True when the phone verified within `days` days (0 days: never counts as returning). */
export function verifiedWithin(verifiedAt: Date | null, days: number, now: Date = clock.now()): boolean {
  if (!verifiedAt || days <= 0) return false;
  return now.getTime() - verifiedAt.getTime() <= days * 86_400_000;
}
