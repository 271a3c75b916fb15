import { prisma } from "~/core/db.server";
import { forgetShop } from "~/core/settings/shop.server";
import { normalizePhone } from "~/shared/phone";

/**
 * customers/redact: the merchant's prepaid-only list names the person too (like a blocklist entry), so
 * the redacted phones leave it. A compare-and-set on the list as read: a merchant saving the Risk page
 * at the same moment is never overwritten; the redaction then reads the new list and tries again.
 */
export async function forgetPrepaidPhones(shopId: string, phones: string[]): Promise<number> {
  if (!phones.length) return 0;
  for (let round = 0; round < 5; round++) {
    const shop = await prisma.shop.findUnique({ where: { id: shopId }, select: { domain: true, riskPrepaidPhones: true } });
    if (!shop) return 0;
    const entries = shop.riskPrepaidPhones.split("\n").filter(Boolean);
    const kept = entries.filter((e) => !phones.includes(normalizePhone(e) ?? e));
    if (kept.length === entries.length) return 0;
    const { count } = await prisma.shop.updateMany({ where: { id: shopId, riskPrepaidPhones: shop.riskPrepaidPhones }, data: { riskPrepaidPhones: kept.join("\n") } });
    if (count === 1) {
      forgetShop(shop.domain);
      return entries.length - kept.length;
    }
  }
  throw new Error("the prepaid-only list kept changing during redaction");
}
