/**
 * The holdout experiment's statistics, pure (no I/O): what docs/experiment.md explains and
 * `npm run experiment:eval` checks on simulated shops.
 *
 * - Per arm, the failure rate of resolved COD orders with a 95 % Wilson score interval.
 * - The difference between arms (held out minus verified: the drop verification makes) with
 *   Newcombe's hybrid score interval (his method 10), built from the two Wilson intervals.
 * - Shoppers are what is randomised, orders are what is counted: one shopper's orders share their
 *   fate, so each arm's counts are first shrunk by its design effect (Kish's effective sample size,
 *   from the cluster-robust variance of the ratio), which is M/(M−1) when each of M shoppers ordered once.
 * - A fixed horizon: the number of resolved COD orders fixed when the experiment starts, from the
 *   shop's failure rate and the smallest drop worth finding. Before it the interval is shown, never a verdict.
 */

/** The standard normal quantile (Acklam's rational approximation, relative error below 1.2e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile: p must be in (0, 1), got ${p}`);
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/** z for a two-sided interval of this confidence (0.95 → 1.959964). */
export function zFor(confidence: number): number {
  return normalQuantile(1 - (1 - confidence) / 2);
}

/**
 * Student's t quantile with `df` degrees of freedom (Hill's 1970 expansion around the normal's, good to
 * 1e-4 from df = 3); the normal's beyond 1e6. Used in place of z when an arm has few shoppers.
 */
export function tQuantile(p: number, df: number): number {
  const z = normalQuantile(p);
  if (!(df < 1e6)) return z;
  const v = Math.max(df, 1);
  const z3 = z ** 3;
  const z5 = z ** 5;
  const z7 = z ** 7;
  const z9 = z ** 9;
  return (
    z +
    (z3 + z) / (4 * v) +
    (5 * z5 + 16 * z3 + 3 * z) / (96 * v ** 2) +
    (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v ** 3) +
    (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * v ** 4)
  );
}

export type Interval = { estimate: number; lower: number; upper: number };

/**
 * Wilson's score interval for `failures` out of `n` (n may be fractional: an effective count). n = 0: the
 * whole of [0, 1]. `df`: t's degrees of freedom in place of z (an arm of few shoppers: their number less one).
 */
export function wilson(failures: number, n: number, confidence = 0.95, df = Infinity): Interval {
  if (!(n > 0)) return { estimate: NaN, lower: 0, upper: 1 };
  const z = tQuantile(1 - (1 - confidence) / 2, df);
  const p = failures / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { estimate: p, lower: Math.max(0, centre - half), upper: Math.min(1, centre + half) };
}

/**
 * Newcombe's hybrid score interval for p1 − p2 (method 10 of Newcombe 1998), from each proportion's
 * Wilson interval: [d − √((p1−l1)² + (u2−p2)²), d + √((u1−p1)² + (p2−l2)²)].
 */
export function newcombe(a: { failures: number; n: number; df?: number }, b: { failures: number; n: number; df?: number }, confidence = 0.95): Interval {
  const w1 = wilson(a.failures, a.n, confidence, a.df);
  const w2 = wilson(b.failures, b.n, confidence, b.df);
  if (!(a.n > 0) || !(b.n > 0)) return { estimate: NaN, lower: -1, upper: 1 };
  const d = w1.estimate - w2.estimate;
  return {
    estimate: d,
    lower: Math.max(-1, d - Math.sqrt((w1.estimate - w1.lower) ** 2 + (w2.upper - w2.estimate) ** 2)),
    upper: Math.min(1, d + Math.sqrt((w1.upper - w1.estimate) ** 2 + (w2.estimate - w2.lower) ** 2)),
  };
}

/** One shopper's resolved COD orders in the experiment and how many of them failed. */
export type ShopperCounts = { orders: number; failed: number };

/** An arm's resolved orders and failures, and the same shrunk by the design effect (what the intervals use). */
export type ArmCounts = {
  orders: number;
  failed: number;
  shoppers: number;
  /** Kish's effective number of shoppers, (Σ orders)² / Σ orders²: fewer than `shoppers` when a few made many of the orders. */
  effectiveShoppers: number;
  designEffect: number;
  effectiveOrders: number;
  effectiveFailed: number;
};

/**
 * An arm's counts from its shoppers. The design effect is the cluster-robust variance of the failure
 * rate (a ratio estimator over shoppers, with the k/(k−1) small-sample factor) over the binomial
 * variance, never below 1; the effective counts are the raw ones divided by it (Kish).
 */
export function armCounts(shoppers: readonly ShopperCounts[]): ArmCounts {
  let orders = 0;
  let failed = 0;
  let k = 0;
  let squares = 0;
  for (const s of shoppers) {
    if (s.orders <= 0) continue;
    orders += s.orders;
    failed += s.failed;
    squares += s.orders * s.orders;
    k++;
  }
  if (!orders) return { orders: 0, failed: 0, shoppers: k, effectiveShoppers: 0, designEffect: 1, effectiveOrders: 0, effectiveFailed: 0 };
  const effectiveShoppers = (orders * orders) / squares;
  const p = failed / orders;
  let designEffect = 1;
  if (k > 1 && p > 0 && p < 1) {
    let sum = 0;
    // Each shopper's residual over one less their share of the orders (the jackknife's CR3 form), so a
    // few shoppers with many orders widen the interval as much as they sway the rate.
    for (const s of shoppers) if (s.orders > 0) sum += ((s.failed - p * s.orders) / Math.max(1 - s.orders / orders, 1 / k)) ** 2;
    const robust = (((k - 1) / k) * sum) / (orders * orders);
    const binomial = (p * (1 - p)) / orders;
    designEffect = Math.max(1, robust / binomial);
  }
  return { orders, failed, shoppers: k, effectiveShoppers, designEffect, effectiveOrders: orders / designEffect, effectiveFailed: failed / designEffect };
}

