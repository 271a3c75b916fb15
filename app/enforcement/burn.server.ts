import { query, sql } from "~/core/db/sql.server";
import { hitRateLimit } from "~/core/rate-limit/rate-limit.server";
import { forgetShop, getShop } from "~/core/settings/shop.server";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import { addDays, shopDay } from "~/shared/shop-day";
import { ipNetwork } from "~/shared/ip";
import { allowanceMonthStart, planOf } from "~/shared/plans";
import { requestEnforcementSync } from "./enforcement-jobs.server";

/**
 * An abnormal burn of the allowance: someone verifying numbers of their own to use the month up so that
 * verification pauses. It is watched on every verification the allowance counts (a number's first this
 * month). Seen once in a month, the shop gets a reserve as large as its plan's allowance for the rest of
 * the month (app/enforcement/pause.ts `monthAllowance`, never charged), so protection continues, and the
 * merchant is told at once on every admin page and in the log (a warning). docs/security.md prices it.
 *
 * Abnormal is any of:
 *  - rate: today's counted verifications (UTC day) above BURN_FACTOR times the shop's usual day (the
 *    previous USUAL_DAYS days' average), and at least BURN_DAY_FLOOR;
 *  - pace: a shop with a usual day (history), whose month so far is above BURN_PACE times its usual
 *    pace (the usual day times the day of the month), and at least BURN_DAY_FLOOR: a quieter burn spread
 *    over days (or the shop's own growth: the notice says both);
 *  - early: the month's allowance used up while the shop's usual pace would have used less than
 *    EARLY_SHARE of it by this day (a new shop too): pausing is not its usual month;
 *  - concentration: more new numbers verified within 24 hours from one network (/24, /48) than
 *    max(BURN_NETWORK_FLOOR, the usual day), or from one number block (the number less its last 3
 *    digits) than max(BURN_BLOCK_FLOOR, half the usual day).
 *
 * What is never called a burn (the notice must be true): the merchant's own testing and a new store's
 * first days at small volume.
 *  - A verification of a number the merchant sent a test code to (Home, "Send a test code") is not
 *    watched: it is the merchant's own phone.
 *  - A store in its first NEW_SHOP_DAYS days: its usual day is its average over the days since install
 *    (not 28 days it did not have), and the rate, pace and concentration rules need at least
 *    NEW_SHOP_FLOOR counted verifications (today, this month, from one network or block): below that it
 *    is the merchant trying checkout and the first shoppers. The allowance used up early still counts.
 */
export const BURN_FACTOR = 5;
export const BURN_PACE = 2;
export const EARLY_SHARE = 0.8;
export const BURN_DAY_FLOOR = 10;
export const BURN_NETWORK_FLOOR = 10;
export const BURN_BLOCK_FLOOR = 5;
const USUAL_DAYS = 28;
export const NEW_SHOP_DAYS = 14;
export const NEW_SHOP_FLOOR = 50;

/** A number's block: the E.164 number less its last 3 digits (a thousand numbers, as providers lease them). */
export function numberBlock(phone: string): string {
  return phone.slice(0, -3);
}

export type BurnSeen =
  | { kind: "rate"; today: number; usual: number }
  | { kind: "pace" | "early"; month: number; usual: number }
  | { kind: "network" | "block"; count: number };

/** What `watchAllowanceBurn` would call abnormal, from its counts (pure). */
export function abnormalBurn(counts: {
  today: number;
  usualPerDay: number;
  fromNetwork: number | null;
  fromBlock: number;
  /** This month's counted verifications so far, the day of the month (1-31) and the plan's allowance; absent: no month checks. */
  month?: { used: number; day: number; allowance: number };
  /** A store in its first NEW_SHOP_DAYS days: the floors are NEW_SHOP_FLOOR. */
  newShop?: boolean;
}): BurnSeen | null {
  const usual = counts.usualPerDay;
  const shown = Math.round(usual * 10) / 10;
  const floor = (usualFloor: number) => (counts.newShop ? Math.max(NEW_SHOP_FLOOR, usualFloor) : usualFloor);
  if (counts.today >= floor(BURN_DAY_FLOOR) && counts.today > BURN_FACTOR * usual) return { kind: "rate", today: counts.today, usual: shown };
  const month = counts.month;
  if (month && usual > 0 && month.used >= floor(BURN_DAY_FLOOR) && month.used > BURN_PACE * usual * month.day) return { kind: "pace", month: month.used, usual: shown };
  if (month && month.allowance > 0 && month.used >= month.allowance && usual * month.day < EARLY_SHARE * month.allowance) return { kind: "early", month: month.used, usual: shown };
  if (counts.fromNetwork !== null && counts.fromNetwork > Math.max(floor(BURN_NETWORK_FLOOR), usual)) return { kind: "network", count: counts.fromNetwork };
  if (counts.fromBlock > Math.max(floor(BURN_BLOCK_FLOOR), usual / 2)) return { kind: "block", count: counts.fromBlock };
  return null;
}

