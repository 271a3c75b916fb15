import type { ReplayResult } from "./replay";

/**
 * What a replay's decisions would have done (docs/risk.md, "Replaying a history"): precision and recall
 * of the orders refused or priced, the share acted on (Wilson intervals), and the money (bootstrap
 * intervals over the orders). Pure and seeded: the same results print the same report.
 */

/** How shoppers answer what the shop asks; assumptions, printed with the report and settable. */
export type MoneyAssumptions = {
  /** The merchant's cost of one failed COD parcel (shipping both ways, packing). */
  failureCost: number;
  /** What a delivered order earns the shop, as a share of its value. */
  margin: number;
  /** An order's value when the line has none. */
  defaultValue: number;
  /** Share of good shoppers refused COD who pay in advance instead (the rest leave). */
  goodPrepaidWhenRefused: number;
  /** Share of good shoppers asked a deposit who pay it (the rest leave). */
  goodPayDeposit: number;
  /** Share of shoppers who would have refused the parcel who pay a deposit anyway (the shop keeps it when they refuse). */
  badPayDeposit: number;
};

export const DEFAULT_ASSUMPTIONS: MoneyAssumptions = { failureCost: 150, margin: 0.25, defaultValue: 1000, goodPrepaidWhenRefused: 0.3, goodPayDeposit: 0.85, badPayDeposit: 0.3 };

export type Interval = { estimate: number; lower: number; upper: number };
export type ReplayReport = {
  orders: number;
  failed: number;
  refused: number;
  priced: number;
  share: Interval;
  precision: Interval;
  recall: Interval;
  money: { failuresAvoided: Interval; depositsTaken: Interval; goodOrdersLost: Interval; net: Interval };
};

/** Wilson score interval (95 %) of k successes in n. */
export function wilson(k: number, n: number, z = 1.96): Interval {
  if (n === 0) return { estimate: 0, lower: 0, upper: 0 };
  const p = k / n;
  const d = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / d;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return { estimate: p, lower: Math.max(0, centre - half), upper: Math.min(1, centre + half) };
}

type Money = { avoided: number; deposits: number; lost: number };

/** One order's expected money under the assumptions (nothing for an order left alone). */
export function orderMoney(r: ReplayResult, m: MoneyAssumptions): Money {
  if (r.failed === null || (r.action !== "refuse" && r.action !== "price")) return { avoided: 0, deposits: 0, lost: 0 };
  const margin = m.margin * (r.value ?? m.defaultValue);
  if (r.action === "refuse") return r.failed ? { avoided: m.failureCost, deposits: 0, lost: 0 } : { avoided: 0, deposits: 0, lost: margin * (1 - m.goodPrepaidWhenRefused) };
  const deposit = r.deposit ?? 0;
  // A shopper who would refuse either leaves (no parcel sent) or pays and refuses (the deposit covers part of the loss).
  if (r.failed) return { avoided: m.failureCost * (1 - m.badPayDeposit) + m.badPayDeposit * Math.min(deposit, m.failureCost), deposits: m.badPayDeposit * deposit, lost: 0 };
  return { avoided: 0, deposits: m.goodPayDeposit * deposit, lost: margin * (1 - m.goodPayDeposit) };
}

/** mulberry32: a seeded PRNG, so a report's intervals and a simulated run (scripts/risk-eval.ts, experiment-eval.ts) are reproducible. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Percentile bootstrap (95 %, 400 resamples) of sums over the orders. */
function bootstrapSums(rows: number[][], resamples = 400, seed = 1): Interval[] {
  const width = rows[0]?.length ?? 0;
  const estimate = Array.from({ length: width }, (_, j) => rows.reduce((s, r) => s + r[j], 0));
  if (!rows.length) return estimate.map(() => ({ estimate: 0, lower: 0, upper: 0 }));
  const rand = seededRandom(seed);
  const draws: number[][] = Array.from({ length: width }, () => []);
  for (let b = 0; b < resamples; b++) {
    const sums = Array<number>(width).fill(0);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[Math.floor(rand() * rows.length)];
      for (let j = 0; j < width; j++) sums[j] += r[j];
    }
    sums.forEach((s, j) => draws[j].push(s));
  }
  return estimate.map((e, j) => {
    const sorted = draws[j].sort((x, y) => x - y);
    return { estimate: e, lower: sorted[Math.floor(0.025 * resamples)], upper: sorted[Math.ceil(0.975 * resamples) - 1] };
  });
}

/** The report over the orders whose outcome is known. */
export function replayReport(all: ReplayResult[], m: MoneyAssumptions = DEFAULT_ASSUMPTIONS): ReplayReport {
  const known = all.filter((r) => r.failed !== null);
  const acted = (r: ReplayResult) => r.action === "refuse" || r.action === "price";
  const failed = known.filter((r) => r.failed).length;
  const hits = known.filter((r) => acted(r) && r.failed).length;
  const actedCount = known.filter(acted).length;
  const rows = known.map((r) => {
    const x = orderMoney(r, m);
    return [x.avoided, x.deposits, x.lost, x.avoided - x.lost];
  });
  const [failuresAvoided, depositsTaken, goodOrdersLost, net] = bootstrapSums(rows);
  return {
    orders: known.length,
    failed,
    refused: known.filter((r) => r.action === "refuse").length,
    priced: known.filter((r) => r.action === "price").length,
    share: wilson(actedCount, known.length),
    precision: wilson(hits, actedCount),
    recall: wilson(hits, failed),
    money: { failuresAvoided, depositsTaken, goodOrdersLost, net },
  };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const money = (x: number) => Math.round(x).toLocaleString("en");
export const formatShare = (i: Interval) => `${pct(i.estimate)} (${pct(i.lower)}-${pct(i.upper)})`;
export const formatMoney = (i: Interval) => `${money(i.estimate)} (${money(i.lower)} to ${money(i.upper)})`;

/** The report as lines of text (the replay's and the evaluation's output). */
export function formatReport(r: ReplayReport): string[] {
  return [
    `${r.orders} orders with a known outcome, ${r.failed} failed (${pct(r.failed / (r.orders || 1))})`,
    `refused ${r.refused}, priced ${r.priced}: share ${formatShare(r.share)}`,
    `precision ${formatShare(r.precision)}, recall ${formatShare(r.recall)}`,
    `failed parcels avoided ${formatMoney(r.money.failuresAvoided)}; deposits taken ${formatMoney(r.money.depositsTaken)}; good orders lost ${formatMoney(r.money.goodOrdersLost)}; net ${formatMoney(r.money.net)}`,
  ];
}
