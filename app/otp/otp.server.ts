import { execute, query, sql, type Sql } from "~/core/db/sql.server";
import { prisma } from "~/core/db.server";
import { rateLimitResult, releaseRateLimit } from "~/core/rate-limit/rate-limit.server";
import type { PaymentMode } from "~/shared/payment-modes";
import { hasActiveSubscription, type Shop } from "~/core/settings/shop.server";
import { sendSms, type SmsChannel } from "~/sms/sms.server";
import { renderCodeMessage } from "~/sms/templates";
import { whatsappCodeTemplate } from "~/sms/whatsapp";
import { clock } from "~/core/utils/clock.server";
import { hashesEqual, keyedHash, randomNumericCode, randomToken } from "~/core/utils/crypto.server";
import { log } from "~/core/utils/log.server";
import { CODE_LENGTH } from "~/shared/otp-code";
import { countryAllowed, phoneCountry } from "~/shared/phone";
import { countEvent, countEventStatement } from "~/core/db/daily-stats.server";
import { deviceTokenValid, issueDeviceToken, issueProof } from "~/otp/proof.server";
import { noteAllowanceUse } from "~/enforcement/enforcement-jobs.server";
import { verificationCounted } from "~/enforcement/allowance.server";
import { watchAllowanceBurn } from "~/enforcement/burn.server";
import { pauseReason, verificationsAllowed } from "~/enforcement/pause";
import { allowanceMonthStart } from "~/shared/plans";
import { nextShopMidnight, type ShopZone } from "~/shared/shop-day";
import { riskCodesKey, riskIpKey, shopperAssessment, type RiskShop } from "~/risk/assess.server";
import type { RiskAssessment } from "~/risk/score";

import { decideSend, NEVER, SHARE_WINDOW_SECONDS, type SendDecision, type SendShare } from "./send-decision.server";
import { ipNetwork } from "~/shared/ip";
import { dailyCapKey, PHONE_TEXTS_PER_DAY, phoneTextsKey } from "~/sms/phone-cap.server";
import { numberBlock } from "~/enforcement/burn.server";
import { assignShopper } from "~/experiment/experiment.server";
import { completeVerification } from "./verify-completion.server";

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
> &
  RiskShop;

/** `risk`: the shopper's assessment before the code is proven (no history: app/risk); absent when OTP is off. */
export type SendOutcome =
  | { ok: true; skipped: "otp_disabled"; risk?: undefined }
  | { ok: true; skipped: "returning_customer"; risk: RiskAssessment }
  /** The merchant's holdout experiment left this shopper unverified (app/experiment): no code, COD as if the app were off. */
  | { ok: true; skipped: "holdout"; risk: RiskAssessment }
  | { ok: true; skipped?: undefined; expiresIn: number; resendAfter: number; channel: SmsChannel; risk: RiskAssessment }
  | { ok: false; code: "country_not_allowed" | "phone_blocked" | "subscription_required" | "plan_limit_reached" | "phone_unreachable" | "sms_unavailable" }
  | { ok: false; code: "rate_limited" | "shop_daily_cap"; retryAfter: number };

/** The stored form of a code: keyed, and bound to the shop and number it was sent for. */
function codeHash(shopId: string, phone: string, code: string) {
  return keyedHash("otp-code", `${shopId}\0${phone}\0${code}`);
}

export const sendLimitKey = (shopId: string, phone: string) => `otp-send:${shopId}:${phone}`;


/**
 * How much of the shop's daily send cap one place may take in 24 hours, and the least it may always
 * take (a small cap still lets a shopper through): an IP, its network (/24, /48), and the number's block
 * (the number less its last 3 digits, as providers lease them). So neither one machine, one provider's
 * subnet nor one block of receiving numbers drains the cap for everyone (docs/security.md).
 */
export const DAILY_CAP_SHARES = {
  ip: { share: 0.02, floor: 5 },
  network: { share: 0.05, floor: 10 },
  block: { share: 0.02, floor: 5 },
} as const;

/** The most one place of `kind` may send in 24 hours under a daily cap of `dailyCap`. */
export function shareLimit(kind: keyof typeof DAILY_CAP_SHARES, dailyCap: number): number {
  const { share, floor } = DAILY_CAP_SHARES[kind];
  return Math.max(floor, Math.ceil(dailyCap * share));
}

/**
 * The shares a send counts against, in order: the number's own texts of the day (codes and the texts
 * after purchase alike: app/sms/phone-cap.server.ts), its IP and network when known, its number's block.
 */
