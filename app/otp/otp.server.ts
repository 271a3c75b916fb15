import { query, sql, type Sql } from "~/core/db/sql.server";
import { prisma } from "~/core/db.server";
import { hasActiveSubscription, type Shop } from "~/core/settings/shop.server";
import { firstChannel, sendSms, type SmsChannel, type SmsInput } from "~/sms/sms.server";
import { messageRecordStatement } from "~/sms/deliveries.server";
import { renderCodeMessage } from "~/sms/templates";
import { whatsappCodeTemplate } from "~/sms/whatsapp";
import { clock } from "~/core/utils/clock.server";
import { keyedHash, randomNumericCode, randomToken } from "~/core/utils/crypto.server";
import { log } from "~/core/utils/log.server";
import { CODE_LENGTH } from "~/shared/otp-code";
import { countryAllowed, phoneCountry } from "~/shared/phone";
import { countEvent, countEventStatement, uncountEventStatement } from "~/core/db/daily-stats.server";
import { deviceTokenValid } from "~/otp/proof.server";
import { noteAllowanceUse } from "~/enforcement/enforcement-jobs.server";
import { pauseReason, verificationsAllowed } from "~/enforcement/pause";
import { allowanceMonthStart } from "~/shared/plans";
import { nextShopMidnight } from "~/shared/shop-day";
import { riskCodesKey, riskIpKey, shopperAssessment, type RiskShop } from "~/risk/assess.server";
import type { BehaviourFacts, RiskAssessment } from "~/risk/score";
import { dailyCapKey } from "~/sms/phone-cap.server";
import { assignShopper } from "~/experiment/experiment.server";
import { decideSend, NEVER, type SendDecision, type SendPlan } from "./send-decision.server";
import {
  dropChallenge,
  fromProbingSource,
  networkVerifiedKey,
  phoneNetworkKey,
  placeOf,
  sendShares,
  settleSend,
  spikeWatch,
  type SendVerdict,
  type ShareKind,
  type VerdictInput,
} from "./send-limits.server";

type OtpShop = Pick<
  Shop,
  | "id"
  | "domain"
  | "timezone"
  | "primaryDomain"
  | "name"
  | "locale"
  | "otpEnabled"
  | "returningSkipDays"
  | "otpSendLimit"
  | "otpSendWindowSeconds"
  | "otpTtlSeconds"
  | "otpResendCooldownSeconds"
  | "otpMaxAttempts"
  | "dailySendCap"
  | "allowedCountries"
  | "smsChannel"
  | "otpChannelChoice"
  | "smsTemplate"
  | "subscriptionStatus"
  | "subscriptionPlan"
  | "usageChargesEnabled"
  | "usageChargesRefused"
  | "burnMonth"
  | "capFallback"
> &
  RiskShop;

/** `risk`: the shopper's assessment before the code is proven (no history: app/risk); absent when OTP is off. */
export type SendOutcome =
  | { ok: true; skipped: "otp_disabled"; risk?: undefined }
  | { ok: true; skipped: "returning_customer"; risk: RiskAssessment }
  /** The merchant's holdout experiment left this shopper unverified (app/experiment): no code, COD as if the app were off. */
  | { ok: true; skipped: "holdout"; risk: RiskAssessment }
  /** The shop's daily cap is spent and its fallback is cash on delivery confirmed after purchase: no code (app/otp/send-limits.server.ts). */
  | { ok: true; skipped: "cap_fallback"; risk: RiskAssessment }
  | { ok: true; skipped?: undefined; expiresIn: number; resendAfter: number; channel: SmsChannel; risk: RiskAssessment }
  | { ok: false; code: "country_not_allowed" | "phone_blocked" | "subscription_required" | "plan_limit_reached" | "phone_unreachable" | "sms_unavailable" }
  | { ok: false; code: "rate_limited" | "shop_daily_cap"; retryAfter: number };

/** The stored form of a code: keyed, and bound to the shop and number it was sent for. */
export function codeHash(shopId: string, phone: string, code: string) {
  return keyedHash("otp-code", `${shopId}\0${phone}\0${code}`);
}

