import { HOLDOUT_SHARE, MAX_EXPERIMENT_DAYS } from "./settings";

/**
 * Whether a share and a period can reach a result at the store's pace, said before the experiment starts
 * (the Settings card, as the merchant types): the orders a result needs at the chosen share (the
 * horizon, planned as startExperiment plans it), the days the store's COD orders of the last 90 days
 * take to get there, and a share and period that can, when the chosen ones cannot. Pure: runs in the browser.
 */
export type ExperimentPace = {
  /** COD orders placed in the last `paceDays` days. */
  codOrders: number;
  paceDays: number;
  /** The orders a result needs, by share held out (whole percent, HOLDOUT_SHARE.min..max). */
  horizons: Record<number, number>;
};

export type Reach =
  | { kind: "unknown" }
  | { kind: "reachable" | "too_short" | "never"; needed: number; daysNeeded: number | null; suggestion: { percent: number; days: number } | null };

/** Days for `needed` orders at `perDay`, or null when the pace is nil or it would take over MAX_EXPERIMENT_DAYS. */
function daysFor(needed: number, perDay: number): number | null {
  if (perDay <= 0) return null;
  const days = Math.ceil(needed / perDay);
  return days <= MAX_EXPERIMENT_DAYS ? days : null;
}

export function experimentReach(pace: ExperimentPace, percent: number, days: number | null): Reach {
  const needed = pace.horizons[percent];
  if (!Number.isInteger(percent) || needed === undefined) return { kind: "unknown" };
  const perDay = pace.codOrders / pace.paceDays;
  const daysNeeded = daysFor(needed, perDay);
  // The quickest share that gets there within the longest period, a week to spare rounded up.
  let suggestion: { percent: number; days: number } | null = null;
  for (let p = percent; p <= HOLDOUT_SHARE.max && !suggestion; p++) {
    const d = daysFor(pace.horizons[p], perDay);
    if (d !== null) suggestion = { percent: p, days: Math.min(MAX_EXPERIMENT_DAYS, Math.ceil(d / 7) * 7) };
  }
  if (daysNeeded === null) return { kind: "never", needed, daysNeeded, suggestion };
  if (days !== null && days < daysNeeded) return { kind: "too_short", needed, daysNeeded, suggestion: { percent, days: Math.min(MAX_EXPERIMENT_DAYS, Math.ceil(daysNeeded / 7) * 7) } };
  return { kind: "reachable", needed, daysNeeded, suggestion: null };
}

const int = (n: number) => n.toLocaleString("en");

/** The card's sentence for a reach. */
export function reachSentence(pace: ExperimentPace, percent: number, reach: Reach): string | null {
  if (reach.kind === "unknown") return null;
  const paceText = `${int(pace.codOrders)} COD order${pace.codOrders === 1 ? "" : "s"} in the last ${pace.paceDays} days`;
  const needs = `At ${percent} %, a result needs ${int(reach.needed)} delivered or failed COD orders`;
  if (reach.kind === "reachable") return `${needs}: about ${int(reach.daysNeeded!)} days at your pace (${paceText}).`;
  const suggest = reach.suggestion ? ` Choose ${reach.suggestion.percent} % for ${int(reach.suggestion.days)} days to reach one.` : ` No share from ${HOLDOUT_SHARE.min} to ${HOLDOUT_SHARE.max} % gets there within ${MAX_EXPERIMENT_DAYS} days at this pace: the report would show the difference so far, without a verdict.`;
  if (reach.kind === "too_short") return `${needs}: about ${int(reach.daysNeeded!)} days at your pace (${paceText}), longer than the period chosen.${suggest}`;
  return `${needs}: more than ${MAX_EXPERIMENT_DAYS} days at your pace (${paceText}).${suggest}`;
}
