import { z } from "zod";
import { defineJob, enqueueJob } from "~/core/jobs/queue.server";
import { query, sql, toDate } from "~/core/db/sql.server";
import { getShop, updateShop } from "~/core/settings/shop.server";
import { clock } from "~/core/utils/clock.server";
import { shopTimeZone } from "~/shared/shop-time";
import { bandIndex, calibrate, emptyCounts, orderHoursOf, readCounts, type CalibrationBand, type CalibrationCounts } from "./calibration";
import { shopHour, unusualHour } from "./signals";

/**
 * A shop's calibration (app/risk/calibration.ts) recomputed from its learnt outcomes, through the jobs
 * table: a learnt outcome queues the shop's job for the current hour (key `<shop>:<hour>`, so one job an
 * hour however many outcomes arrive, due at the hour's end), and the job counts every COD order with a
 * stored score and a learnt outcome by score band, in one statement, then writes the counts on the shop
 * row. A recount is the same whatever ran before, so a run repeated after a crash changes nothing.
 */
const HOUR_MS = 3_600_000;

export const riskCalibrationJob = defineJob({
  kind: "risk-calibration",
  payload: z.object({}),
  run: async (_payload, { shop }) => {
    await recalibrate(shop);
    return { ok: true };
  },
});

/** Queues the shop's recount for the end of this hour (nothing new when it is queued already). */
export async function enqueueRecalibration(shopDomain: string): Promise<void> {
  const hour = Math.floor(clock.now().getTime() / HOUR_MS);
  await enqueueJob(riskCalibrationJob, { shop: shopDomain, key: `${shopDomain}:${hour}`, payload: {}, runAt: new Date((hour + 1) * HOUR_MS) });
}

/** The shop's most recent COD orders whose hours of day the recount keeps (`unusual_hour`: an even share needs 200). */
export const ORDER_HOURS_SAMPLE = 2000;

/**
 * The shop's learnt COD orders counted by the score band orders/create stored, and its last ORDER_HOURS_SAMPLE
 * COD orders by hour of its own day (its time zone, app/shared/shop-day.ts), written on the shop row.
 */
export async function recalibrate(shopDomain: string): Promise<CalibrationCounts | null> {
  const shop = await getShop(shopDomain);
  if (!shop) return null;
  const rows = await query<{ bin: unknown; orders: unknown; failed: unknown }>(sql`
    SELECT r."riskScore" / 10 AS "bin", COUNT(*) AS "orders", SUM(CASE WHEN o."outcome" = 'failed' THEN 1 ELSE 0 END) AS "failed"
    FROM "OrderOutcome" o JOIN "OrderRecord" r ON r."shopId" = o."shopId" AND r."orderGid" = o."orderGid"
    WHERE o."shopId" = ${shop.id} AND o."outcome" IN ('delivered', 'failed') AND r."riskScore" IS NOT NULL
    GROUP BY r."riskScore" / 10`);
  const placed = await query<{ placedAt: unknown }>(sql`
    SELECT "placedAt" FROM "OrderRecord" WHERE "shopId" = ${shop.id} AND "cod" = ${true} ORDER BY "placedAt" DESC LIMIT ${ORDER_HOURS_SAMPLE}`);
  const zone = shopTimeZone(shop.timezone);
  const counts: CalibrationCounts = { ...emptyCounts(), hours: Array(24).fill(0) };
  for (const row of placed) counts.hours![shopHour(toDate(row.placedAt), zone)] += 1;
  for (const row of rows) {
    const i = bandIndex(Number(row.bin) * 10);
    counts.orders[i] += Number(row.orders);
    counts.failed[i] += Number(row.failed ?? 0);
  }
  await updateShop(shopDomain, { riskCalibration: JSON.stringify(counts) });
  return counts;
}

/**
 * Whether `at` is an hour unusual for the shop (docs/risk.md, "Behaviour"): its recent COD orders' hours as the
 * last recount kept them, in its own time zone; 01:00-04:59 there while fewer than 200 are known.
 */
export function unusualHourFor(shop: { timezone?: string | null; riskCalibration?: string | null }, at: Date): boolean {
  const hours = shopOrderHours(shop.riskCalibration ?? "");
  // No hours counted yet: nothing is unusual, and no zone needs reading.
  return hours !== null && unusualHour(shopHour(at, zoneOf(shop.timezone)), hours);
}

const zones = new Map<string, string>();

/** The shop's zone as Intl reads it (UTC for an unknown one), checked once per zone. */
function zoneOf(timezone: string | null | undefined): string {
  const key = timezone ?? "";
  let zone = zones.get(key);
  if (zone === undefined) {
    zone = shopTimeZone(timezone);
    if (zones.size > 1000) zones.clear();
    zones.set(key, zone);
  }
  return zone;
}

const hoursKept = new Map<string, number[] | null>();

function shopOrderHours(stored: string): number[] | null {
  if (!hoursKept.has(stored)) {
    if (hoursKept.size > 1000) hoursKept.clear();
    hoursKept.set(stored, orderHoursOf(readCounts(stored)));
  }
  return hoursKept.get(stored) ?? null;
}

const calibrated = new Map<string, CalibrationBand[]>();

/** The shop's bands from its stored counts (kept by their text: the same counts are calibrated once). */
export function shopCalibration(stored: string): CalibrationBand[] {
  let bands = calibrated.get(stored);
  if (!bands) {
    bands = calibrate(readCounts(stored));
    if (calibrated.size > 1000) calibrated.clear();
    calibrated.set(stored, bands);
  }
  return bands;
}