export const sendLimitKey = (shopId: string, phone: string) => `otp-send:${shopId}:${phone}`;

/** Until the shop's next midnight (its time zone), when its daily cap starts again. */
function secondsToShopMidnight(now: Date, timezone: string | null) {
  return Math.max(1, Math.ceil((nextShopMidnight(now, timezone).getTime() - now.getTime()) / 1000));
}

type SendInput = {
  shop: OtpShop;
  phone: string;
  locale?: string | null;
  /** The remembered-device token verify-otp gave this browser for this phone, if any. */
  deviceToken?: string | null;
  /** "whatsapp": the shopper asked for the code there (a text failed); limits are per number, whatever the channel. */
  channel?: SmsChannel;
  /** The shopper's IP (the risk score's velocity per IP; the shares per place). */
  ip?: string | null;
  /**
   * For a confirmation already open after purchase (/vc): the shopper can always finish it, so neither
   * the pause (codes switched off, no plan, the allowance used up) nor the billing gate refuses the code;
   * every limit still applies (docs/enforcement.md, "A paused shop never strands an order").
   */
  afterPurchase?: boolean;
  /** What the modal measured (a capped score nudge only: docs/risk.md, "Behaviour"). */
  behaviour?: BehaviourFacts | null;
};

/**
 * POST /send-otp. `phone` is already normalised E.164. The checks run in this order (README):
 * otpEnabled → country allow-list → blocklist → returning-customer skip → per-number rate limit →
 * billing gate → the shares of the daily cap per place → shop's daily cap → resend cooldown (atomic with
 * replacing the pending code) → the holdout experiment's arm → send. Every counter is taken in one step
 * (`decideSend`, with the code and its text's record); what they come to is one verdict (`settleSend`),
 * whose hits to give back are given back in that step; the verdict is answered here.
 */
export async function sendVerificationCode(input: SendInput): Promise<SendOutcome> {
  const { shop, phone } = input;
  if (!shop.otpEnabled && !input.afterPurchase) {
    await countEvent(shop, "otp_skipped", "disabled");
    return { ok: true, skipped: "otp_disabled" };
  }
  if (!countryAllowed(phone, shop.allowedCountries)) return { ok: false, code: "country_not_allowed" };
  const send = prepareSend(input, clock.now());
  const { decision, verdict } = await decideSend(send.plan, (d) => settleSend(verdictInput(input, send, d)));
  if (decision.blocked) return { ok: false, code: "phone_blocked" };
  // The number is not proven yet: its history in this shop stays out of the answer (app/risk).
  const risk = shopperAssessment(shop, {
    phone,
    otpVerified: null,
    history: null,
    codesForPhone: decision.riskCodes ?? 0,
    requestsFromIp: input.ip ? (decision.riskIp ?? 0) : 0,
    behaviour: input.behaviour,
  });
  if (verdict.kind === "send") return deliverCode(input, send, decision, verdict, risk);
  return answerVerdict(input, send, decision, verdict, risk);
}

type PreparedSend = ReturnType<typeof prepareSend>;

