import { execute, query, sql, transaction, type Sql } from "~/core/db/sql.server";
import { databaseProvider, prisma } from "~/core/db.server";
import { rateLimitHit, rateLimitResult, releaseRateLimit, type RateLimitRow } from "~/core/rate-limit/rate-limit.server";
import { selectionStatements, type SelectionInput } from "~/otp/selection.server";
import type { PaymentMode } from "~/shared/payment-modes";
import { hasActiveSubscription, type Shop } from "~/core/settings/shop.server";
import { sendSms, type SmsChannel } from "~/sms/sms.server";
import { renderCodeMessage } from "~/sms/templates";
import { whatsappCodeTemplate } from "~/sms/whatsapp";
import { clock } from "~/core/utils/clock.server";
import { hashesEqual, keyedHash, randomNumericCode, randomToken } from "~/core/utils/crypto.server";
import { log } from "~/core/utils/log.server";
import { countryAllowed, phoneCountry } from "~/shared/phone";
import { allowanceMonthStart } from "~/shared/plans";
import { countEvent, countEventStatement } from "~/core/db/daily-stats.server";
import { deviceTokenValid, issueDeviceToken, issueProof } from "~/otp/proof.server";
import { noteAllowanceUse } from "~/enforcement/enforcement-jobs.server";
import { verificationCounted } from "~/enforcement/allowance.server";
import { pauseReason, verificationsAllowed } from "~/enforcement/pause";
import { phoneHistoryColumns, phoneHistoryOf, type PhoneHistory, riskCodesKey, riskIpKey, RISK_WINDOW_SECONDS, shopperAssessment, type PhoneHistoryRow, type RiskShop } from "~/risk/assess.server";
import { rateLimitPeek } from "~/core/rate-limit/rate-limit.server";
import { utcDay } from "~/shared/daily-metrics";
import type { RiskAssessment } from "~/risk/score";

export const CODE_LENGTH = 6;

type OtpShop = Pick<
  Shop,
  | "id"
  | "domain"
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
> &
  RiskShop;

/** `risk`: the shopper's assessment before the code is proven (no history: app/risk); absent when OTP is off. */
export type SendOutcome =
  | { ok: true; skipped: "otp_disabled"; risk?: undefined }
  | { ok: true; skipped: "returning_customer"; risk: RiskAssessment }
  | { ok: true; skipped?: undefined; expiresIn: number; resendAfter: number; channel: SmsChannel; risk: RiskAssessment }
  | { ok: false; code: "country_not_allowed" | "phone_blocked" | "subscription_required" | "plan_limit_reached" | "phone_unreachable" | "sms_unavailable" }
  | { ok: false; code: "rate_limited" | "shop_daily_cap"; retryAfter: number };

/** The stored form of a code: keyed, and bound to the shop and number it was sent for. */
function codeHash(shopId: string, phone: string, code: string) {
  return keyedHash("otp-code", `${shopId}\0${phone}\0${code}`);
}

export const sendLimitKey = (shopId: string, phone: string) => `otp-send:${shopId}:${phone}`;

function dailyCapKey(shopId: string, now: Date) {
  return `otp-daily:${shopId}:${now.toISOString().slice(0, 10)}`;
}

function secondsToUtcMidnight(now: Date) {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}

function toMillis(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.getTime();
  if (typeof value === "number" || typeof value === "bigint") return Number(value);
  const parsed = Date.parse(String(value));
  return Number.isNaN(parsed) ? null : parsed;
}

/**
 * Whether the number is on the shop's blocklist, when it last verified, and how many verifications
 * the shop had this calendar month (the plan's allowance; at most 31 DailyStat rows).
 */
function standingSelect(shopId: string, phone: string, now: Date): Sql {
  return sql`
    SELECT
      (SELECT 1 FROM "BlockedPhone" WHERE "shopId" = ${shopId} AND "phone" = ${phone}) AS "blocked",
      (SELECT "verifiedAt" FROM "VerifiedCustomer" WHERE "shopId" = ${shopId} AND "phone" = ${phone}) AS "verifiedAt",
      (SELECT COALESCE(SUM("count"), 0) FROM "DailyStat"
        WHERE "shopId" = ${shopId} AND "metric" = 'otp_verified' AND "day" >= ${allowanceMonthStart(now)}) AS "verifiedThisMonth"`;
}

