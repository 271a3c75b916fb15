import { execute, joinSql, query, sql, transaction, type Sql } from "~/core/db/sql.server";
import { databaseProvider } from "~/core/db.server";
import { rateLimitHits, rateLimitPeek, rateLimitReleases, rateLimitRows, type RateLimitResult, type RateLimitRow } from "~/core/rate-limit/rate-limit.server";
import { RISK_WINDOW_SECONDS } from "~/risk/assess.server";

/**
 * send-otp's decision in one step (app/otp/otp.server.ts asks, this decides): the number's standing, every
 * counter in one multi-row upsert, the pending code and its count, as one data-modifying CTE on PostgreSQL
 * and one transaction on SQLite; the verdict's hits given back in one statement; the text's record written
 * with the code (SQLite) or by the text's send before it goes, durably (PostgreSQL).
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
function standingSelect(p: Pick<SendPlan, "shopId" | "phone" | "now" | "month" | "spike" | "networkVerifiedKey">): Sql {
  const { shopId, phone, now, month, spike } = p;
  return sql`
    SELECT
      (SELECT 1 FROM "BlockedPhone" WHERE "shopId" = ${shopId} AND "phone" = ${phone}) AS "blocked",
      (SELECT "verifiedAt" FROM "VerifiedCustomer" WHERE "shopId" = ${shopId} AND "phone" = ${phone}) AS "verifiedAt",
      (SELECT 1 FROM "VerifiedCustomer" WHERE "shopId" = ${shopId} AND "phone" = ${phone} AND "countedMonth" = ${month}) AS "counted",
      (SELECT COALESCE(SUM("count"), 0) FROM "DailyStat"
        WHERE "shopId" = ${shopId} AND "metric" = 'otp_verified' AND "day" >= ${month}) AS "verifiedThisMonth",
      ${runningExperimentColumns(shopId, now)},
      (CASE WHEN ${spike.sent} >= ${spike.minSends} AND ${spike.verified} * ${spike.verifiedOneIn} < ${spike.sent} THEN 1 ELSE NULL END) AS "spike",
      ${rateLimitPeek(p.networkVerifiedKey, SHARE_WINDOW_SECONDS, now.getTime())} AS "networkVerified"`;
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
  /** The record of the text the code goes in (messageRecordStatement), written with the code on SQLite: a text that goes always has one. */
  message: () => Sql;
  /** The dashboard's count of codes sent (countEventStatement), written with the code; taken back if the text never goes. */
  countSent: (source?: Sql) => Sql;
  /** The drain watch's reading (app/otp/send-limits.server.ts): while it sees one, a share's `spikeLimit` applies. */
  spike: SpikeWatch;
  /** The counter of confirmed codes from the request's network (a probing source confirms few). */
  networkVerifiedKey: string;
  /**
   * The counter of the number's texts asked from the request's network (one of `shares`): at 1 this is the
   * network's first ask of the number in 24 hours, which the number-wide limits let through up to their
   * `firstAskLimit` (docs/security.md, "Nobody locks others out").
   */
  firstAskKey: string;
};

/**
 * A place's share: `limit` hits per `windowSeconds` (24 hours when absent); `spikeLimit` in its place while a
 * drain is seen; `firstAskLimit` in its place for a network's first ask of the number (`SendPlan.firstAskKey`).
 */
export type SendShare = { key: string; limit: number; windowSeconds?: number; spikeLimit?: number; firstAskLimit?: number };

/** Scalar subqueries for this hour's codes and confirmations, and what makes them a drain. */
export type SpikeWatch = { sent: Sql; verified: Sql; minSends: number; verifiedOneIn: number };

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
  /** Hits the steps before them refused: the chain would not have counted them, so they go back whatever the verdict. */
  unchained: Hit[];
  /** The holdout experiment running for the shop (app/experiment), or null. */
  experiment: { id: string; holdoutShare: number } | null;
  /** A drain is seen this hour: the shares' spike limits applied. */
  spike: boolean;
  /** The request's network had not asked for this number in 24 hours: the first-ask limits applied. */
  firstAsk: boolean;
  /** Codes confirmed from the request's network in 24 hours. */
  networkVerified: number;
  /**
   * The text's record was written in the decision's step (SQLite). On PostgreSQL the decision's commit does
   * not wait for the disk (`ASYNC_COMMIT`): the text's send writes the record first (app/sms `beginMessage`),
   * in a commit that waits, which puts the decision on disk with it.
   */
  recorded: boolean;
};