/** Everything the decision needs, built before it: the limits' keys, the pending code and the record of the text that would carry it. */
function prepareSend(input: SendInput, now: Date) {
  const { shop, phone } = input;
  const perNumber = { key: sendLimitKey(shop.id, phone), limit: shop.otpSendLimit, windowSeconds: shop.otpSendWindowSeconds };
  const daily = { key: dailyCapKey(shop, now), cap: shop.dailySendCap };
  const month = allowanceMonthStart(now, shop.timezone);
  const code = randomNumericCode(CODE_LENGTH);
  const shares = sendShares(shop, phone, input.ip, shop.dailySendCap, now, input.afterPurchase);
  const sms = codeText(input, code, now);
  const messageId = randomToken(12);
  const recordedAt = new Date();
  const sentCountry = phoneCountry(phone) ?? "";
  // The skip is only for the browser that proved this number (its remembered-device token): to anyone
  // else a verified number looks like any other and gets a code, so nobody learns it was verified.
  const skipSince =
    shop.returningSkipDays > 0 && deviceTokenValid(shop.domain, phone, input.deviceToken, now)
      ? new Date(now.getTime() - shop.returningSkipDays * 86_400_000)
      : NEVER;
  const plan: SendPlan = {
    shopId: shop.id,
    phone,
    now,
    month,
    codesKey: riskCodesKey(shop.id, phone),
    ipKey: input.ip ? riskIpKey(shop.id, input.ip) : null,
    perNumberKey: perNumber.key,
    perNumberLimit: perNumber.limit,
    perNumberWindowSeconds: perNumber.windowSeconds,
    shares,
    dailyKey: daily.key,
    dailyCap: daily.cap,
    skipSince,
    allowance: input.afterPurchase ? Number.MAX_SAFE_INTEGER : hasActiveSubscription(shop) ? verificationsAllowed(shop, month) : 0,
    challenge: pendingCode(shop, phone, code, now),
    message: () => messageRecordStatement(sms, firstChannel(sms), null, messageId, recordedAt),
    // The dashboard's count of codes sent, with the code and its text's record (taken back by `dropChallenge`).
    countSent: (source) => countEventStatement(shop, "otp_sent", sentCountry, now, source),
    spike: spikeWatch(shop, now),
    networkVerifiedKey: networkVerifiedKey(shop.id, placeOf(input.ip)),
    firstAskKey: phoneNetworkKey(shop.id, phone, placeOf(input.ip)),
  };
  // Written only for a code that never went (held out, refused).
  const uncountSent = () => uncountEventStatement(shop, "otp_sent", sentCountry, now);
  return { now, month, perNumber, daily, shares, sms, messageId, plan, uncountSent };
}

function verdictInput(input: SendInput, send: PreparedSend, decision: SendDecision): VerdictInput {
  const { shop } = input;
  const paused = pauseReason(shop, decision.verifiedThisMonth, send.month);
  return {
    decision,
    shares: send.shares,
    perNumber: send.perNumber,
    daily: send.daily,
    now: send.now,
    capRetryAfter: () => secondsToShopMidnight(send.now, shop.timezone),
    subscribed: hasActiveSubscription(shop),
    allowanceUsed: (paused === "allowance_used" || paused === "usage_cap_reached") && !decision.counted,
    afterPurchase: input.afterPurchase === true,
    capFallback: shop.capFallback === "prepaid_only" ? "prepaid_only" : "confirm_after_purchase",
  };
}

/** The text a code goes in (and its WhatsApp template), built before the decision so its record is written there. */
function codeText(input: SendInput, code: string, now: Date): SmsInput {
  const { shop } = input;
  return {
    shop: { id: shop.id, name: shop.name, domain: shop.domain },
    to: input.phone,
    body: renderCodeMessage({
      code,
      shopName: shop.name ?? shop.domain,
      // The storefront's host (learnt from Shopify); the .myshopify.com domain until it is known.
      domain: shop.primaryDomain ?? shop.domain,
      minutes: Math.max(1, Math.round(shop.otpTtlSeconds / 60)),
      locales: [input.locale, shop.locale],
      template: shop.smsTemplate,
    }),
    // The shop lets the shopper choose: their choice; otherwise the shop's channel, or WhatsApp asked for after a failed text.
    channel: shop.otpChannelChoice && input.channel ? input.channel : shop.smsChannel === "whatsapp" || input.channel === "whatsapp" ? "whatsapp" : "sms",
    whatsapp: whatsappCodeTemplate(code, [input.locale, shop.locale]),
    purpose: "otp",
    fallbackUntil: now.getTime() + shop.otpTtlSeconds * 1000,
  };
}

