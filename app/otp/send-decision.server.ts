import { query, sql, transaction, type Sql } from "~/core/db/sql.server";
import { databaseProvider } from "~/core/db.server";
import { rateLimitHit, type RateLimitRow } from "~/core/rate-limit/rate-limit.server";
import { RISK_WINDOW_SECONDS } from "~/risk/assess.server";

/**
 * send-otp's decision in one round trip (app/otp/otp.server.ts asks, this decides): the number's standing,
 * the per-number limit, the daily cap and the pending code, as one data-modifying CTE on PostgreSQL and one
 * transaction on SQLite.
 */

function toMillis(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.getTime();
  if (typeof value === "number" || typeof value === "bigint") return Number(value);
  const parsed = Date.parse(String(value));
  return Number.isNaN(parsed) ? null : parsed;
}

/**
 * Whether the number is on the shop's blocklist, when it last verified, whether the allowance already
 * counted it this month (verifying it again costs nothing, so the allowance never refuses it), and how
 * many verifications the shop had this calendar month (the plan's allowance; at most 31 DailyStat rows).
 */
function standingSelect(shopId: string, phone: string, now: Date, month: string): Sql {
  return sql`
    SELECT
      (SELECT 1 FROM "BlockedPhone" WHERE "shopId" = ${shopId} AND "phone" = ${phone}) AS "blocked",
      (SELECT "verifiedAt" FROM "VerifiedCustomer" WHERE "shopId" = ${shopId} AND "phone" = ${phone}) AS "verifiedAt",
      (SELECT 1 FROM "VerifiedCustomer" WHERE "shopId" = ${shopId} AND "phone" = ${phone} AND "countedMonth" = ${month}) AS "counted",
      (SELECT COALESCE(SUM("count"), 0) FROM "DailyStat"
        WHERE "shopId" = ${shopId} AND "metric" = 'otp_verified' AND "day" >= ${month}) AS "verifiedThisMonth",
      ${runningExperimentColumns(shopId, now)}`;
}

/** The holdout experiment running now (app/experiment), if any: its id and held-out share, read with the standing. */
function runningExperimentColumns(shopId: string, now: Date): Sql {
  const running = sql`FROM "Experiment" WHERE "runningShopId" = ${shopId} AND ("endsAt" IS NULL OR "endsAt" > ${now})`;
  return sql`(SELECT "id" ${running}) AS "experimentId", (SELECT "holdoutShare" ${running}) AS "holdoutShare"`;
}

/** Everything send-otp's decision needs to know before it runs, so the database can make it in one step. */
export type SendPlan = {
  shopId: string;
  phone: string;
  now: Date;
  /** The shop's allowance month (allowanceMonthStart, in its time zone). */
  month: string;
  codesKey: string;
  ipKey: string | null;
  perNumberKey: string;
  perNumberLimit: number;
  perNumberWindowSeconds: number;
  /**
   * The places one request comes from (its IP, its network, its number's block), each allowed a share of
   * the daily cap in 24 hours (`sendShares`), counted in this order after the per-number limit and
   * before the daily cap: one place cannot drain the cap for everyone else.
   */
  shares: SendShare[];
  dailyKey: string;
  dailyCap: number;
  /** A verification at or after this time, with this browser's device token, skips the code (far future: never). */
  skipSince: Date;
  /** Verifications this month below which the shop may send (0: it may not, no active plan). */
  allowance: number;
  /** The pending code's upsert (`pendingCode`). */
  challenge: (source?: Sql) => Sql;
};

export type SendShare = { key: string; limit: number };

/** The window of a place's share of the daily cap. */
export const SHARE_WINDOW_SECONDS = 86_400;

/** What the decision found and did; a step it did not reach is null. */
export type SendDecision = {
  /** The shares' counters, in `SendPlan.shares` order, up to the first over its limit. */
  shares: RateLimitRow[];
  blocked: boolean;
  /** The allowance counted this number this month already: a verification costs nothing. */
  counted: boolean;
  verifiedThisMonth: number;
  riskCodes: number | null;
  riskIp: number | null;
  perNumber: RateLimitRow | null;
  daily: RateLimitRow | null;
  challengeId: string | null;
  /** The holdout experiment running for the shop (app/experiment), or null. */
  experiment: { id: string; holdoutShare: number } | null;
};

type SendDecisionRow = {
  blocked: unknown;
  counted: unknown;
  verifiedAt: unknown;
  verifiedThisMonth: unknown;
  experimentId?: string | null;
  holdoutShare?: unknown;
  riskCodes?: unknown;
  riskIp?: unknown;
  perCount?: unknown;
  perWindowStart?: unknown;
  dailyCount?: unknown;
  dailyWindowStart?: unknown;
  challengeId?: string | null;
  [share: `share${number}${"Count" | "WindowStart"}`]: unknown;
};

export const NEVER = new Date(Date.UTC(9999, 0, 1));

