import { prisma } from "~/core/db.server";
import { isUniqueViolation, query, sql, toDate } from "~/core/db/sql.server";
import { normalizePhone } from "~/shared/phone";
import { clock } from "~/core/utils/clock.server";
import type { Shop } from "~/core/settings/shop.server";
import { parseBlocklistImport, type BlocklistImportProblem } from "./blocklist-import";
import { queueUntagBlockedCustomersIn } from "./blocked-customers.server";

type BlocklistShop = Pick<Shop, "id" | "domain">;

/**
 * A shop's phone blocklist: send-otp answers 403 phone_blocked to these numbers before anything is
 * counted or sent, create-checkout refuses them COD, and their customers lose `cod-verified-customer`
 * (a durable job, app/otp/blocked-customers.server.ts). Managed from the admin's Blocked numbers page
 * (app/routes/app.blocklist.tsx).
 *
 * The block and its job are written in one transaction, so a stored block always has its job; blocking
 * a number again runs its job again (a customer may have been tagged in between).
 */
export async function blockPhone(shop: BlocklistShop, rawPhone: string, reason?: string | null, options: { forDays?: number } = {}) {
  const phone = normalizePhone(rawPhone);
  if (!phone) return { ok: false as const, code: "invalid_phone" as const };
  // The latest block decides how long it lasts: blocking again with no end keeps the number blocked until unblocked.
  const expiresAt = options.forDays ? new Date(clock.now().getTime() + options.forDays * 86_400_000) : null;
  await withRetryOnUniqueViolation(() =>
    prisma.$transaction(async (tx) => {
      await tx.blockedPhone.upsert({
        where: { shopId_phone: { shopId: shop.id, phone } },
        create: { shopId: shop.id, phone, reason: reason ?? null, expiresAt },
        update: { reason: reason ?? null, expiresAt },
      });
      await queueUntagBlockedCustomersIn(tx, shop.domain, [phone]);
    }),
  );
  return { ok: true as const, phone, expiresAt };
}

/** Whether the merchant blocked this (E.164) number: create-checkout refuses it COD whatever it proved before. */
export async function isPhoneBlocked(shopId: string, phone: string): Promise<boolean> {
  // One direct statement: create-checkout, every tag job and every text ask it.
  const found = await query<{ one: number }>(sql`SELECT 1 AS "one" FROM "BlockedPhone" WHERE "shopId" = ${shopId} AND "phone" = ${phone}`);
  return found.length > 0;
}

export async function unblockPhone(shopId: string, rawPhone: string): Promise<boolean> {
  const phone = normalizePhone(rawPhone);
  if (!phone) return false;
  const { count } = await prisma.blockedPhone.deleteMany({ where: { shopId, phone } });
  return count > 0;
}

/**
 * Which of `phones` (E.164) the shop blocked: orders/create's re-check, where a blocked number is never
 * evidence. One direct statement (every COD order runs it); phones beyond the fourth are not asked about.
 */
export async function blockedAmong(shopId: string, phones: string[]): Promise<Set<string>> {
  if (!phones.length) return new Set();
  const [a, b, c, d] = Array.from({ length: 4 }, (_, i) => phones[Math.min(i, phones.length - 1)]);
  const rows = await query<{ phone: string }>(sql`
    SELECT "phone" FROM "BlockedPhone" WHERE "shopId" = ${shopId} AND "phone" IN (${a}, ${b}, ${c}, ${d})`);
  return new Set(rows.map((r) => r.phone));
}

/** Which of these numbers (E.164) the shop blocked, with the reason each was given: one indexed read for a page of orders. */
export async function blockedPhonesAmong(shopId: string, phones: string[]): Promise<Map<string, string | null>> {
  if (!phones.length) return new Map();
  const rows = await prisma.blockedPhone.findMany({ where: { shopId, phone: { in: [...new Set(phones)] } }, select: { phone: true, reason: true } });
  return new Map(rows.map((r) => [r.phone, r.reason]));
}

/**
 * Undoes a block made with `reason` (the Orders page's "Blocked from order #n"): one conditional delete,
 * so a block the merchant made elsewhere, or gave another reason since, is never taken away by it.
 */
export async function unblockPhoneBlockedFor(shopId: string, phone: string, reason: string): Promise<boolean> {
  const { count } = await prisma.blockedPhone.deleteMany({ where: { shopId, phone, reason } });
  return count > 0;
}

export const BLOCKLIST_PAGE_SIZE = 50;

/** A LIKE pattern that finds `text` anywhere, with LIKE's own wildcards in it taken literally (ESCAPE '\\'). */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

type BlockedRow = { shopId: string; phone: string; reason: string | null; createdAt: unknown; expiresAt: unknown };