/**
 * Resolved COD orders the experiment needs in all (both arms) to find a drop of `drop` from `baseline`
 * with two-sided `alpha` and `power`, when a share `holdoutShare` of orders is held out: the normal
 * approximation for two proportions with unequal arms (Fleiss), rounded up to a whole ten.
 */
export function plannedOrders(input: { baseline: number; drop: number; holdoutShare: number; alpha?: number; power?: number }): number {
  const { baseline: p1, drop, holdoutShare: s } = input;
  const p2 = Math.max(0, p1 - drop);
  const za = normalQuantile(1 - (input.alpha ?? 0.05) / 2);
  const zb = normalQuantile(input.power ?? 0.8);
  const pBar = s * p1 + (1 - s) * p2;
  const numerator = za * Math.sqrt(pBar * (1 - pBar) * (1 / s + 1 / (1 - s))) + zb * Math.sqrt((p1 * (1 - p1)) / s + (p2 * (1 - p2)) / (1 - s));
  return Math.ceil((numerator / (p1 - p2)) ** 2 / 10) * 10;
}

/** The smallest drop the horizon is sized for: 10 points, or half the shop's rate when that is lower (never below 3). */
export function dropToFind(baseline: number): number {
  return Math.max(0.03, Math.min(0.1, baseline / 2));
}

/** Below this many resolved orders a shop's own rate is not trusted for the horizon; the planning rate is used instead. */
export const BASELINE_MIN_ORDERS = 50;
/** The failure rate the horizon is planned with when the shop has too little history (COD returns in India run 20-30 %). */
export const DEFAULT_BASELINE = 0.2;

export type Verdict =
  /** Before the horizon: the interval is shown, no verdict. */
  | "collecting"
  /** At the horizon, the whole interval is a drop. */
  | "fewer_failures"
  /** At the horizon, the interval holds zero: no difference this experiment could find. */
  | "no_clear_difference"
  /** At the horizon, the whole interval is a rise: verified orders failed more. */
  | "more_failures";

export type ExperimentReading = {
  holdout: ArmCounts & { rate: Interval };
  verified: ArmCounts & { rate: Interval };
  /** Held-out rate minus verified rate (positive: verification cut failures). */
  difference: Interval;
  crossesZero: boolean;
  verdict: Verdict;
  /** Resolved orders still needed to reach the horizon (0 once reached). */
  ordersToHorizon: number;
  /** At the pace so far, days until the horizon; null when there is no pace yet or it was reached. */
  daysToHorizon: number | null;
};

/**
 * The experiment read as of now: both arms, the difference, and the verdict, which exists only once
 * `horizon` resolved orders are in (the fixed horizon: looking earlier changes nothing). `resolvedPerDay`:
 * the pace so far, for the days still to go.
 */
export function readExperiment(input: {
  holdout: readonly ShopperCounts[];
  verified: readonly ShopperCounts[];
  horizon: number;
  resolvedPerDay: number | null;
  confidence?: number;
}): ExperimentReading {
  const confidence = input.confidence ?? 0.95;
  const h = armCounts(input.holdout);
  const v = armCounts(input.verified);
  // Shoppers are the units: an arm's z becomes t with its effective number of shoppers less one degrees of freedom.
  const hArm = { failures: h.effectiveFailed, n: h.effectiveOrders, df: Math.max(1, h.effectiveShoppers - 1) };
  const vArm = { failures: v.effectiveFailed, n: v.effectiveOrders, df: Math.max(1, v.effectiveShoppers - 1) };
  const holdout = { ...h, rate: { ...wilson(hArm.failures, hArm.n, confidence, hArm.df), estimate: h.orders ? h.failed / h.orders : NaN } };
  const verified = { ...v, rate: { ...wilson(vArm.failures, vArm.n, confidence, vArm.df), estimate: v.orders ? v.failed / v.orders : NaN } };
  const difference = newcombe(hArm, vArm, confidence);
  const crossesZero = !(difference.lower > 0 || difference.upper < 0);
  const resolved = h.orders + v.orders;
  const ordersToHorizon = Math.max(0, input.horizon - resolved);
  const reached = ordersToHorizon === 0 && h.orders > 0 && v.orders > 0;
  const verdict: Verdict = !reached ? "collecting" : crossesZero ? "no_clear_difference" : difference.lower > 0 ? "fewer_failures" : "more_failures";
  const daysToHorizon = ordersToHorizon > 0 && input.resolvedPerDay && input.resolvedPerDay > 0 ? Math.ceil(ordersToHorizon / input.resolvedPerDay) : null;
  return { holdout, verified, difference, crossesZero, verdict, ordersToHorizon, daysToHorizon };
}

/**
 * Money the verified arm saved: its COD orders × the drop × the cost of one failed parcel, less what
 * its messages cost; with the same at the interval's ends. Null without the parcel's cost.
 */
export function moneySaved(input: { verifiedOrders: number; difference: Interval; failedParcelCost: number | null; messagesCost: number }): Interval | null {
  if (input.failedParcelCost == null || !Number.isFinite(input.difference.estimate)) return null;
  const at = (d: number) => input.verifiedOrders * d * input.failedParcelCost! - input.messagesCost;
  return { estimate: at(input.difference.estimate), lower: at(input.difference.lower), upper: at(input.difference.upper) };
}