/** Everything send-otp's decision needs to know before it runs, so the database can make it in one step. */
type SendPlan = {
  shopId: string;
  phone: string;
  now: Date;
  codesKey: string;
  ipKey: string | null;
  perNumberKey: string;
  perNumberLimit: number;
  perNumberWindowSeconds: number;
  dailyKey: string;
  dailyCap: number;
  /** A verification at or after this time, with this browser's device token, skips the code (far future: never). */
  skipSince: Date;
  /** Verifications this month below which the shop may send (0: it may not, no active plan). */
  allowance: number;
  /** The pending code's upsert (`pendingCode`). */
  challenge: (source?: Sql) => Sql;
};

/** What the decision found and did; a step it did not reach is null. */
type SendDecision = {
  blocked: boolean;
  verifiedThisMonth: number;
  riskCodes: number | null;
  riskIp: number | null;
  perNumber: RateLimitRow | null;
  daily: RateLimitRow | null;
  challengeId: string | null;
};

type SendDecisionRow = {
  blocked: unknown;
  verifiedAt: unknown;
  verifiedThisMonth: unknown;
  riskCodes?: unknown;
  riskIp?: unknown;
  perCount?: unknown;
  perWindowStart?: unknown;
  dailyCount?: unknown;
  dailyWindowStart?: unknown;
  challengeId?: string | null;
};

const NEVER = new Date(Date.UTC(9999, 0, 1));

/**
 * send-otp's decision in one round trip: the number's standing, the risk score's counters, the
 * per-number limit, the shop's daily cap and the pending code, each step taken only when the steps
 * before it let the request through (blocked: nothing is counted; skipped as a returning customer:
 * no limit is counted; over the per-number limit or paused: the daily cap is not counted; over the
 * daily cap: no code). Every counter is still one atomic upsert of its own row, so the limits stay
 * exact under any concurrency; the steps after a refusal that must be undone (a hit taken back) are the
 * caller's, as before.
 *  - PostgreSQL: one statement, each step a data-modifying CTE reading the steps before it.
 *  - SQLite: one transaction (one commit) of the same upserts, the conditions between them in JS.
 */