/** Days since install when the store is in its first NEW_SHOP_DAYS (at least 1), else null. */
export function newShopAge(installedAt: Date | null | undefined, now: Date): number | null {
  if (!installedAt) return null;
  const days = (now.getTime() - installedAt.getTime()) / 86_400_000;
  // A date ahead of the clock says nothing of the store's age.
  return days >= 0 && days < NEW_SHOP_DAYS ? Math.max(1, Math.ceil(days)) : null;
}

/** The notice's words for what was seen (stored as Shop.burnDetail). */
export function describeBurn(seen: BurnSeen): string {
  if ("count" in seen) return `${seen.count} new numbers verified from one ${seen.kind === "network" ? "network" : "block of numbers"} within a day`;
  if (seen.kind === "rate") return `${seen.today} verifications today against a usual ${seen.usual} a day`;
  return seen.kind === "pace"
    ? `${seen.month} verifications so far this month, more than twice your usual ${seen.usual} a day`
    : `the month's allowance used up (${seen.month} verifications) far ahead of your usual ${seen.usual} a day`;
}

/**
 * After a verification the allowance counted (never throws: a failure is logged, the shopper's answer
 * stands). Returns true when this call opened the month's reserve.
 */
export async function watchAllowanceBurn(shop: { id: string; domain: string }, phone: string, ip: string | null | undefined, now: Date = clock.now()): Promise<boolean> {
  try {
    const network = ipNetwork(ip);
    const current = await getShop(shop.domain);
    // Atomic counters (one upsert each): new numbers from this network and from this block in 24 hours.
    const [fromNetwork, fromBlock] = await Promise.all([
      network ? hitRateLimit(`burn-net:${shop.id}:${network}`, Number.MAX_SAFE_INTEGER, 86_400) : null,
      hitRateLimit(`burn-block:${shop.id}:${numberBlock(phone)}`, Number.MAX_SAFE_INTEGER, 86_400),
    ]);
    const timezone = current?.timezone ?? null;
    const today = shopDay(now, timezone);
    const from = addDays(today, -USUAL_DAYS);
    const month = allowanceMonthStart(now, timezone);
    const [row] = await query<{ today: unknown; before: unknown; month: unknown; own: unknown; ownPhones: unknown }>(sql`
      SELECT
        (SELECT COUNT(*) FROM "MessageDelivery" WHERE "shopId" = ${shop.id} AND "phone" = ${phone} AND "purpose" = 'merchant_test') AS "own",
        (SELECT COUNT(DISTINCT "phone") FROM "MessageDelivery" WHERE "shopId" = ${shop.id} AND "purpose" = 'merchant_test') AS "ownPhones",
        (SELECT COALESCE(SUM("count"), 0) FROM "DailyStat" WHERE "shopId" = ${shop.id} AND "metric" = 'otp_verified' AND "day" = ${today}) AS "today",
        (SELECT COALESCE(SUM("count"), 0) FROM "DailyStat" WHERE "shopId" = ${shop.id} AND "metric" = 'otp_verified' AND "day" >= ${month}) AS "month",
        (SELECT COALESCE(SUM("count"), 0) FROM "DailyStat" WHERE "shopId" = ${shop.id} AND "metric" = 'otp_verified' AND "day" >= ${from} AND "day" < ${today}) AS "before"`);
    // The merchant's own phone (a test code went to it from Home) is their testing, never a burn.
    if (Number(row?.own ?? 0) > 0) return false;
    const age = newShopAge(current?.installedAt, now);
    // Each of the merchant's phones counts at most once a month: taken off today's count, which may hold it.
    const countedToday = Math.max(0, Number(row?.today ?? 0) - Number(row?.ownPhones ?? 0));
    const seen = abnormalBurn({
      today: countedToday,
      usualPerDay: Number(row?.before ?? 0) / Math.min(USUAL_DAYS, age ?? USUAL_DAYS),
      newShop: age !== null,
      fromNetwork: fromNetwork ? fromNetwork.count : null,
      fromBlock: fromBlock.count,
      month: { used: Number(row?.month ?? 0), day: Number(today.slice(8, 10)), allowance: (current && planOf(current)?.monthlyVerifications) ?? 0 },
    });
    // The month's reserve is open already (the cached row says so; the conditional update below could not
    // match): during a burn every verification gets here, and each would try the shop's row in vain.
    if (!seen || current?.burnMonth === month) return false;
    const detail = describeBurn(seen);
    // Once a month: one conditional statement, whichever instance sees it first.
    const opened = await query<{ id: string }>(sql`
      UPDATE "Shop" SET "burnMonth" = ${month}, "burnSeenAt" = ${now}, "burnDetail" = ${detail}
      WHERE "id" = ${shop.id} AND ("burnMonth" IS NULL OR "burnMonth" <> ${month})
      RETURNING "id"`);
    if (!opened.length) return false;
    forgetShop(shop.domain);
    log.warn("allowance: abnormal burn seen; the month's reserve keeps verification on and the merchant is told", { shop: shop.domain, detail });
    // A shop already paused by the burn resumes on the reserve.
    await requestEnforcementSync(shop.domain, "burn_seen");
    return true;
  } catch (error) {
    log.warn("allowance: the burn check failed", { shop: shop.domain, error: String(error) });
    return false;
  }
}
