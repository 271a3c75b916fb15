import { prisma } from "~/db.server";
import { normalizePhone } from "~/shared/phone";

/**
 * A shop's phone blocklist: send-otp answers 403 phone_blocked to these numbers before anything is
 * counted or sent. Managed from the admin page (app._index) or with `npm run blocklist` (README).
 */
export async function blockPhone(shopId: string, rawPhone: string, reason?: string | null) {
  const phone = normalizePhone(rawPhone);
  if (!phone) return { ok: false as const, code: "invalid_phone" as const };
  await prisma.blockedPhone.upsert({
    where: { shopId_phone: { shopId, phone } },
    create: { shopId, phone, reason: reason ?? null },
    update: { reason: reason ?? null },
  });
  return { ok: true as const, phone };
}

export async function unblockPhone(shopId: string, rawPhone: string): Promise<boolean> {
  const phone = normalizePhone(rawPhone);
  if (!phone) return false;
  const { count } = await prisma.blockedPhone.deleteMany({ where: { shopId, phone } });
  return count > 0;
}

export async function listBlockedPhones(shopId: string) {
  return prisma.blockedPhone.findMany({ where: { shopId }, orderBy: { createdAt: "desc" } });
}