/** A counted hit, as given back (`rateLimitReleases`). */
export type Hit = { key: string; hit: Pick<RateLimitResult, "windowStart"> };

type SendDecisionRow = {
  blocked: unknown;
  counted: unknown;
  verifiedAt: unknown;
  verifiedThisMonth: unknown;
  experimentId?: string | null;
  holdoutShare?: unknown;
  spike?: unknown;
  networkVerified?: unknown;
  riskCodes?: unknown;
  riskIp?: unknown;
  challengeId?: string | null;
  hitKey?: string | null;
  hitCount?: unknown;
  hitWindowStart?: unknown;
};

export const NEVER = new Date(Date.UTC(9999, 0, 1));

function experimentOf(row: SendDecisionRow): SendDecision["experiment"] {
  return row.experimentId ? { id: row.experimentId, holdoutShare: Number(row.holdoutShare) } : null;
}

/**
 * One counter of the decision, in the order they are counted: the risk score's (`step` 0: counted unless
 * the number is blocked), the per-number limit (1: unless a returning customer's browser skips the code),
 * the shares and the daily cap (2: unless the plan's allowance refuses). `limit` (`spikeLimit` while a
 * drain is seen) is what lets the request on to the next counter of the chain (1 and 2).
 */
type Counter = {
  key: string;
  windowSeconds: number;
  step: 0 | 1 | 2;
  limit: number;
  spikeLimit: number;
  firstAskLimit: number;
  role: "riskCodes" | "riskIp" | "perNumber" | "share" | "daily";
};

/** The limit a counter holds a request to: its spike limit while a drain is seen (where it has one), its first-ask limit for a network's first ask. */
export function limitOf(c: { limit: number; spikeLimit?: number; firstAskLimit?: number }, d: Pick<SendDecision, "spike" | "firstAsk">): number {
  if (d.spike && c.spikeLimit != null && c.spikeLimit < c.limit) return c.spikeLimit;
  return d.firstAsk && c.firstAskLimit != null ? c.firstAskLimit : c.limit;
}

/** No limit: the largest count a PostgreSQL integer holds. */
const UNBOUNDED = 2_147_483_647;

function countersOf(p: SendPlan): Counter[] {
  const risk = (key: string, role: Counter["role"]): Counter => ({
    key,
    windowSeconds: RISK_WINDOW_SECONDS,
    step: 0,
    limit: UNBOUNDED,
    spikeLimit: UNBOUNDED,
    firstAskLimit: UNBOUNDED,
    role,
  });
  const share = (s: SendShare): Counter => ({
    key: s.key,
    windowSeconds: s.windowSeconds ?? SHARE_WINDOW_SECONDS,
    step: 2,
    limit: s.limit,
    spikeLimit: s.spikeLimit ?? s.limit,
    firstAskLimit: s.firstAskLimit ?? s.limit,
    role: "share",
  });
  return [
    risk(p.codesKey, "riskCodes"),
    ...(p.ipKey ? [risk(p.ipKey, "riskIp")] : []),
    // A network's first ask of the number passes the number's own short limit (the number's texts of the day bound it).
    { key: p.perNumberKey, windowSeconds: p.perNumberWindowSeconds, step: 1, limit: p.perNumberLimit, spikeLimit: p.perNumberLimit, firstAskLimit: UNBOUNDED, role: "perNumber" },
    ...p.shares.map(share),
    { key: p.dailyKey, windowSeconds: 86_400, step: 2, limit: p.dailyCap, spikeLimit: p.dailyCap, firstAskLimit: p.dailyCap, role: "daily" },
  ];
}

