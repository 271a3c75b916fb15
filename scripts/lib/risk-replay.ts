// The replay's command line, shared by `npm run risk:replay` (a shop's own JSONL) and `npm run risk:eval`
// (the generator's histories): the same replay (app/risk/replay.ts), the same report.
import type { BandAction, PricingSettings } from "../../app/risk/pricing";
import { redecide, replay, replayShop, type ReplayOrder, type ReplayResult } from "../../app/risk/replay";
import { DEFAULT_ASSUMPTIONS, formatMoney, formatShare, replayReport, type MoneyAssumptions } from "../../app/risk/replay-report";
import type { CalibrationBand } from "../../app/risk/calibration";
import { BEHAVIOUR_REASON_FIELDS, type BehaviourReason } from "../../app/risk/score";

export type ReplayFlags = {
  mediumThreshold: number;
  highThreshold: number;
  medium: BandAction;
  high: BandAction;
  depositMin: number | null;
  depositMax: number | null;
  timeZone: string;
  learnAfterDays: number;
  withoutBehaviour: boolean;
  /** Leave out these behaviour reasons' readings only (the evaluation's "what each adds"). */
  withoutReasons?: readonly BehaviourReason[];
  priorOnly?: boolean;
  money: MoneyAssumptions;
};

export const DEFAULT_FLAGS: ReplayFlags = { mediumThreshold: 20, highThreshold: 60, medium: "none", high: "refuse", depositMin: null, depositMax: null, timeZone: "UTC", learnAfterDays: 7, withoutBehaviour: false, money: DEFAULT_ASSUMPTIONS };

export function runReplay(orders: ReplayOrder[], f: ReplayFlags): { results: ReplayResult[]; calibration: CalibrationBand[] } {
  const pricing: PricingSettings = { mediumAction: f.medium, highAction: f.high, failureCost: f.money.failureCost, depositMin: f.depositMin, depositMax: f.depositMax };
  return replay(orders, { shop: replayShop(f.mediumThreshold, f.highThreshold), pricing, timeZone: f.timeZone, learnAfterDays: f.learnAfterDays, withoutBehaviour: f.withoutBehaviour, withoutReasons: f.withoutReasons, priorOnly: f.priorOnly });
}

/** Predicted against observed failure rate per score band, as the Risk page shows it. */
export function calibrationLines(bands: CalibrationBand[]): string[] {
  return bands.filter((b) => b.orders > 0).map((b) => `  score ${String(b.from).padStart(2)}-${String(b.to).padEnd(3)} ${String(b.orders).padStart(6)} orders  observed ${pct(b.observed ?? 0).padStart(6)}  predicted ${pct(b.predicted).padStart(6)}`);
}

/**
 * Acting from each score (the high band's threshold) by refusing or by pricing: share, precision, recall
 * and net money of each, so a merchant sees where pricing pays against refusing.
 */
export function policyLines(shops: ReplayOrder[][], f: ReplayFlags, thresholds = [20, 30, 40, 50, 60, 70, 80]): string[] {
  const replayed = shops.flatMap((orders) => runReplay(orders, f).results);
  const all = (g: ReplayFlags) => redecide(replayed, g, { mediumAction: g.medium, highAction: g.high, failureCost: g.money.failureCost, depositMin: g.depositMin, depositMax: g.depositMax });
  const lines = [`  acting from score | share acted        | precision            | recall               | net if refused              | net if priced`];
  for (const t of thresholds) {
    const base = { ...f, mediumThreshold: Math.min(f.mediumThreshold, t), highThreshold: t, medium: "none" as const };
    const refused = replayReport(all({ ...base, high: "refuse" }), f.money);
    const priced = replayReport(all({ ...base, high: "price" }), f.money);
    lines.push(`  ${String(t).padStart(17)} | ${formatShare(priced.share).padEnd(18)} | ${formatShare(priced.precision).padEnd(20)} | ${formatShare(priced.recall).padEnd(20)} | ${formatMoney(refused.money.net).padEnd(27)} | ${formatMoney(priced.money.net)}`);
  }
  return lines;
}