function experimentOf(row: SendDecisionRow): SendDecision["experiment"] {
  return row.experimentId ? { id: row.experimentId, holdoutShare: Number(row.holdoutShare) } : null;
}

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
export async function decideSend(p: SendPlan): Promise<SendDecision> {
  const now = p.now.getTime();
  if (databaseProvider === "postgresql") {
    const notBlocked = sql`FROM "standing" WHERE "blocked" IS NULL`;
    // Each share is counted only when the step before it let the request through; the daily cap after the last.
    const name = (i: number, column = "") => sql([`"share${i}${column}"`]);
    let through = sql`FROM "perNumber", "standing" WHERE "perNumber"."count" <= ${p.perNumberLimit}
      AND ("standing"."verifiedThisMonth" < ${p.allowance} OR "standing"."counted" IS NOT NULL)`;
    let shareSteps = sql``;
    let shareColumns = sql``;
    p.shares.forEach((share, i) => {
      shareSteps = sql`${shareSteps} ${name(i)} AS (${rateLimitHit(share.key, SHARE_WINDOW_SECONDS, now, through)}),`;
      shareColumns = sql`${shareColumns}, (SELECT "count" FROM ${name(i)}) AS ${name(i, "Count")}, (SELECT "windowStart" FROM ${name(i)}) AS ${name(i, "WindowStart")}`;
      through = sql`FROM ${name(i)} WHERE "count" <= ${share.limit}`;
    });
    const [row] = await query<SendDecisionRow>(sql`
      WITH "standing" AS (${standingSelect(p.shopId, p.phone, p.now, p.month)}),
      "riskCodes" AS (${rateLimitHit(p.codesKey, RISK_WINDOW_SECONDS, now, notBlocked)}),
      "riskIp" AS (${p.ipKey ? rateLimitHit(p.ipKey, RISK_WINDOW_SECONDS, now, notBlocked) : sql`SELECT NULL::integer AS "count"`}),
      "perNumber" AS (${rateLimitHit(p.perNumberKey, p.perNumberWindowSeconds, now, sql`FROM "standing" WHERE "blocked" IS NULL AND ("verifiedAt" IS NULL OR "verifiedAt" < ${p.skipSince})`)}),
      ${shareSteps}
      "daily" AS (${rateLimitHit(p.dailyKey, 86_400, now, through)}),
      "challenge" AS (${p.challenge(sql`FROM "daily" WHERE "daily"."count" <= ${p.dailyCap}`)})
      SELECT "standing"."blocked", "standing"."counted", "standing"."verifiedThisMonth", "standing"."experimentId", "standing"."holdoutShare",
        (SELECT "count" FROM "riskCodes") AS "riskCodes", (SELECT "count" FROM "riskIp") AS "riskIp",
        (SELECT "count" FROM "perNumber") AS "perCount", (SELECT "windowStart" FROM "perNumber") AS "perWindowStart",
        (SELECT "count" FROM "daily") AS "dailyCount", (SELECT "windowStart" FROM "daily") AS "dailyWindowStart",
        (SELECT "id" FROM "challenge") AS "challengeId"
        ${shareColumns}
      FROM "standing"`);
    const shares: RateLimitRow[] = [];
    for (let i = 0; i < p.shares.length && row[`share${i}Count`] != null; i++) {
      shares.push({ count: row[`share${i}Count`] as string, windowStart: row[`share${i}WindowStart`] as string });
    }
    return {
      blocked: row.blocked != null,
      counted: row.counted != null,
      shares,
      verifiedThisMonth: Number(row.verifiedThisMonth ?? 0),
      riskCodes: row.riskCodes == null ? null : Number(row.riskCodes),
      riskIp: row.riskIp == null ? null : Number(row.riskIp),
      perNumber: row.perCount == null ? null : { count: row.perCount as string, windowStart: row.perWindowStart as string },
      daily: row.dailyCount == null ? null : { count: row.dailyCount as string, windowStart: row.dailyWindowStart as string },
      challengeId: row.challengeId ?? null,
      experiment: experimentOf(row),
    };
  }
  return transaction((tx) => {
    const [standing] = tx.query<SendDecisionRow>(standingSelect(p.shopId, p.phone, p.now, p.month));
    const decision: SendDecision = {
      blocked: standing.blocked != null,
      counted: standing.counted != null,
      shares: [],
      verifiedThisMonth: Number(standing.verifiedThisMonth ?? 0),
      riskCodes: null,
      riskIp: null,
      perNumber: null,
      daily: null,
      challengeId: null,
      experiment: experimentOf(standing),
    };
    if (decision.blocked) return decision;
    decision.riskCodes = Number(tx.query<RateLimitRow>(rateLimitHit(p.codesKey, RISK_WINDOW_SECONDS, now))[0].count);
    if (p.ipKey) decision.riskIp = Number(tx.query<RateLimitRow>(rateLimitHit(p.ipKey, RISK_WINDOW_SECONDS, now))[0].count);
    const verifiedAt = toMillis(standing.verifiedAt);
    if (verifiedAt !== null && verifiedAt >= p.skipSince.getTime()) return decision;
    decision.perNumber = tx.query<RateLimitRow>(rateLimitHit(p.perNumberKey, p.perNumberWindowSeconds, now))[0];
    if (Number(decision.perNumber.count) > p.perNumberLimit || (decision.verifiedThisMonth >= p.allowance && !decision.counted)) return decision;
    for (const share of p.shares) {
      const [hit] = tx.query<RateLimitRow>(rateLimitHit(share.key, SHARE_WINDOW_SECONDS, now));
      decision.shares.push(hit);
      if (Number(hit.count) > share.limit) return decision;
    }
    decision.daily = tx.query<RateLimitRow>(rateLimitHit(p.dailyKey, 86_400, now))[0];
    if (Number(decision.daily.count) > p.dailyCap) return decision;
    decision.challengeId = tx.query<{ id: string }>(p.challenge())[0]?.id ?? null;
    return decision;
  });
}
