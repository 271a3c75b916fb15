import { prisma } from "~/core/db.server";
import { countEventStatement } from "~/core/db/daily-stats.server";
import type { Sql } from "~/core/db/sql.server";
import { hitRateLimit, releaseRateLimit, type RateLimitResult } from "~/core/rate-limit/rate-limit.server";
import { hasActiveSubscription, type Shop } from "~/core/settings/shop.server";
import { clock } from "~/core/utils/clock.server";
import { isOptedOut } from "~/sms/opt-out.server";
import { dailyCapKey, PHONE_CAP_WINDOW_SECONDS, PHONE_LINKS_PER_DAY, PHONE_TEXTS_PER_DAY, phoneLinksKey, phoneTextsKey } from "~/sms/phone-cap.server";
import { verificationCounted } from "~/enforcement/allowance.server";
import type { PauseReason } from "~/enforcement/pause";
import { verificationStatus } from "~/enforcement/pause.server";

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
  // The three reads go out together (one wait on PostgreSQL instead of three); the refusals keep their order.
  // Verification switched off stops the ladder and the confirmation (a confirmation is a verification), not the
  // delivery texts or the pay-now offer: for those only the plan and its allowance count.
  const [optedOut, blocked, status] = await Promise.all([
    isOptedOut(shop.id, phone, options.call === true),
    prisma.blockedPhone.findUnique({ where: { shopId_phone: { shopId: shop.id, phone } }, select: { phone: true } }),
    subscribed ? verificationStatus(VERIFYING_KINDS.has(kind) ? shop : { ...shop, otpEnabled: true }, now) : null,
  ]);
  if (optedOut) return refuse("opted_out");
  if (blocked) return refuse("phone_blocked");
  if (!subscribed || !status) return refuse("subscription_required", true);
  if (status.pause) return refuse(status.pause, PLAN_REFUSALS.has(status.pause));

  const limits: [key: string, limit: number, refusal: string][] = [
    ...(kind === "ladder" ? [[ladderKey(shop.id, phone), LADDER_CONTACTS_PER_NUMBER, "rate_limited"] as [string, number, string]] : []),
    ...(options.link ? [[phoneLinksKey(shop.id, phone), PHONE_LINKS_PER_DAY, "number_links"] as [string, number, string]] : []),
    [phoneTextsKey(shop.id, phone), PHONE_TEXTS_PER_DAY, "number_texts"],
    [dailyCapKey(shop, now), shop.dailySendCap, "shop_daily_cap"],
  ];
  const hits: [string, RateLimitResult][] = [];
  const giveBack = async () => {
    for (const [key, hit] of hits) await releaseRateLimit(key, hit);
  };
  for (const [key, limit, refusal] of limits) {
    const hit = await hitRateLimit(key, limit, PHONE_CAP_WINDOW_SECONDS);
    hits.push([key, hit]);
    if (!hit.allowed) {
      // Nothing goes: every hit of this contact is given back, the refused one too (the app asked, not a person).
      await giveBack();
      return refuse(refusal);
    }
  }
  return {
    ok: true,
    countWhenSent: countEventStatement(shop, "otp_verified", kind, now),
    counted: (id) => verificationCounted(shop.domain, `${kind}:${id}`),
    giveBack,
  };
}