async function decideSend(p: SendPlan): Promise<SendDecision> {
  const now = p.now.getTime();
  if (databaseProvider === "postgresql") {
    const notBlocked = sql`FROM "standing" WHERE "blocked" IS NULL`;
    const [row] = await query<SendDecisionRow>(sql`
      WITH "standing" AS (${standingSelect(p.shopId, p.phone, p.now)}),
      "riskCodes" AS (${rateLimitHit(p.codesKey, RISK_WINDOW_SECONDS, now, notBlocked)}),
      "riskIp" AS (${p.ipKey ? rateLimitHit(p.ipKey, RISK_WINDOW_SECONDS, now, notBlocked) : sql`SELECT NULL::integer AS "count"`}),
      "perNumber" AS (${rateLimitHit(p.perNumberKey, p.perNumberWindowSeconds, now, sql`FROM "standing" WHERE "blocked" IS NULL AND ("verifiedAt" IS NULL OR "verifiedAt" < ${p.skipSince})`)}),
      "daily" AS (${rateLimitHit(p.dailyKey, 86_400, now, sql`FROM "perNumber", "standing" WHERE "perNumber"."count" <= ${p.perNumberLimit} AND "standing"."verifiedThisMonth" < ${p.allowance}`)}),
      "challenge" AS (${p.challenge(sql`FROM "daily" WHERE "daily"."count" <= ${p.dailyCap}`)})
      SELECT "standing"."blocked", "standing"."verifiedThisMonth",
        (SELECT "count" FROM "riskCodes") AS "riskCodes", (SELECT "count" FROM "riskIp") AS "riskIp",
        (SELECT "count" FROM "perNumber") AS "perCount", (SELECT "windowStart" FROM "perNumber") AS "perWindowStart",
        (SELECT "count" FROM "daily") AS "dailyCount", (SELECT "windowStart" FROM "daily") AS "dailyWindowStart",
        (SELECT "id" FROM "challenge") AS "challengeId"
      FROM "standing"`);
    return {
      blocked: row.blocked != null,
      verifiedThisMonth: Number(row.verifiedThisMonth ?? 0),
      riskCodes: row.riskCodes == null ? null : Number(row.riskCodes),
      riskIp: row.riskIp == null ? null : Number(row.riskIp),
      perNumber: row.perCount == null ? null : { count: row.perCount as string, windowStart: row.perWindowStart as string },
      daily: row.dailyCount == null ? null : { count: row.dailyCount as string, windowStart: row.dailyWindowStart as string },
      challengeId: row.challengeId ?? null,
    };
  }
  return transaction((tx) => {
    const [standing] = tx.query<SendDecisionRow>(standingSelect(p.shopId, p.phone, p.now));
    const decision: SendDecision = {
      blocked: standing.blocked != null,
      verifiedThisMonth: Number(standing.verifiedThisMonth ?? 0),
      riskCodes: null,
      riskIp: null,
      perNumber: null,
      daily: null,
      challengeId: null,
    };
    if (decision.blocked) return decision;
    decision.riskCodes = Number(tx.query<RateLimitRow>(rateLimitHit(p.codesKey, RISK_WINDOW_SECONDS, now))[0].count);
    if (p.ipKey) decision.riskIp = Number(tx.query<RateLimitRow>(rateLimitHit(p.ipKey, RISK_WINDOW_SECONDS, now))[0].count);
    const verifiedAt = toMillis(standing.verifiedAt);
    if (verifiedAt !== null && verifiedAt >= p.skipSince.getTime()) return decision;
    decision.perNumber = tx.query<RateLimitRow>(rateLimitHit(p.perNumberKey, p.perNumberWindowSeconds, now))[0];
    if (Number(decision.perNumber.count) > p.perNumberLimit || decision.verifiedThisMonth >= p.allowance) return decision;
    decision.daily = tx.query<RateLimitRow>(rateLimitHit(p.dailyKey, 86_400, now))[0];
    if (Number(decision.daily.count) > p.dailyCap) return decision;
    decision.challengeId = tx.query<{ id: string }>(p.challenge())[0]?.id ?? null;
    return decision;
  });
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
}): Promise<SendOutcome> {
  const { shop, phone } = input;

  if (!shop.otpEnabled) {
    await countEvent(shop.id, "otp_skipped", "disabled");
    return { ok: true, skipped: "otp_disabled" };
  }
  if (!countryAllowed(phone, shop.allowedCountries)) return { ok: false, code: "country_not_allowed" };
  const now = clock.now();
  const perNumberKey = sendLimitKey(shop.id, phone);
  const dailyKey = dailyCapKey(shop.id, now);
  const code = randomNumericCode(CODE_LENGTH);
  const challenge = pendingCode(shop, phone, code, now);
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
    codesKey: riskCodesKey(shop.id, phone),
    ipKey: input.ip ? riskIpKey(shop.id, input.ip) : null,
    perNumberKey,
    perNumberLimit: shop.otpSendLimit,
    perNumberWindowSeconds: shop.otpSendWindowSeconds,
    dailyKey,
    dailyCap: shop.dailySendCap,
    skipSince,
    allowance: hasActiveSubscription(shop) ? verificationsAllowed(shop) : 0,
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
  if (!decision.perNumber) {
    await countEvent(shop.id, "otp_skipped", "returning");
    return { ok: true, skipped: "returning_customer", risk };
  }

  const nowMs = now.getTime();
  const perNumber = rateLimitResult(decision.perNumber, shop.otpSendLimit, shop.otpSendWindowSeconds, nowMs);
  if (!perNumber.allowed) return { ok: false, code: "rate_limited", retryAfter: perNumber.retryAfterSeconds };

  if (!hasActiveSubscription(shop)) return { ok: false, code: "subscription_required" };
  // The plan's monthly allowance of verifications, and past it the usage charges' cap when the
  // merchant turned them on (a shop with no plan was refused just above).
  const paused = pauseReason(shop, decision.verifiedThisMonth);
  if (paused === "allowance_used" || paused === "usage_cap_reached") {
    await Promise.all([releaseRateLimit(perNumberKey, perNumber), allowanceMayBeUsedUp(shop.domain, decision.verifiedThisMonth)]);
    return { ok: false, code: "plan_limit_reached" };
  }

  const daily = rateLimitResult(decision.daily!, shop.dailySendCap, 86_400, nowMs);
  if (!daily.allowed) {
    await Promise.all([releaseRateLimit(perNumberKey, perNumber), releaseRateLimit(dailyKey, daily)]);
    log.warn("otp: shop reached its daily send cap", { shop: shop.domain, cap: shop.dailySendCap });
    return { ok: false, code: "shop_daily_cap", retryAfter: secondsToUtcMidnight(now) };
  }

  const challengeId = decision.challengeId;
  if (!challengeId) {
    await Promise.all([releaseRateLimit(perNumberKey, perNumber), releaseRateLimit(dailyKey, daily)]);
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
    countWhenSent: countEventStatement(shop.id, "otp_sent", phoneCountry(phone) ?? "", now),
  });
  if (!result.ok && result.maybeSent) {
    // Twilio did not answer in time: the text may have gone (CONTRACT.md "Proofs and holds"). Its code
    // stays valid and both hits stay counted, or a slow Twilio would text the number without limit.
    return { ok: false, code: "sms_unavailable" };
  }
  if (!result.ok) {
    // Twilio refused, or was never reached: nothing went to the shopper. The reserved code goes, and the shop's cap gets its hit back.
    // A provider outage is not the shopper's doing, so their own limit gets it back too.
    const releases: Promise<unknown>[] = [
      execute(sql`DELETE FROM "OtpChallenge" WHERE "id" = ${challengeId}`),
      releaseRateLimit(dailyKey, daily),
    ];
    if (result.code === "sms_unavailable") releases.push(releaseRateLimit(perNumberKey, perNumber));
    await Promise.all(releases);
    return { ok: false, code: result.code };
  }
  log.info("otp: code sent", { shop: shop.domain, phone, channel: result.channel });
  return { ok: true, expiresIn: shop.otpTtlSeconds, resendAfter: shop.otpResendCooldownSeconds, channel: result.channel, risk };
}

