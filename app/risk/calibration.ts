/**
 * A shop's risk score read as a failure probability (docs/risk.md, "Probabilities"). Pure: the counts
 * come from the shop's learnt outcomes (app/risk/calibration.server.ts keeps them), the replay counts
 * its own (app/risk/replay.ts).
 *
 * The score's 0-100 is cut into ten bands of ten points. Each band's probability is its learnt failure
 * rate shrunk toward the app's prior for that band: (failed + m·prior) / (orders + m), m = PRIOR_WEIGHT,
 * so a shop with few outcomes reads the prior and one with many reads its own rate. The ten values are
 * then made non-decreasing in the score (pool-adjacent-violators, weighted by orders + m): a higher
 * score never reads a lower probability, whatever noise a small band holds.
 */

export const CALIBRATION_BANDS = 10;
/** Pseudo-orders of the prior per band: with 20 learnt orders a band is half its own rate, half the prior. */
export const PRIOR_WEIGHT = 20;

/** Learnt COD orders per score band (index 0: scores 0-9 ... 9: scores 90-100). */
/**
 * The learnt orders and failures per score band; `hours`: the shop's recent COD orders per hour of its own day
 * (0-23, its time zone), which the live score's `unusual_hour` reads (absent until the first recount).
 */
export type CalibrationCounts = { orders: number[]; failed: number[]; hours?: number[] };

export type CalibrationBand = { from: number; to: number; orders: number; failed: number; observed: number | null; prior: number; predicted: number };

export function emptyCounts(): CalibrationCounts {
  return { orders: Array(CALIBRATION_BANDS).fill(0), failed: Array(CALIBRATION_BANDS).fill(0) };
}

export function bandIndex(score: number): number {
  return Math.max(0, Math.min(CALIBRATION_BANDS - 1, Math.floor(score / 10)));
}

/**
 * The app's prior probability of failure at a score, before a shop has learnt anything: 4 % at 0,
 * about 40 % at 55, 86 % at 95. A cautious reading of the points (a score of 60 is a phone with a
 * failed order and a weak address), not fitted to the generator's histories.
 */
export function priorProbability(score: number): number {
  return 0.03 + 0.85 * Math.pow(Math.max(0, Math.min(100, score)) / 100, 1.5);
}

/** The ten bands' probabilities for these counts: shrunk to the prior, then non-decreasing. */
export function calibrate(counts: CalibrationCounts): CalibrationBand[] {
  const bands = counts.orders.map((orders, i) => {
    const failed = counts.failed[i] ?? 0;
    const prior = priorProbability(i * 10 + 5);
    return { from: i * 10, to: i * 10 + 9, orders, failed, observed: orders ? failed / orders : null, prior, predicted: (failed + PRIOR_WEIGHT * prior) / (orders + PRIOR_WEIGHT) };
  });
  const monotone = poolAdjacentViolators(bands.map((b) => b.predicted), bands.map((b) => b.orders + PRIOR_WEIGHT));
  return bands.map((b, i) => ({ ...b, to: i === CALIBRATION_BANDS - 1 ? 100 : b.to, predicted: monotone[i] }));
}

/** The failure probability of one score under a calibration (its band's). */
export function failureProbability(bands: readonly CalibrationBand[], score: number): number {
  return bands[bandIndex(score)].predicted;
}

/** The least-squares non-decreasing fit of `values` under `weights` (isotonic regression). */
function poolAdjacentViolators(values: number[], weights: number[]): number[] {
  const blocks: { value: number; weight: number; size: number }[] = [];
  values.forEach((value, i) => {
    blocks.push({ value, weight: weights[i], size: 1 });
    while (blocks.length > 1 && blocks[blocks.length - 2].value > blocks[blocks.length - 1].value) {
      const b = blocks.pop()!;
      const a = blocks.pop()!;
      const weight = a.weight + b.weight;
      blocks.push({ value: (a.value * a.weight + b.value * b.weight) / weight, weight, size: a.size + b.size });
    }
  });
  return blocks.flatMap((b) => Array(b.size).fill(b.value));
}

/** The shop's COD orders per hour of its day as the stored counts keep them, or null (none counted yet, or not 24 whole counts). */
export function orderHoursOf(counts: CalibrationCounts): number[] | null {
  const h = counts.hours;
  return Array.isArray(h) && h.length === 24 && h.every((x) => Number.isInteger(x) && x >= 0) ? h : null;
}

/** Reads counts as the shop row keeps them (JSON), or empty ones for anything else. */
export function readCounts(text: string | null | undefined): CalibrationCounts {
  try {
    const parsed = JSON.parse(text ?? "") as unknown;
    const ok = (xs: unknown): xs is number[] => Array.isArray(xs) && xs.length === CALIBRATION_BANDS && xs.every((x) => Number.isInteger(x) && x >= 0);
    if (parsed && typeof parsed === "object" && ok((parsed as CalibrationCounts).orders) && ok((parsed as CalibrationCounts).failed)) return parsed as CalibrationCounts;
  } catch {
    // not JSON: no calibration learnt yet
  }
  return emptyCounts();
}
