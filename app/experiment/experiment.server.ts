import { prisma } from "~/core/db.server";
import { isUniqueViolation, query, sql, sqliteIndexedBy, toDate } from "~/core/db/sql.server";
import { clock } from "~/core/utils/clock.server";
import { keyedHash, randomToken } from "~/core/utils/crypto.server";
import { log } from "~/core/utils/log.server";
import type { ShopZone } from "~/shared/shop-day";
import { experimentEnd } from "./period";
import { BASELINE_MIN_ORDERS, DEFAULT_BASELINE, dropToFind, plannedOrders } from "./stats";
import type { ExperimentStart } from "./settings";

/**
 * The holdout experiment's life and its shoppers' arms (docs/experiment.md). A shop runs at most one at a
 * time (Experiment.runningShopId is unique); a shopper's arm is a keyed hash of the phone under the app's
 * secret and the experiment's id, written once before the shopper's answer goes back, and never sent to
 * the storefront.
 */

export type Arm = "holdout" | "verify";
/**
 * A number first asked from a probing source (many numbers, few confirmed: app/otp/send-limits.server.ts)
 * is recorded as `probe`: always asked to verify, never in either arm, counted apart in the report.
 */
export const PROBE_ARM = "probe";

export type RunningExperiment = { id: string; holdoutShare: number; startedAt: Date; endsAt: Date | null };

/** The experiment running for the shop at `now` (one past its end date runs no more), or null. */
export async function runningExperiment(shopId: string, now: Date = clock.now()): Promise<RunningExperiment | null> {
  const [row] = await query<{ id: string; holdoutShare: number; startedAt: unknown; endsAt: unknown }>(sql`
    SELECT "id", "holdoutShare", "startedAt", "endsAt" FROM "Experiment"
    WHERE "runningShopId" = ${shopId} AND ("endsAt" IS NULL OR "endsAt" > ${now})`);
  if (!row) return null;
  return { id: row.id, holdoutShare: Number(row.holdoutShare), startedAt: toDate(row.startedAt), endsAt: row.endsAt == null ? null : toDate(row.endsAt) };
}

/**
 * The arm the hash gives: the phone's keyed hash under this experiment's id, read as a number in [0, 1),
 * below the share is held out. Nobody without the app's secret can compute or choose it.
 */
export function armFor(experimentId: string, phone: string, holdoutShare: number): Arm {
  const draw = parseInt(keyedHash("experiment-arm", `${experimentId}\0${phone}`).slice(0, 13), 16) / 2 ** 52;
  return draw < holdoutShare ? "holdout" : "verify";
}

/**
 * The shopper's arm, recorded: one upsert that inserts the hash's arm (or `probe` for a number first asked
 * from a probing source) or keeps the one stored, and returns what is stored, so every later step reads
 * the same arm whatever ran at the same moment. A probe row reads as "verify": the number is asked.
 */
export async function assignShopper(
  shopId: string,
  experiment: Pick<RunningExperiment, "id" | "holdoutShare">,
  phone: string,
  now: Date = clock.now(),
  source: { probing?: boolean } = {},
): Promise<Arm> {
  const arm = source.probing ? PROBE_ARM : armFor(experiment.id, phone, experiment.holdoutShare);
  const [row] = await query<{ arm: string }>(sql`
    INSERT INTO "ExperimentAssignment" ("experimentId", "shopId", "phone", "arm", "assignedAt")
    VALUES (${experiment.id}, ${shopId}, ${phone}, ${arm}, ${now})
    ON CONFLICT ("experimentId", "phone") DO UPDATE SET "arm" = "ExperimentAssignment"."arm"
    RETURNING "arm"`);
  return row.arm === "holdout" ? "holdout" : "verify";
}

/** Whether the phone was held out by the experiment running now (create-checkout's question). */
export async function heldOutNow(shopId: string, phone: string, now: Date = clock.now()): Promise<boolean> {
  const rows = await query<{ arm: string }>(sql`
    SELECT "a"."arm" FROM "ExperimentAssignment" "a" JOIN "Experiment" "e" ON "e"."id" = "a"."experimentId"
    WHERE "e"."runningShopId" = ${shopId} AND ("e"."endsAt" IS NULL OR "e"."endsAt" > ${now})
      AND "a"."phone" = ${phone} AND "a"."arm" = 'holdout'`);
  return rows.length > 0;
}