/** A verdict other than "send", answered (its hits were given back in the decision's step). */
async function answerVerdict(input: SendInput, send: PreparedSend, decision: SendDecision, verdict: Exclude<SendVerdict, { kind: "send" }>, risk: RiskAssessment): Promise<SendOutcome> {
  const { shop, phone } = input;
  switch (verdict.kind) {
    case "returning":
      if ((await experimentArm(shop, phone, decision, risk, send.now, false)) === "holdout") return { ok: true, skipped: "holdout", risk };
      await countEvent(shop, "otp_skipped", "returning");
      return { ok: true, skipped: "returning_customer", risk };
    case "no_plan":
      return { ok: false, code: "subscription_required" };
    case "allowance_used":
      await allowanceMayBeUsedUp(shop.domain, decision.verifiedThisMonth);
      return { ok: false, code: "plan_limit_reached" };
    case "cap_fallback":
      // The cap is spent: nothing more is sent today; the shopper pays as the merchant chose (cash on
      // delivery confirmed after purchase), and is told so as if codes were off (docs/security.md).
      await countRefusal(shop, "cap_fallback", send.now);
      return { ok: true, skipped: "cap_fallback", risk };
    case "refused":
      await countRefusal(shop, verdict.place, send.now);
      if (verdict.place === "cooldown") return { ok: false, code: "rate_limited", retryAfter: await cooldownLeft(shop, phone, send.now) };
      return { ok: false, code: verdict.code, retryAfter: verdict.retryAfter ?? 1 };
  }
}

/** A code let through every limit: the experiment's arm, then the text (its record written in the decision's step). */
async function deliverCode(input: SendInput, send: PreparedSend, decision: SendDecision, verdict: Extract<SendVerdict, { kind: "send" }>, risk: RiskAssessment): Promise<SendOutcome> {
  const { shop, phone } = input;
  // The arm is drawn only now, after every limit the send passed, and a held-out shopper's send stays
  // counted against them: being told the arm costs what a code costs (docs/experiment.md).
  const probing = fromProbingSource(shareCount(decision, send.shares, "network"), decision.networkVerified);
  if ((await experimentArm(shop, phone, decision, risk, send.now, probing)) === "holdout") {
    await dropChallenge(verdict.challengeId, decision.recorded ? send.messageId : null, send.uncountSent());
    return { ok: true, skipped: "holdout", risk };
  }
  // A record the decision did not write (PostgreSQL: docs/decisions/0012-send-decision-commit.md) is written
  // by sendSms before the text, in a commit that waits for the disk and puts the decision there with it;
  // a record it cannot write sends nothing (`sms_unavailable`, not maybe sent: every hit goes back below).
  const result = await sendSms({ ...send.sms, recorded: decision.recorded ? send.messageId : null });
  if (!result.ok && result.maybeSent) {
    // Twilio did not answer in time: the text may have gone (docs/contract.md, "Proofs and holds"). Its code
    // stays valid, both hits stay counted (a slow Twilio would otherwise text the number without limit) and so does the code sent.
    return { ok: false, code: "sms_unavailable" };
  }
  if (!result.ok) {
    // Twilio refused, or was never reached: nothing went to the shopper. The reserved code goes, the shop's
    // cap and the places get their hits back; a provider outage is not the shopper's doing, so their own limit too.
    const kept = result.code === "sms_unavailable" ? verdict.spent : verdict.spent.filter((h) => h.key !== send.perNumber.key);
    await dropChallenge(verdict.challengeId, null, send.uncountSent(), kept);
    return { ok: false, code: result.code };
  }
  log.info("otp: code sent", { shop: shop.domain, phone, channel: result.channel });
  return { ok: true, expiresIn: shop.otpTtlSeconds, resendAfter: shop.otpResendCooldownSeconds, channel: result.channel, risk };
}

/** The count a share of `kind` reached with this send (0 when the decision stopped before it). */
function shareCount(decision: SendDecision, shares: { kind: ShareKind }[], kind: ShareKind): number {
  const i = shares.findIndex((s) => s.kind === kind);
  return i >= 0 && decision.shares[i] ? Number(decision.shares[i].count) : 0;
}

/**
 * The holdout experiment's arm for an eligible shopper, recorded before the answer goes back. Never held
 * out: a high band (a merchant rule's match always is one), anyone while verification is paused (the other
 * group would not be asked either), and a number asked from a probing source (kept apart, always asked).
 */
async function experimentArm(shop: OtpShop, phone: string, decision: SendDecision, risk: RiskAssessment, now: Date, probing: boolean) {
  if (!decision.experiment || risk.band === "high" || pauseReason(shop, decision.verifiedThisMonth) !== null) return null;
  return assignShopper(shop.id, decision.experiment, phone, now, { probing });
}