function decisionOf(standing: SendDecisionRow): SendDecision {
  return {
    blocked: standing.blocked != null,
    counted: standing.counted != null,
    shares: [],
    verifiedThisMonth: Number(standing.verifiedThisMonth ?? 0),
    riskCodes: null,
    riskIp: null,
    perNumber: null,
    daily: null,
    challengeId: standing.challengeId ?? null,
    unchained: [],
    experiment: experimentOf(standing),
    spike: standing.spike != null,
    firstAsk: false,
    networkVerified: Number(standing.networkVerified ?? 0),
    recorded: false,
  };
}

/**
 * Reads the counted rows into the decision, in the chain's order: each counter after one over its limit
 * is `unchained` (counted in the same step, given back: the request never reached it). True when the
 * whole chain let the request through (every counter was counted and none is over).
 */
function walkChain(decision: SendDecision, counters: Counter[], rows: Map<string, RateLimitRow>, firstAskKey: string): boolean {
  decision.firstAsk = Number(rows.get(firstAskKey)?.count) === 1;
  let through = true;
  for (const c of counters) {
    const row = rows.get(c.key);
    if (!row) {
      through = through && c.step === 0;
      continue;
    }
    if (c.role === "riskCodes") decision.riskCodes = Number(row.count);
    else if (c.role === "riskIp") decision.riskIp = Number(row.count);
    else if (!through) decision.unchained.push({ key: c.key, hit: { windowStart: Number(row.windowStart) } });
    else {
      if (c.role === "perNumber") decision.perNumber = row;
      else if (c.role === "share") decision.shares.push(row);
      else decision.daily = row;
      through = Number(row.count) <= limitOf(c, decision);
    }
  }
  return through;
}

/** Counters in key order, the order every statement that counts or gives back several of them locks them in. */
const byKey = <T extends { key: string }>(counters: T[]) => [...counters].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

/** What a decision comes to (app/otp/send-limits.server.ts `settleSend`): the hits it gives back. */
export type Settle<V extends { giveBack: Hit[] }> = (decision: SendDecision) => V;

/**
 * send-otp's decision in one round trip, then its verdict settled: the number's standing, every counter
 * counted in one multi-row upsert (each row still one atomic upsert of its own, so every limit stays
 * exact under any concurrency), the pending code and the text's record only when every counter let the
 * request through. What the standing refuses is never counted (blocked: nothing; a returning customer's
 * browser: only the risk score's counters; the allowance used: not the shares nor the daily cap); a
 * counter after one over its limit is given back (`unchained`), with the verdict's own hits to give back,
 * in one statement.
 *  - SQLite: one transaction (one commit): the standing, the counters, the code and record, the give-back.
 *  - PostgreSQL: one statement (data-modifying CTEs) whose commit does not wait for the disk (`ASYNC_COMMIT`),
 *    and the give-back after it when there is one; the caller writes the text's record (`recorded`).
 */
export async function decideSend<V extends { giveBack: Hit[] }>(p: SendPlan, settle: Settle<V>): Promise<{ decision: SendDecision; verdict: V }> {
  const counters = countersOf(p);
  if (databaseProvider === "postgresql") {
    const { decision } = await decideOnPostgres(p, counters);
    const verdict = settle(decision);
    const back = [...decision.unchained, ...verdict.giveBack];
    if (back.length) await execute(rateLimitReleases(back));
    return { decision, verdict };
  }
  const now = p.now.getTime();
  return transaction((tx) => {
    const [standing] = tx.query<SendDecisionRow>(standingSelect(p));
    const decision = decisionOf(standing);
    if (decision.blocked) return { decision, verdict: settle(decision) };
    const skipped = toMillis(standing.verifiedAt) !== null && toMillis(standing.verifiedAt)! >= p.skipSince.getTime();
    const allowed = decision.verifiedThisMonth < p.allowance || decision.counted;
    const counting = counters.filter((c) => c.step === 0 || (!skipped && (c.step === 1 || allowed)));
    const rows = tx.query<RateLimitRow & { key: string }>(rateLimitHits(rateLimitRows(byKey(counting), now)));
    if (walkChain(decision, counters, new Map(rows.map((r) => [r.key, r])), p.firstAskKey)) {
      decision.challengeId = tx.query<{ id: string }>(p.challenge())[0]?.id ?? null;
      if (decision.challengeId) {
        tx.execute(p.message());
        tx.query(p.countSent());
        decision.recorded = true;
      }
    }
    const verdict = settle(decision);
    const back = [...decision.unchained, ...verdict.giveBack];
    if (back.length) tx.execute(rateLimitReleases(back));
    return { decision, verdict };
  });
}