/**
 * The new code's hash as the shop+phone's one pending challenge, replacing the old one, in one atomic
 * statement that only replaces a challenge sent before the resend cooldown: it returns the new
 * challenge's id, or no row when the cooldown is still running (the old code stays valid).
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
      "maxAttempts" = excluded."maxAttempts"
    WHERE "OtpChallenge"."sentAt" <= ${cooledBefore} OR "OtpChallenge"."expiresAt" <= ${sentAt}
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
  | { ok: false; code: "code_expired" };

/**
 * POST /verify-otp. Every guess is counted before it is compared, by one conditional UPDATE that
 * never takes `attempts` past `maxAttempts`, so however many guesses arrive at once, at most
 * `maxAttempts` codes are ever compared per challenge. A correct code is consumed by a DELETE that
 * only one request can win; then the phone is marked verified and the selection recorded.
 */
export async function checkVerificationCode(input: {
  /** The risk settings are needed on the storefront journey only (not after purchase). */
  shop: Pick<Shop, "id" | "domain" | "returningSkipDays"> & Partial<RiskShop>;
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
    UPDATE "OtpChallenge" SET "attempts" = "attempts" + 1
    WHERE "shopId" = ${shop.id} AND "phone" = ${phone} AND "expiresAt" > ${now} AND "attempts" < "maxAttempts"
    RETURNING "id", "codeHash", "attempts", "maxAttempts"`);
  const challenge = counted[0];
  if (!challenge) return countFailure(shop.id, await whyNoAttempt(shop.id, phone, now));

  if (!hashesEqual(presented, challenge.codeHash)) {
    const attemptsRemaining = Number(challenge.maxAttempts) - Number(challenge.attempts);
    log.info("otp: wrong code", { shop: shop.domain, phone, attemptsRemaining });
    return countFailure(
      shop.id,
      attemptsRemaining > 0 ? { ok: false, code: "invalid_code", attemptsRemaining } : { ok: false, code: "attempts_exhausted", attemptsRemaining: 0 },
    );
  }

  const verifiedAt = new Date(now);
  const mode = input.selectedMode ?? "cod";
  const withRisk = input.recordSelection !== false && hasRiskSettings(shop);
  const done = await completeVerification({
    shopId: shop.id,
    phone,
    challengeId: challenge.id,
    verifiedAt,
    selection:
      input.recordSelection === false
        ? null
        : { shopId: shop.id, phone, mode, source: "verify-otp", verified: true, verifiedAt, cartToken: input.cartToken ?? null },
    riskKeys: withRisk ? { codes: riskCodesKey(shop.id, phone), ip: input.ip ? riskIpKey(shop.id, input.ip) : null } : null,
  });
  if (!done.consumed) return countFailure(shop.id, { ok: false, code: "code_expired" });

  await verificationCounted(shop.domain, challenge.id, done.verifiedThisMonth).catch((error: unknown) =>
    log.warn("otp: the usage check after a verification failed", { shop: shop.domain, error: String(error) }),
  );
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

type Completion = {
  consumed: boolean;
  /** The shop's verifications this calendar month, this one included. */
  verifiedThisMonth: number;
  selectionId: string | null;
  risk: { history: PhoneHistory; codesForPhone: number; requestsFromIp: number } | null;
};

type CompletionRow = PhoneHistoryRow & { consumed: unknown; verifiedThisMonth: unknown; selectionId: string | null; riskCodes: unknown; riskIp: unknown };

/**
 * A right code, in one round trip: the code consumed (a DELETE only one request can win), and only
 * if it was, the number marked verified, the verification counted, the selection recorded, and the
 * facts the risk score reads once the number is proven.
 *  - PostgreSQL: one statement, each write a data-modifying CTE that runs only on the consumed row.
 *  - SQLite: one transaction (one commit).
 * The risk history counts the number as verified before (the mark is written first, as it always was).
 */
async function completeVerification(p: {
  shopId: string;
  phone: string;
  challengeId: string;
  verifiedAt: Date;
  selection: SelectionInput | null;
  riskKeys: { codes: string; ip: string | null } | null;
}): Promise<Completion> {
  const monthStart = allowanceMonthStart(p.verifiedAt);
  const today = utcDay(p.verifiedAt);
  const now = p.verifiedAt.getTime();
  const selection = p.selection && selectionStatements(p.selection, clock.now());
  const mark = (source?: Sql) => sql`
    INSERT INTO "VerifiedCustomer" ("shopId", "phone", "verifiedAt")
    ${source ? sql`SELECT ${p.shopId}, ${p.phone}, ${p.verifiedAt} ${source}` : sql`VALUES (${p.shopId}, ${p.phone}, ${p.verifiedAt})`}
    ON CONFLICT ("shopId", "phone") DO UPDATE SET "verifiedAt" = excluded."verifiedAt"`;
  const riskColumns = (keys: { codes: string; ip: string | null }) =>
    sql`${phoneHistoryColumns(p.shopId, p.phone)}, ${rateLimitPeek(keys.codes, RISK_WINDOW_SECONDS, now)} AS "riskCodes",
      ${keys.ip ? rateLimitPeek(keys.ip, RISK_WINDOW_SECONDS, now) : sql`0`} AS "riskIp"`;
  const completion = (row: Partial<CompletionRow>, consumed: boolean): Completion => ({
    consumed,
    verifiedThisMonth: Number(row.verifiedThisMonth ?? 0),
    selectionId: row.selectionId ?? null,
    risk: p.riskKeys
      ? { history: phoneHistoryOf(row as PhoneHistoryRow), codesForPhone: Number(row.riskCodes ?? 0), requestsFromIp: Number(row.riskIp ?? 0) }
      : null,
  });

  if (databaseProvider === "postgresql") {
    const [row] = await query<CompletionRow>(sql`
      WITH "consumed" AS (DELETE FROM "OtpChallenge" WHERE "id" = ${p.challengeId} RETURNING "id"),
      "marked" AS (${mark(sql`FROM "consumed"`)}),
      "counted" AS (${countEventStatement(p.shopId, "otp_verified", "", p.verifiedAt, sql`FROM "consumed"`)}),
      "openSelection" AS (${selection ? selection.lookup : sql`SELECT NULL AS "id" WHERE false`}),
      "updatedSelection" AS (${
        selection ? sql`${selection.update(sql`(SELECT "id" FROM "openSelection")`, sql` AND EXISTS (SELECT 1 FROM "consumed")`)} RETURNING "id"` : sql`SELECT NULL AS "id" WHERE false`
      }),
      "newSelection" AS (${
        selection ? sql`${selection.insert(sql`FROM "consumed" WHERE NOT EXISTS (SELECT 1 FROM "updatedSelection")`)} RETURNING "id"` : sql`SELECT NULL AS "id" WHERE false`
      })
      SELECT (SELECT "id" FROM "consumed") AS "consumed",
        (SELECT COALESCE(SUM("count"), 0) FROM "DailyStat"
          WHERE "shopId" = ${p.shopId} AND "metric" = 'otp_verified' AND "day" >= ${monthStart} AND "day" <> ${today})
          + COALESCE((SELECT "count" FROM "counted"), 0) AS "verifiedThisMonth",
        COALESCE((SELECT "id" FROM "updatedSelection"), (SELECT "id" FROM "newSelection")) AS "selectionId"
        ${p.riskKeys ? sql`, ${riskColumns(p.riskKeys)}` : sql``}`);
    // The mark is written in this statement, which does not see its own writes: the number is verified now.
    return completion({ ...row, verified: row.consumed != null ? 1 : row.verified }, row.consumed != null);
  }
  return transaction((tx) => {
    if (tx.execute(sql`DELETE FROM "OtpChallenge" WHERE "id" = ${p.challengeId}`) !== 1) return completion({}, false);
    tx.execute(mark());
    tx.execute(countEventStatement(p.shopId, "otp_verified", "", p.verifiedAt));
    const [used] = tx.query<{ n: unknown }>(sql`
      SELECT COALESCE(SUM("count"), 0) AS "n" FROM "DailyStat" WHERE "shopId" = ${p.shopId} AND "metric" = 'otp_verified' AND "day" >= ${monthStart}`);
    let selectionId: string | null = null;
    if (selection) {
      const [open] = tx.query<{ id: string }>(selection.lookup);
      if (open && tx.execute(selection.update(sql`${open.id}`)) === 1) selectionId = open.id;
      else {
        tx.execute(selection.insert());
        selectionId = selection.newId;
      }
    }
    const [risk] = p.riskKeys ? tx.query<CompletionRow>(sql`SELECT ${riskColumns(p.riskKeys)}`) : [];
    return completion({ ...risk, verifiedThisMonth: used?.n, selectionId }, true);
  });
}

/** Checkout stops hiding COD once no shopper can verify (app/enforcement); never fails the shopper's request. */
async function allowanceMayBeUsedUp(domain: string, used: number): Promise<void> {
  await noteAllowanceUse(domain, used).catch((error: unknown) => log.warn("otp: the allowance check failed", { shop: domain, error: String(error) }));
}

function hasRiskSettings<T extends Partial<RiskShop>>(shop: T): shop is T & RiskShop {
  return shop.riskMediumThreshold !== undefined && shop.riskHighThreshold !== undefined;
}

const FAILURE_REASON = { invalid_code: "wrong", attempts_exhausted: "locked", code_expired: "expired" } as const;

/** Counts a refused verification in the daily rollup by why it failed, and passes the outcome on. */
async function countFailure(shopId: string, outcome: Exclude<VerifyOutcome, { ok: true }>): Promise<VerifyOutcome> {
  await countEvent(shopId, "otp_failed", FAILURE_REASON[outcome.code]);
  return outcome;
}

async function whyNoAttempt(shopId: string, phone: string, now: number): Promise<Exclude<VerifyOutcome, { ok: true }>> {
  const rows = await query<{ attempts: number | bigint; maxAttempts: number | bigint; expiresAt: number | bigint | string }>(sql`
    SELECT "attempts", "maxAttempts", "expiresAt" FROM "OtpChallenge" WHERE "shopId" = ${shopId} AND "phone" = ${phone}`);
  const row = rows[0];
  if (row && Number(row.expiresAt) > now && Number(row.attempts) >= Number(row.maxAttempts)) {
    return { ok: false, code: "attempts_exhausted", attemptsRemaining: 0 };
  }
  return { ok: false, code: "code_expired" };
}

/** Deletes challenges past their expiry (used ones are deleted when used); returns how many. */
export async function purgeExpiredChallenges(): Promise<number> {
  return prisma.$executeRaw`DELETE FROM "OtpChallenge" WHERE "expiresAt" <= ${clock.now().getTime()}`;
}