/** The outcomes the shop's own failure rate is read from: its newest, so the read stays this size however many it learnt. */
export const RATE_OUTCOMES = 10_000;

/** The shop's COD failure rate: of its newest RATE_OUTCOMES delivered or failed orders (an index range that stops there), and on how many. */
async function shopFailureRate(shopId: string): Promise<{ rate: number; orders: number }> {
  const [row] = await query<{ decided: unknown; failed: unknown }>(sql`
    SELECT COUNT(*) AS "decided", SUM(CASE WHEN "outcome" = 'failed' THEN 1 ELSE 0 END) AS "failed"
    FROM (SELECT "outcome" FROM "OrderOutcome"${sqliteIndexedBy("OrderOutcome_shopId_decidedAt_outcome_idx")}
      WHERE "shopId" = ${shopId} AND "outcome" IN ('delivered', 'failed') ORDER BY "decidedAt" DESC LIMIT ${RATE_OUTCOMES}) AS "o"`);
  const decided = Number(row?.decided ?? 0);
  const failed = Number(row?.failed ?? 0);
  return { rate: decided ? failed / decided : 0, orders: decided };
}

/** The failure rate and the drop an experiment is planned with: the shop's own rate once it has learnt enough outcomes, else the planning rate. */
export async function planningRates(shopId: string): Promise<{ baseline: number; drop: number }> {
  const history = await shopFailureRate(shopId);
  const baseline = history.orders >= BASELINE_MIN_ORDERS && history.rate > 0 ? history.rate : DEFAULT_BASELINE;
  return { baseline, drop: Math.min(dropToFind(baseline), baseline) };
}

/** The window the store's pace is read over: its COD orders placed in the last this many of its days (app/dashboard/cod-orders.server.ts counts them). */
export const PACE_DAYS = 90;

export type StartOutcome = { ok: true; id: string; horizon: number } | { ok: false; code: "experiment_running" };

/**
 * Starts an experiment: the horizon is fixed now, from the shop's own failure rate when it has learnt
 * enough outcomes (else the planning rate) and the smallest drop worth finding; a period of days ends at
 * the shop's midnight (app/experiment/period.ts). An experiment past its end date is closed first; one
 * still running refuses the start (the unique running slot decides).
 */
export async function startExperiment(shop: ShopZone, start: ExperimentStart, now: Date = clock.now()): Promise<StartOutcome> {
  const shopId = shop.id;
  const { baseline, drop } = await planningRates(shopId);
  const horizon = plannedOrders({ baseline, drop, holdoutShare: start.holdoutShare });
  const id = randomToken(12);
  try {
    await prisma.$transaction([
      prisma.experiment.updateMany({ where: { runningShopId: shopId, endsAt: { lte: now } }, data: { runningShopId: null } }),
      prisma.experiment.create({
        data: {
          id,
          shopId,
          runningShopId: shopId,
          holdoutShare: start.holdoutShare,
          startedAt: now,
          endsAt: start.days ? experimentEnd(now, start.days, shop.timezone) : null,
          horizon,
          baseline,
          drop,
        },
      }),
    ]);
  } catch (error) {
    if (isUniqueViolation(error) || (error as { code?: string }).code === "P2002") return { ok: false, code: "experiment_running" };
    throw error;
  }
  log.info("experiment: started", { shopId, id, holdoutShare: start.holdoutShare, days: start.days, horizon, baseline });
  return { ok: true, id, horizon };
}

/** Stops the running experiment now (its shoppers are asked to verify from the next request); false when none ran. */
export async function stopExperiment(shopId: string, now: Date = clock.now()): Promise<boolean> {
  const { count } = await prisma.experiment.updateMany({
    where: { runningShopId: shopId },
    data: { runningShopId: null, stoppedAt: now },
  });
  return count > 0;
}