/**
 * One page of the blocklist, newest first. `search` matches the digits of a number (typed with or
 * without spaces, `+` or dashes) or a word of the reason, in any letter case on both engines (a direct
 * statement: Prisma's case-insensitive `contains` exists on PostgreSQL only).
 */
export async function listBlockedPhones(shopId: string, options: { search?: string; page?: number } = {}) {
  const search = (options.search ?? "").trim();
  const digits = search.replace(/[^\d]/g, "");
  const requested = Math.max(1, options.page ?? 1);
  if (!search) {
    const total = await prisma.blockedPhone.count({ where: { shopId } });
    const pages = Math.max(1, Math.ceil(total / BLOCKLIST_PAGE_SIZE));
    const page = Math.min(requested, pages);
    const rows = await prisma.blockedPhone.findMany({
      where: { shopId },
      orderBy: [{ createdAt: "desc" }, { phone: "asc" }],
      skip: (page - 1) * BLOCKLIST_PAGE_SIZE,
      take: BLOCKLIST_PAGE_SIZE,
    });
    return { rows, total, page, pages };
  }
  // Two digits or more search the numbers too; fewer would match nearly every number.
  const phoneLike = digits.length >= 2 ? containsPattern(digits) : null;
  const reasonLike = containsPattern(search.toLowerCase());
  const [{ n }] = await query<{ n: number | bigint | string }>(sql`
    SELECT COUNT(*) AS n FROM "BlockedPhone"
    WHERE "shopId" = ${shopId} AND ("phone" LIKE ${phoneLike} ESCAPE '\\' OR LOWER("reason") LIKE ${reasonLike} ESCAPE '\\')`);
  const total = Number(n);
  const pages = Math.max(1, Math.ceil(total / BLOCKLIST_PAGE_SIZE));
  const page = Math.min(requested, pages);
  const found = await query<BlockedRow>(sql`
    SELECT "shopId", "phone", "reason", "createdAt", "expiresAt" FROM "BlockedPhone"
    WHERE "shopId" = ${shopId} AND ("phone" LIKE ${phoneLike} ESCAPE '\\' OR LOWER("reason") LIKE ${reasonLike} ESCAPE '\\')
    ORDER BY "createdAt" DESC, "phone" ASC
    LIMIT ${BLOCKLIST_PAGE_SIZE} OFFSET ${(page - 1) * BLOCKLIST_PAGE_SIZE}`);
  const rows = found.map((r) => ({ shopId: r.shopId, phone: r.phone, reason: r.reason, createdAt: toDate(r.createdAt), expiresAt: r.expiresAt == null ? null : toDate(r.expiresAt) }));
  return { rows, total, page, pages };
}

export type BlocklistImportResult =
  | { ok: true; added: number; alreadyBlocked: number; duplicates: number; invalid: BlocklistImportProblem[] }
  | { ok: false; code: "too_many_lines"; lines: number }
  | { ok: false; code: "empty" };

/**
 * Blocks every good number of a pasted or uploaded list (parseBlocklistImport); the bad lines come back
 * by line number and nothing else is lost. Numbers already blocked keep their entry and reason.
 */
export async function importBlockedPhones(shop: BlocklistShop, text: string, reason: string | null): Promise<BlocklistImportResult> {
  const parsed = parseBlocklistImport(text, reason);
  if (!parsed.ok) return parsed;
  const shopId = shop.id;
  let added = 0;
  // In slices, so an IN (...) list stays well under either engine's limit on bound values. Each slice's
  // blocks and the untag jobs of all its numbers (those blocked before included: see blockPhone) are one
  // transaction, so a stored block always has its job.
  for (let i = 0; i < parsed.entries.length; i += 500) {
    const slice = parsed.entries.slice(i, i + 500);
    added += await withRetryOnUniqueViolation(() =>
      prisma.$transaction(async (tx) => {
        const existing = await tx.blockedPhone.findMany({ where: { shopId, phone: { in: slice.map((e) => e.phone) } }, select: { phone: true } });
        const known = new Set(existing.map((e) => e.phone));
        const fresh = slice.filter((e) => !known.has(e.phone));
        const { count } = fresh.length ? await tx.blockedPhone.createMany({ data: fresh.map((e) => ({ shopId, phone: e.phone, reason: e.reason })) }) : { count: 0 };
        await queueUntagBlockedCustomersIn(tx, shop.domain, slice.map((e) => e.phone));
        return count;
      }),
    );
  }
  return { ok: true, added, alreadyBlocked: parsed.entries.length - added, duplicates: parsed.duplicates, invalid: parsed.invalid };
}

/** A number blocked meanwhile (another tab, another import) fails the slice's transaction: it is read again. */
async function withRetryOnUniqueViolation<T>(run: () => Promise<T>, tries = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= tries) throw error;
    }
  }
}