export function sendShares(shopId: string, phone: string, ip: string | null | undefined, dailyCap: number): SendShare[] {
  const shares: SendShare[] = [{ key: phoneTextsKey(shopId, phone), limit: PHONE_TEXTS_PER_DAY }];
  const network = ipNetwork(ip);
  if (ip) shares.push({ key: `otp-ip:${shopId}:${ip}`, limit: shareLimit("ip", dailyCap) });
  if (network) shares.push({ key: `otp-net:${shopId}:${network}`, limit: shareLimit("network", dailyCap) });
  shares.push({ key: `otp-block:${shopId}:${numberBlock(phone)}`, limit: shareLimit("block", dailyCap) });
  return shares;
}

/** Until the shop's next midnight (its time zone), when its daily cap starts again. */
function secondsToShopMidnight(now: Date, timezone: string | null) {
  return Math.max(1, Math.ceil((nextShopMidnight(now, timezone).getTime() - now.getTime()) / 1000));
}


/**
 * POST /send-otp. `phone` is already normalised E.164. The checks run in this order (README):
 * otpEnabled → country allow-list → blocklist → returning-customer skip → per-number rate limit →
 * billing gate → shop's daily cap → resend cooldown (atomic with replacing the pending code) → send.
 */
export async function sendVerificationCode(input: {
  shop: OtpShop;
  phone: string;
  locale?: string | null;
  /** The remembered-device token verify-otp gave this browser for this phone, if any. */
  deviceToken?: string | null;
  /** "whatsapp": the shopper asked for the code there (a text failed); limits are per number, whatever the channel. */
  channel?: SmsChannel;
  /** The shopper's IP (the risk score's velocity per IP). */
  ip?: string | null;
  /**
   * For a confirmation already open after purchase (/vc): the shopper can always finish it, so neither
   * the pause (codes switched off, no plan, the allowance used up) nor the billing gate refuses the code;
   * every limit still applies (docs/enforcement.md, "A paused shop never strands an order").
   */
  afterPurchase?: boolean;
}): Promise<SendOutcome> {
  const { shop, phone } = input;

  if (!shop.otpEnabled && !input.afterPurchase) {
    await countEvent(shop, "otp_skipped", "disabled");
    return { ok: true, skipped: "otp_disabled" };
  }
  if (!countryAllowed(phone, shop.allowedCountries)) return { ok: false, code: "country_not_allowed" };
  const now = clock.now();
  const perNumberKey = sendLimitKey(shop.id, phone);
  const dailyKey = dailyCapKey(shop, now);
  const month = allowanceMonthStart(now, shop.timezone);
  const code = randomNumericCode(CODE_LENGTH);
  const challenge = pendingCode(shop, phone, code, now);
  const shares = sendShares(shop.id, phone, input.ip, shop.dailySendCap);
  // The skip is only for the browser that proved this number (its remembered-device token): to anyone
  // else a verified number looks like any other and gets a code, so nobody learns it was verified.
  const skipSince =
    shop.returningSkipDays > 0 && deviceTokenValid(shop.domain, phone, input.deviceToken, now)
      ? new Date(now.getTime() - shop.returningSkipDays * 86_400_000)
      : NEVER;
  const decision = await decideSend({
    shopId: shop.id,
    phone,
    now,
    month,
    codesKey: riskCodesKey(shop.id, phone),
    ipKey: input.ip ? riskIpKey(shop.id, input.ip) : null,
    perNumberKey,
    perNumberLimit: shop.otpSendLimit,
    perNumberWindowSeconds: shop.otpSendWindowSeconds,
    shares,
    dailyKey,
    dailyCap: shop.dailySendCap,
    skipSince,
    allowance: input.afterPurchase ? Number.MAX_SAFE_INTEGER : hasActiveSubscription(shop) ? verificationsAllowed(shop, month) : 0,
    challenge,
  });
  if (decision.blocked) return { ok: false, code: "phone_blocked" };
  // The number is not proven yet: its history in this shop stays out of the answer (app/risk).
  const risk = shopperAssessment(shop, {
    phone,
    otpVerified: null,
    history: null,
    codesForPhone: decision.riskCodes ?? 0,
    requestsFromIp: input.ip ? (decision.riskIp ?? 0) : 0,
  });
  // The holdout experiment: an eligible shopper's arm is recorded before the answer goes back. Never held
  // out: a blocked number (refused above) and a high band, which a merchant rule's match always is. Nobody
  // is assigned while verification is paused (no plan, allowance used): the other group would not be asked either.
  const experiment = risk.band === "high" || pauseReason(shop, decision.verifiedThisMonth) !== null ? null : decision.experiment;
  if (experiment && (await assignShopper(shop.id, experiment, phone, now)) === "holdout") {
    await undoSend(shop, phone, decision, now);
    return { ok: true, skipped: "holdout", risk };
  }
  if (!decision.perNumber) {
    await countEvent(shop, "otp_skipped", "returning");
    return { ok: true, skipped: "returning_customer", risk };
  }

  const nowMs = now.getTime();
  const perNumber = rateLimitResult(decision.perNumber, shop.otpSendLimit, shop.otpSendWindowSeconds, nowMs);
  if (!perNumber.allowed) return { ok: false, code: "rate_limited", retryAfter: perNumber.retryAfterSeconds };

  if (!hasActiveSubscription(shop) && !input.afterPurchase) return { ok: false, code: "subscription_required" };
  // The plan's monthly allowance of verifications, and past it the usage charges' cap when the
  // merchant turned them on (a shop with no plan was refused just above).
  const paused = pauseReason(shop, decision.verifiedThisMonth, month);
  if ((paused === "allowance_used" || paused === "usage_cap_reached") && !decision.counted && !input.afterPurchase) {
    await Promise.all([releaseRateLimit(perNumberKey, perNumber), allowanceMayBeUsedUp(shop.domain, decision.verifiedThisMonth)]);
    return { ok: false, code: "plan_limit_reached" };
  }

  // One place (IP, network, number block) past its share of the daily cap: refused like a rate limit;
  // its hit stays counted (it is that place's doing), the shopper's own limit gets its hit back.
  const shareHits = decision.shares.map((row, i) => ({ key: shares[i].key, hit: rateLimitResult(row, shares[i].limit, SHARE_WINDOW_SECONDS, nowMs) }));
  const overShare = shareHits.find((s) => !s.hit.allowed);
  if (overShare) {
    await releaseRateLimit(perNumberKey, perNumber);
    log.info("otp: one place reached its share of the shop's daily send cap", { shop: shop.domain, place: overShare.key.split(":")[0] });
    return { ok: false, code: "rate_limited", retryAfter: overShare.hit.retryAfterSeconds };
  }
  const releaseShares = () => shareHits.map((s) => releaseRateLimit(s.key, s.hit));

  const daily = rateLimitResult(decision.daily!, shop.dailySendCap, 86_400, nowMs);
  if (!daily.allowed) {
    await Promise.all([releaseRateLimit(perNumberKey, perNumber), releaseRateLimit(dailyKey, daily), ...releaseShares()]);
    log.warn("otp: shop reached its daily send cap", { shop: shop.domain, cap: shop.dailySendCap });
    return { ok: false, code: "shop_daily_cap", retryAfter: secondsToShopMidnight(now, shop.timezone) };
  }

  const challengeId = decision.challengeId;
  if (!challengeId) {
    await Promise.all([releaseRateLimit(perNumberKey, perNumber), releaseRateLimit(dailyKey, daily), ...releaseShares()]);
    return { ok: false, code: "rate_limited", retryAfter: await cooldownLeft(shop, phone, now) };
  }

  const result = await sendSms({
    shop: { id: shop.id, name: shop.name, domain: shop.domain },
    to: phone,
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
    // The dashboard's count of codes sent, written with the message's record (one round trip).
    countWhenSent: countEventStatement(shop, "otp_sent", phoneCountry(phone) ?? "", now),
  });
  if (!result.ok && result.maybeSent) {
    // Twilio did not answer in time: the text may have gone (docs/contract.md, "Proofs and holds"). Its code
    // stays valid and both hits stay counted, or a slow Twilio would text the number without limit.
    return { ok: false, code: "sms_unavailable" };
  }
  if (!result.ok) {
    // Twilio refused, or was never reached: nothing went to the shopper. The reserved code goes, and the shop's cap gets its hit back.
    // A provider outage is not the shopper's doing, so their own limit gets it back too.
    const releases: Promise<unknown>[] = [
      execute(sql`DELETE FROM "OtpChallenge" WHERE "id" = ${challengeId}`),
      releaseRateLimit(dailyKey, daily),
      ...releaseShares(),
    ];
    if (result.code === "sms_unavailable") releases.push(releaseRateLimit(perNumberKey, perNumber));
    await Promise.all(releases);
    return { ok: false, code: result.code };
  }
  log.info("otp: code sent", { shop: shop.domain, phone, channel: result.channel });
  return { ok: true, expiresIn: shop.otpTtlSeconds, resendAfter: shop.otpResendCooldownSeconds, channel: result.channel, risk };
}