/**
 * What each behaviour reason adds under the flags' actions: the orders it fires on, then share acted on,
 * precision, recall and net money with every behaviour reading, and without this reason's alone (the reading
 * never measured, the modal's cap then left to the others), with the difference.
 */
export function reasonLines(shops: ReplayOrder[][], f: ReplayFlags): string[] {
  const run = (g: ReplayFlags) => replayReport(shops.flatMap((orders) => runReplay(orders, g).results), g.money);
  const withAll = shops.flatMap((orders) => runReplay(orders, f).results);
  const all = replayReport(withAll, f.money);
  const signed = (x: number, digits = 1) => `${x >= 0 ? "+" : ""}${x.toFixed(digits)}`;
  const lines = [
    `  every reading: share ${pct(all.share.estimate)}, precision ${pct(all.precision.estimate)}, recall ${pct(all.recall.estimate)}, net ${formatMoney(all.money.net)}`,
    `  reason                    | fires on | failed among | without it: share, precision, recall, net              | it adds: recall, precision, net`,
  ];
  for (const reason of Object.keys(BEHAVIOUR_REASON_FIELDS) as BehaviourReason[]) {
    const firing = withAll.filter((r) => r.reasons.includes(reason));
    const without = run({ ...f, withoutReasons: [reason] });
    const failedAmong = firing.filter((r) => r.failed === true).length / (firing.filter((r) => r.failed !== null).length || 1);
    lines.push(
      `  ${reason.padEnd(25)} | ${pct(firing.length / (withAll.length || 1)).padStart(8)} | ${pct(failedAmong).padStart(12)} | ` +
        `${`${pct(without.share.estimate)}, ${pct(without.precision.estimate)}, ${pct(without.recall.estimate)}, ${formatMoney(without.money.net)}`.padEnd(54)} | ` +
        `${signed(100 * (all.recall.estimate - without.recall.estimate))} pts, ${signed(100 * (all.precision.estimate - without.precision.estimate))} pts, ${signed(all.money.net.estimate - without.money.net.estimate, 0)}`,
    );
  }
  return lines;
}

function pct(x: number) {
  return `${(100 * x).toFixed(1)}%`;
}

/** Reads the flags both scripts take (parseArgs values, as strings). */
export function flagsOf(v: Record<string, string | boolean | undefined>): ReplayFlags {
  const num = (k: string, d: number) => (typeof v[k] === "string" ? Number(v[k]) : d);
  const opt = (k: string) => (typeof v[k] === "string" ? Number(v[k]) : null);
  const action = (k: string, d: BandAction): BandAction => {
    const a = v[k];
    if (a === undefined) return d;
    if (a === "none" || a === "confirm" || a === "price" || a === "refuse") return a;
    throw new Error(`--${k} must be none, confirm, price or refuse`);
  };
  const m = DEFAULT_ASSUMPTIONS;
  return {
    mediumThreshold: num("medium-threshold", 20),
    highThreshold: num("high-threshold", 60),
    medium: action("medium", "none"),
    high: action("high", "refuse"),
    depositMin: opt("deposit-min"),
    depositMax: opt("deposit-max"),
    timeZone: typeof v["time-zone"] === "string" ? v["time-zone"] : "UTC",
    learnAfterDays: num("learn-after-days", 7),
    withoutBehaviour: v["without-behaviour"] === true,
    money: {
      failureCost: num("failure-cost", m.failureCost),
      margin: num("margin", m.margin),
      defaultValue: num("default-value", m.defaultValue),
      goodPrepaidWhenRefused: num("good-prepaid", m.goodPrepaidWhenRefused),
      goodPayDeposit: num("good-pay-deposit", m.goodPayDeposit),
      badPayDeposit: num("bad-pay-deposit", m.badPayDeposit),
    },
  };
}

export const FLAG_OPTIONS = Object.fromEntries(
  ["medium-threshold", "high-threshold", "medium", "high", "deposit-min", "deposit-max", "time-zone", "learn-after-days", "failure-cost", "margin", "default-value", "good-prepaid", "good-pay-deposit", "bad-pay-deposit"].map((k) => [k, { type: "string" as const }]),
) as Record<string, { type: "string" }>;
