import { countEventStatement } from "~/core/db/daily-stats.server";
import { execute, query, sql, toBoolean, type Sql } from "~/core/db/sql.server";
import { rateLimitHits, rateLimitReleases, rateLimitRows, type RateLimitRow } from "~/core/rate-limit/rate-limit.server";
import { hasActiveSubscription, type Shop } from "~/core/settings/shop.server";
import { clock } from "~/core/utils/clock.server";
import { optedOutCondition } from "~/sms/opt-out.server";
import { dailyCapKey, PHONE_CAP_WINDOW_SECONDS, PHONE_LINKS_PER_DAY, PHONE_TEXTS_PER_DAY, phoneLinksKey, phoneTextsKey } from "~/sms/phone-cap.server";
import { verificationCounted } from "~/enforcement/allowance.server";
import type { PauseReason } from "~/enforcement/pause";
import { statusOf, verificationsUsedValue } from "~/enforcement/pause.server";

/**
 * What the app may send a shopper on its own, after the order (docs/confirmation-ladder.md#limits-and-privacy):
 * the ladder's texts and calls, the confirmation's first message and its SMS after an unanswered WhatsApp
 * question (a shop without a ladder), the delivery-day reminder, the failed-delivery text, the pay-now offer. Each is the plan's
 * like a verification: the shop needs an active plan and allowance left, and each one that goes counts
 * one against the month's allowance (DailyStat `otp_verified`, dimension the kind, written with the
 * message's record in one round trip), is charged past it like a verification, and counts against the
 * shop's daily cap and the number's texts of the day (app/sms/phone-cap.server.ts), each one atomic hit.
 * The ladder has a smaller per-number limit of its own, and a confirmation link the number's links of the
 * day (`link`). A number that asked to stop, or that the shop blocked, gets nothing.
 */
export type ContactKind = "ladder" | "confirmation" | "reminder" | "recovery" | "prepaid_offer";

/** Kinds that are a verification: switching verification off stops them too. */
const VERIFYING_KINDS: ReadonlySet<ContactKind> = new Set(["ladder", "confirmation"]);

/** Texts and calls of the ladder to one number, whatever the orders, per 24 hours. */
export const LADDER_CONTACTS_PER_NUMBER = 6;
const ladderKey = (shopId: string, phone: string) => `ladder-contact:${shopId}:${phone}`;

/** Refusals that come from the shop's plan (not the number): the ladder hands the order to a person at once. */
export const PLAN_REFUSALS: ReadonlySet<string> = new Set<PauseReason | "subscription_required">(["subscription_required", "no_subscription", "allowance_used", "usage_cap_reached"]);

export type ContactAllowance =
  | {
      ok: true;
      /** The allowance's count, for sendSms / placeCall's `countWhenSent`: written only when the message went. */
      countWhenSent: Sql;
      /** After it went: charged past the allowance (`id` names the contact, once). */
      counted: (id: string) => Promise<void>;
      /** Nothing went after all: the limits get their hits back. */
      giveBack: () => Promise<void>;
    }
  | { ok: false; reason: string; plan: boolean };

export type ContactShop = Pick<
  Shop,
  "id" | "domain" | "dailySendCap" | "otpEnabled" | "subscriptionStatus" | "subscriptionPlan" | "usageChargesEnabled" | "usageChargesRefused" | "burnMonth" | "uninstalledAt" | "timezone"
>;

/**
 * Whether the shop may text (or, `call`, ring) the number now; when it may, the number's and the shop's limits
 * are taken. `link`: the text is a confirmation link, within the number's links of the day too.
 */
export async function takeContact(shop: ContactShop, phone: string, kind: ContactKind, options: { call?: boolean; link?: boolean } = {}): Promise<ContactAllowance> {
  const now = clock.now();
  const refuse = (reason: string, plan = false) => ({ ok: false as const, reason, plan });
  const subscribed = hasActiveSubscription(shop);
  // Verification switched off stops the ladder and the confirmation (a confirmation is a verification), not the
  // delivery texts or the pay-now offer: for those only the plan and its allowance count.
  const statusShop = VERIFYING_KINDS.has(kind) ? shop : { ...shop, otpEnabled: true };
  // The number's standing and the month's verifications in one statement; the refusals keep their order.
  const [standing] = await query<{ optedOut: unknown; blocked: unknown; used: unknown }>(sql`
    SELECT ${optedOutCondition(shop.id, phone, options.call === true)} AS "optedOut",
      EXISTS (SELECT 1 FROM "BlockedPhone" WHERE "shopId" = ${shop.id} AND "phone" = ${phone}) AS "blocked",
      ${subscribed ? verificationsUsedValue(statusShop, now) : sql`0`} AS "used"`);
  if (toBoolean(standing.optedOut)) return refuse("opted_out");
  if (toBoolean(standing.blocked)) return refuse("phone_blocked");
  if (!subscribed) return refuse("subscription_required", true);
  const status = statusOf(statusShop, Number(standing.used), now);
  if (status.pause) return refuse(status.pause, PLAN_REFUSALS.has(status.pause));

  const limits: [key: string, limit: number, refusal: string][] = [
    ...(kind === "ladder" ? [[ladderKey(shop.id, phone), LADDER_CONTACTS_PER_NUMBER, "rate_limited"] as [string, number, string]] : []),
    ...(options.link ? [[phoneLinksKey(shop.id, phone), PHONE_LINKS_PER_DAY, "number_links"] as [string, number, string]] : []),
    [phoneTextsKey(shop.id, phone), PHONE_TEXTS_PER_DAY, "number_texts"],
    [dailyCapKey(shop, now), shop.dailySendCap, "shop_daily_cap"],
  ];
  // Every limit counted in one multi-row upsert (each row still one atomic upsert: exact under any
  // concurrency), in key order (PostgreSQL locks the rows in the order it meets them, as the give-back does).
  const at = now.getTime();
  const counted = [...limits].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const rows = await query<RateLimitRow & { key: string }>(
    rateLimitHits(rateLimitRows(counted.map(([key]) => ({ key, windowSeconds: PHONE_CAP_WINDOW_SECONDS })), at)),
  );
  const byKey = new Map(rows.map((row) => [row.key, row]));
  const hits = counted.map(([key]) => ({ key, hit: { windowStart: Number(byKey.get(key)!.windowStart) } }));
  const giveBack = async () => void (await execute(rateLimitReleases(hits)));
  // The first limit over (in the order above) says why; nothing goes, and every hit of this contact is given
  // back, the refused one too (the app asked, not a person).
  const over = limits.find(([key, limit]) => Number(byKey.get(key)!.count) > limit);
  if (over) {
    await giveBack();
    return refuse(over[2]);
  }
  return {
    ok: true,
    countWhenSent: countEventStatement(shop, "otp_verified", kind, now),
    counted: (id) => verificationCounted(shop.domain, `${kind}:${id}`),
    giveBack,
  };
}