/** A held-out shopper gets no code: the decision's send-limit hits are given back and its pending code goes. */
async function undoSend(shop: OtpShop, phone: string, decision: SendDecision, now: Date): Promise<void> {
  const nowMs = now.getTime();
  const undo: Promise<unknown>[] = [];
  if (decision.perNumber) undo.push(releaseRateLimit(sendLimitKey(shop.id, phone), rateLimitResult(decision.perNumber, shop.otpSendLimit, shop.otpSendWindowSeconds, nowMs)));
  if (decision.daily) undo.push(releaseRateLimit(dailyCapKey(shop, now), rateLimitResult(decision.daily, shop.dailySendCap, 86_400, nowMs)));
  if (decision.challengeId) undo.push(execute(sql`DELETE FROM "OtpChallenge" WHERE "id" = ${decision.challengeId}`));
  await Promise.all(undo);
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

export type VerifyOutcome =
  | { ok: true; proof: string; proofExpiresAt: Date; deviceToken: string | null; risk: RiskAssessment | null }
  | { ok: false; code: "invalid_code"; attemptsRemaining: number }
  | { ok: false; code: "attempts_exhausted"; attemptsRemaining: 0 }
  | { ok: false; code: "code_expired" }
  /** The right code, which another answer of it used first (a double tap, two tabs, a retry): the number is verified. */
  | { ok: false; code: "already_verified" };

/**
 * POST /verify-otp. Every wrong guess is counted in the statement that compares it: one conditional
 * UPDATE that never takes `attempts` past `maxAttempts`, so however many guesses arrive at once, at
 * most `maxAttempts` wrong codes are ever compared per challenge. The right code costs no attempt, so
 * answers of it that arrive together never exhaust the challenge for each other. It is used by an
 * UPDATE that only one request can win (`usedAt`); then the phone is marked verified and the selection
 * recorded. The used challenge stays until it expires: every other answer of the same code is told
 * `already_verified` (no second proof), any other code `code_expired` as before.
 */
export async function checkVerificationCode(input: {
  /** The risk settings are needed on the storefront journey only (not after purchase). */
  shop: Pick<Shop, "id" | "domain" | "returningSkipDays" | "timezone"> & Partial<RiskShop>;
  phone: string;
  otp: string;
  /** The shopper's IP (the risk score's velocity per IP). */
  ip?: string | null;
  selectedMode?: PaymentMode | null;
  cartToken?: string | null;
  /** False after purchase: the order exists, there is no shopping journey to record. */
  recordSelection?: boolean;
}): Promise<VerifyOutcome> {
  const { shop, phone } = input;
  const now = clock.now().getTime();
  const presented = codeHash(shop.id, phone, input.otp);
  const counted = await query<{ id: string; codeHash: string; attempts: number | bigint; maxAttempts: number | bigint }>(sql`
    UPDATE "OtpChallenge" SET "attempts" = "attempts" + CASE WHEN "codeHash" = ${presented} THEN 0 ELSE 1 END
    WHERE "shopId" = ${shop.id} AND "phone" = ${phone} AND "expiresAt" > ${now} AND "attempts" < "maxAttempts" AND "usedAt" IS NULL
    RETURNING "id", "codeHash", "attempts", "maxAttempts"`);
  const challenge = counted[0];
  if (!challenge) return countFailure(shop, await whyNoAttempt(shop.id, phone, presented, now));

  if (!hashesEqual(presented, challenge.codeHash)) {
    const attemptsRemaining = Number(challenge.maxAttempts) - Number(challenge.attempts);
    log.info("otp: wrong code", { shop: shop.domain, phone, attemptsRemaining });
    return countFailure(
      shop,
      attemptsRemaining > 0 ? { ok: false, code: "invalid_code", attemptsRemaining } : { ok: false, code: "attempts_exhausted", attemptsRemaining: 0 },
    );
  }

  const verifiedAt = new Date(now);
  const mode = input.selectedMode ?? "cod";
  const withRisk = input.recordSelection !== false && hasRiskSettings(shop);
  const done = await completeVerification({
    shopId: shop.id,
    timezone: shop.timezone,
    phone,
    challengeId: challenge.id,
    verifiedAt,
    selection:
      input.recordSelection === false
        ? null
        : { shopId: shop.id, phone, mode, source: "verify-otp", verified: true, verifiedAt, cartToken: input.cartToken ?? null },
    riskKeys: withRisk ? { codes: riskCodesKey(shop.id, phone), ip: input.ip ? riskIpKey(shop.id, input.ip) : null } : null,
  });
  // Another answer of this same right code used it first (both compared it before either used it).
  if (!done.consumed) return { ok: false, code: "already_verified" };

  // Only a number's first verification this month counts against the allowance (docs/security.md):
  // that one is watched for an abnormal burn, then checked against the allowance and usage charges.
  if (done.counted) {
    await watchAllowanceBurn(shop, phone, input.ip, verifiedAt);
    await verificationCounted(shop.domain, challenge.id, done.verifiedThisMonth).catch((error: unknown) =>
      log.warn("otp: the usage check after a verification failed", { shop: shop.domain, error: String(error) }),
    );
  }
  const selection = done.selectionId ? { id: done.selectionId } : null;
  log.info("otp: phone verified", { shop: shop.domain, phone });
  // The number is proven now, so its history counts; a high band rides on the proof and checkout hides COD for it.
  const risk =
    withRisk && done.risk
      ? shopperAssessment(shop as typeof shop & RiskShop, {
          phone,
          otpVerified: true,
          history: done.risk.history,
          codesForPhone: done.risk.codesForPhone,
          requestsFromIp: done.risk.requestsFromIp,
        })
      : null;
  const proof = issueProof(shop.domain, { phone, mode, selectionId: selection?.id ?? "none", band: risk?.band }, verifiedAt);
  return {
    ok: true,
    proof: proof.token,
    proofExpiresAt: proof.expiresAt,
    deviceToken: issueDeviceToken(shop.domain, phone, shop.returningSkipDays, verifiedAt),
    risk,
  };
}

/** Checkout stops hiding COD once no shopper can verify (app/enforcement); never fails the shopper's request. */
async function allowanceMayBeUsedUp(domain: string, used: number): Promise<void> {
  await noteAllowanceUse(domain, used).catch((error: unknown) => log.warn("otp: the allowance check failed", { shop: domain, error: String(error) }));
}

function hasRiskSettings<T extends Partial<RiskShop>>(shop: T): shop is T & RiskShop {
  return shop.riskMediumThreshold !== undefined && shop.riskHighThreshold !== undefined;
}

const FAILURE_REASON = { invalid_code: "wrong", attempts_exhausted: "locked", code_expired: "expired" } as const;

/** Counts a refused verification in the daily rollup by why it failed, and passes the outcome on (a repeated right code is no failure). */
async function countFailure(shop: ShopZone, outcome: Exclude<VerifyOutcome, { ok: true }>): Promise<VerifyOutcome> {
  if (outcome.code !== "already_verified") await countEvent(shop, "otp_failed", FAILURE_REASON[outcome.code]);
  return outcome;
}

/**
 * Why no attempt could be counted. A challenge used already answers `already_verified` to its own code
 * only: comparing a used code grants nothing (no proof), so it is not counted; any other code reads as
 * gone, as it did when a used challenge was deleted at once.
 */
async function whyNoAttempt(shopId: string, phone: string, presented: string, now: number): Promise<Exclude<VerifyOutcome, { ok: true }>> {
  const rows = await query<{ attempts: number | bigint; maxAttempts: number | bigint; expiresAt: number | bigint | string; usedAt: unknown; codeHash: string }>(sql`
    SELECT "attempts", "maxAttempts", "expiresAt", "usedAt", "codeHash" FROM "OtpChallenge" WHERE "shopId" = ${shopId} AND "phone" = ${phone}`);
  const row = rows[0];
  if (!row || Number(row.expiresAt) <= now) return { ok: false, code: "code_expired" };
  if (row.usedAt != null) return hashesEqual(presented, row.codeHash) ? { ok: false, code: "already_verified" } : { ok: false, code: "code_expired" };
  if (Number(row.attempts) >= Number(row.maxAttempts)) return { ok: false, code: "attempts_exhausted", attemptsRemaining: 0 };
  return { ok: false, code: "code_expired" };
}

/** Deletes challenges past their expiry (used ones too: a used code is kept until then); returns how many. */
export async function purgeExpiredChallenges(): Promise<number> {
  return prisma.$executeRaw`DELETE FROM "OtpChallenge" WHERE "expiresAt" <= ${clock.now().getTime()}`;
}
