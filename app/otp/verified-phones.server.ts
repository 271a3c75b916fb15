import { prisma } from "~/core/db.server";
import { execute, sql } from "~/core/db/sql.server";
import { clock } from "~/core/utils/clock.server";

/** Marks a phone as verified for a shop now (the mark the returning-customer skip reads). */
export async function markPhoneVerified(shopId: string, phone: string, at: Date = clock.now()) {
  // One atomic statement on the hot path of verify-otp (the same upsert on both engines).
  await execute(sql`
    INSERT INTO "VerifiedCustomer" ("shopId", "phone", "verifiedAt") VALUES (${shopId}, ${phone}, ${at})
    ON CONFLICT ("shopId", "phone") DO UPDATE SET "verifiedAt" = excluded."verifiedAt"`);
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