/**
 * Counts a refusal by place in the day's rollup (DailyStat otp_refused); the day's first at the shop's cap
 * is the one log line (the merchant sees it on Home at once): a drain refused a thousand times writes one.
 */
async function countRefusal(shop: OtpShop, place: string, now: Date): Promise<void> {
  const [row] = await query<{ count: unknown }>(countEventStatement(shop, "otp_refused", place, now)).catch((error: unknown) => {
    log.warn("stats: an event was not counted", { shopId: shop.id, metric: "otp_refused", error: String(error) });
    return [];
  });
  if ((place === "cap" || place === "cap_fallback") && Number(row?.count) === 1) {
    log.warn("otp: shop reached its daily send cap", { shop: shop.domain, cap: shop.dailySendCap, fallback: place === "cap" ? "prepaid_only" : "confirm_after_purchase" });
  }
}

/**
 * The new code's hash as the shop+phone's one pending challenge, replacing the old one, in one atomic
 * statement that only replaces a challenge sent before the resend cooldown (or already used): it returns
 * the new challenge's id, or no row when the cooldown is still running (the old code stays valid).
 */
function pendingCode(shop: OtpShop, phone: string, code: string, now: Date) {
  const id = randomToken(12);
  const sentAt = now.getTime();
  const expiresAt = sentAt + shop.otpTtlSeconds * 1000;
  // With no cooldown every send replaces (requests racing with clocks a millisecond apart included).
  const cooledBefore = shop.otpResendCooldownSeconds > 0 ? sentAt - shop.otpResendCooldownSeconds * 1000 : Number.MAX_SAFE_INTEGER;
  const values = sql`${id}, ${shop.id}, ${phone}, ${codeHash(shop.id, phone, code)}, ${sentAt}, ${expiresAt}, 0, ${shop.otpMaxAttempts}`;
  // `source`: `SELECT ... <source>` instead of `VALUES` (a step of a PostgreSQL CTE).
  return (source?: Sql) => sql`
    INSERT INTO "OtpChallenge" ("id", "shopId", "phone", "codeHash", "sentAt", "expiresAt", "attempts", "maxAttempts")
    ${source ? sql`SELECT ${values} ${source}` : sql`VALUES (${values})`}
    ON CONFLICT ("shopId", "phone") DO UPDATE SET
      "id" = excluded."id",
      "codeHash" = excluded."codeHash",
      "sentAt" = excluded."sentAt",
      "expiresAt" = excluded."expiresAt",
      "attempts" = 0,
      "maxAttempts" = excluded."maxAttempts",
      "usedAt" = NULL
    WHERE "OtpChallenge"."sentAt" <= ${cooledBefore} OR "OtpChallenge"."expiresAt" <= ${sentAt} OR "OtpChallenge"."usedAt" IS NOT NULL
    RETURNING "id"`;
}

async function cooldownLeft(shop: OtpShop, phone: string, now: Date): Promise<number> {
  const rows = await query<{ sentAt: number | bigint | string }>(sql`
    SELECT "sentAt" FROM "OtpChallenge" WHERE "shopId" = ${shop.id} AND "phone" = ${phone}`);
  const sentAt = rows.length ? Number(rows[0].sentAt) : now.getTime();
  return Math.max(1, Math.ceil((sentAt + shop.otpResendCooldownSeconds * 1000 - now.getTime()) / 1000));
}

/** Checkout stops hiding COD once no shopper can verify (app/enforcement); never fails the shopper's request. */
async function allowanceMayBeUsedUp(domain: string, used: number): Promise<void> {
  await noteAllowanceUse(domain, used).catch((error: unknown) => log.warn("otp: the allowance check failed", { shop: domain, error: String(error) }));
}

/** Deletes challenges past their expiry (used ones too: a used code is kept until then); returns how many. */
export async function purgeExpiredChallenges(): Promise<number> {
  return prisma.$executeRaw`DELETE FROM "OtpChallenge" WHERE "expiresAt" <= ${clock.now().getTime()}`;
}
