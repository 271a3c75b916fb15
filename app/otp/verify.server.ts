import { query, sql } from "~/core/db/sql.server";
import type { PaymentMode } from "~/shared/payment-modes";
import type { Shop } from "~/core/settings/shop.server";
import { clock } from "~/core/utils/clock.server";
import { hashesEqual } from "~/core/utils/crypto.server";
import { log } from "~/core/utils/log.server";
import { countEvent } from "~/core/db/daily-stats.server";
import { issueDeviceToken, issueProof } from "~/otp/proof.server";
import { verificationCounted } from "~/enforcement/allowance.server";
import { watchAllowanceBurn } from "~/enforcement/burn.server";
import type { ShopZone } from "~/shared/shop-day";
import { riskCodesKey, riskIpKey, shopperAssessment, type RiskShop } from "~/risk/assess.server";
import { behaviourReadings, type BehaviourFacts, type RiskAssessment } from "~/risk/score";
import { codeHash } from "./otp.server";
import { noteCodeConfirmed } from "./send-limits.server";
import { completeVerification, type Completion } from "./verify-completion.server";

/** POST /verify-otp's flow (the send's is app/otp/otp.server.ts). */

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
  /** What the modal measured (a capped score nudge only: docs/risk.md, "Behaviour"). */
  behaviour?: BehaviourFacts | null;
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
        : // The readings this score used stay with the journey's selection, for orders/create's score of the order.
          { shopId: shop.id, phone, mode, source: "verify-otp", verified: true, verifiedAt, cartToken: input.cartToken ?? null, riskBehaviour: withRisk ? behaviourReadings(input.behaviour) : null },
    riskKeys: withRisk ? { codes: riskCodesKey(shop.id, phone), ip: input.ip ? riskIpKey(shop.id, input.ip) : null } : null,
  });
  // Another answer of this same right code used it first (both compared it before either used it).
  if (!done.consumed) return { ok: false, code: "already_verified" };
  await afterVerified(shop, phone, input.ip, challenge.id, done, verifiedAt);
  return provenAnswer(input, done, verifiedAt, mode, withRisk);
}

type VerifyInput = Parameters<typeof checkVerificationCode>[0];

/**
 * What a confirmed code sets off: the drain and probe watches count it (app/otp/send-limits.server.ts), and a
 * number's first verification this month, the one the allowance counts (docs/security.md), is watched for
 * an abnormal burn, then checked against the allowance and usage charges.
 */
async function afterVerified(shop: VerifyInput["shop"], phone: string, ip: string | null | undefined, challengeId: string, done: Completion, at: Date) {
  await noteCodeConfirmed(shop, ip, at);
  if (!done.counted) return;
  await watchAllowanceBurn(shop, phone, ip, at);
  await verificationCounted(shop.domain, challengeId, done.verifiedThisMonth).catch((error: unknown) =>
    log.warn("otp: the usage check after a verification failed", { shop: shop.domain, error: String(error) }),
  );
}

/** The proof (and the browser's device token): the number is proven now, so its history counts; a high band rides on the proof and checkout hides COD for it. */
function provenAnswer(input: VerifyInput, done: Completion, verifiedAt: Date, mode: PaymentMode, withRisk: boolean): VerifyOutcome {
  const { shop, phone } = input;
  log.info("otp: phone verified", { shop: shop.domain, phone });
  const risk =
    withRisk && done.risk
      ? shopperAssessment(shop as typeof shop & RiskShop, {
          phone,
          otpVerified: true,
          history: done.risk.history,
          codesForPhone: done.risk.codesForPhone,
          requestsFromIp: done.risk.requestsFromIp,
          behaviour: input.behaviour,
        })
      : null;
  const proof = issueProof(shop.domain, { phone, mode, selectionId: done.selectionId ?? "none", band: risk?.band }, verifiedAt);
  return {
    ok: true,
    proof: proof.token,
    proofExpiresAt: proof.expiresAt,
    deviceToken: issueDeviceToken(shop.domain, phone, shop.returningSkipDays, verifiedAt),
    risk,
  };
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