/**
 * A column that makes the statement's own transaction commit without waiting for its log to reach the disk
 * (PostgreSQL's `synchronous_commit`, for this transaction only: `set_config(..., true)`). Every send
 * updates the shop's hot rows (the daily cap, the day's count of codes), and a row stays locked until its
 * transaction commits: waiting for the disk there made a shop's sends queue one flush after another
 * (docs/decisions/0012-send-decision-commit.md). Nothing is lost that went out: the text goes only after its
 * record's statement, which does wait (`SendDecision.recorded`), and the log reaches the disk in order.
 */
const ASYNC_COMMIT = sql`(SELECT set_config('synchronous_commit', 'off', true)) AS "asyncCommit"`;

/** PostgreSQL's decision: one statement, each step a data-modifying CTE reading the steps before it. */
async function decideOnPostgres(p: SendPlan, counters: Counter[]): Promise<{ decision: SendDecision }> {
  const now = p.now.getTime();
  const list = joinSql(
    counters.map(
      (c) => sql`(${c.key}::text, ${c.windowSeconds * 1000}::bigint, ${c.step}::integer, ${c.limit}::integer, ${c.spikeLimit}::integer, ${c.firstAskLimit}::integer)`,
    ),
    ", ",
  );
  const counting = sql`
    SELECT c."key", ${now}::bigint, 1, ${now}::bigint + c."ms" FROM "counters" c, "standing" s
    WHERE s."blocked" IS NULL AND (c."step" = 0 OR ((s."verifiedAt" IS NULL OR s."verifiedAt" < ${p.skipSince})
      AND (c."step" = 1 OR s."verifiedThisMonth" < ${p.allowance} OR s."counted" IS NOT NULL)))
    ORDER BY c."key"`;
  // The code (and its text's record) only when every counter was counted and none is over its limit (`limitOf`).
  const firstAsk = sql`COALESCE((SELECT h."count" FROM "hits" h WHERE h."key" = ${p.firstAskKey}) = 1, false)`;
  const through = sql`FROM "standing" WHERE (SELECT COUNT(*) FROM "hits") = ${counters.length}
    AND NOT EXISTS (SELECT 1 FROM "hits" h JOIN "counters" c ON c."key" = h."key"
      WHERE h."count" > CASE WHEN "standing"."spike" IS NOT NULL AND c."spikeLimit" < c."limit" THEN c."spikeLimit"
        WHEN ${firstAsk} THEN c."firstAskLimit" ELSE c."limit" END)`;
  const rows = await query<SendDecisionRow>(sql`
    WITH "standing" AS (${standingSelect(p)}),
    "counters" AS (SELECT * FROM (VALUES ${list}) AS v("key", "ms", "step", "limit", "spikeLimit", "firstAskLimit")),
    "hits" AS (${rateLimitHits(counting)}),
    "challenge" AS (${p.challenge(through)}),
    "sent" AS (${p.countSent(sql`FROM "challenge"`)})
    SELECT "standing".*, (SELECT "id" FROM "challenge") AS "challengeId", ${ASYNC_COMMIT},
      "hits"."key" AS "hitKey", "hits"."count" AS "hitCount", "hits"."windowStart" AS "hitWindowStart"
    FROM "standing" LEFT JOIN "hits" ON true`);
  const decision = decisionOf(rows[0]);
  const hits = new Map<string, RateLimitRow>();
  for (const r of rows) if (r.hitKey != null) hits.set(r.hitKey, { count: r.hitCount as string, windowStart: r.hitWindowStart as string });
  walkChain(decision, counters, hits, p.firstAskKey);
  return { decision };
}
