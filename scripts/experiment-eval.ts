// `npm run experiment:eval`: proves the holdout experiment's estimator (app/experiment/stats.ts) on
// simulated shops with a planted effect. The shoppers follow the risk generator's mix (scripts/risk-eval.ts:
// good repeat buyers, repeat refusers, one-time buyers and bursts of new numbers, with their failure
// rates), so one shopper's repeat orders share their fate, as in a real shop. Each shopper is assigned
// to an arm once (the held-out share), every order of a held-out shopper fails at the kind's rate
// without verification, every verified shopper's at the rate with it.
//   - coverage: how often the 95 % interval holds the planted difference (must be 93-97 %);
//   - no effect: how often an experiment with no planted effect is called significant (must be ≤ 5 %);
//   - power: how often a real 10-point drop is found at 500, 1,000 and 5,000 orders.
// Each rate is printed with its Monte Carlo margin (95 %, ±1.96·√(r(1−r)/runs)): over 1,000 runs a
// perfectly calibrated 95 % interval is called significant 5.0 % ± 1.4 % of the time, so a bound fails
// only when the whole margin is past it (more --runs narrow it). Exits 1 when a bound fails.
// The generator's histories are a shop's whole past, where a regular orders about 11 times; within an
// experiment's weeks a regular orders fewer times, so the bounds are checked at one regular per
// --orders-per-regular orders (5: about 2.75 orders each), and the generator's own density (20) is
// printed as a stress line, not a bound.
//   npm run experiment:eval [-- --seed 1 --runs 1000 --share 0.1 --orders-per-regular 5]
import { parseArgs } from "node:util";
import { readExperiment, type ShopperCounts } from "../app/experiment/stats";
import { seededRandom } from "../app/risk/replay-report";
import { FAIL_RATE, type ShopperKind as Kind } from "./lib/simulated-shoppers";

const { values } = parseArgs({
  options: {
    seed: { type: "string", default: "1" },
    runs: { type: "string", default: "1000" },
    share: { type: "string", default: "0.1" },
    "orders-per-regular": { type: "string", default: "5" },
  },
});
const RUNS = Number(values.runs);
const SHARE = Number(values.share);

type Rates = Record<Kind, number>;
/** The risk generator's failure rates, as held-out (unverified) shoppers fail. */
const UNVERIFIED: Rates = FAIL_RATE;
/** The generator's order mix: 55 % from regulars (85 % good, 15 % refusers), 38 % one-time, 7 % bursts. */
const MIX: Rates = { good_repeat: 0.55 * 0.85, refuser: 0.55 * 0.15, one_time: 0.38, burst: 0.07 };
/** The generator's density: one regular per 20 orders (150 for 3,000). */
const GENERATOR_ORDERS_PER_REGULAR = 20;

/** The order-level failure rate of an arm whose shoppers fail at `rates`: Σ mix × rate. */
function armRate(rates: Rates): number {
  return (Object.keys(MIX) as Kind[]).reduce((sum, k) => sum + MIX[k] * rates[k], 0);
}

const scenarios = {
  /** Verification stops most refusers and fake numbers, and a few of everyone else. */
  planted: { good_repeat: 0.03, refuser: 0.35, one_time: 0.08, burst: 0.15 } satisfies Rates,
  none: UNVERIFIED,
  /** Every kind's rate cut by the same factor, so the drop is exactly 10 points. */
  tenPoints: Object.fromEntries(Object.entries(UNVERIFIED).map(([k, r]) => [k, r * (1 - 0.1 / armRate(UNVERIFIED))])) as Rates,
};

/** One simulated experiment of `orders` resolved COD orders: each arm's shoppers with their orders and failures. */
function simulate(rand: () => number, orders: number, verifiedRates: Rates, ordersPerRegular: number) {
  const arms = { holdout: new Map<number, ShopperCounts>(), verified: new Map<number, ShopperCounts>() };
  type Shopper = { id: number; kind: Kind; heldOut: boolean };
  let next = 0;
  const shopper = (kind: Kind): Shopper => ({ id: next++, kind, heldOut: rand() < SHARE });
  const regulars = Array.from({ length: Math.max(1, Math.round(orders / ordersPerRegular)) }, () => shopper(rand() < 0.85 ? "good_repeat" : "refuser"));
  for (let i = 0; i < orders; i++) {
    const r = rand();
    const s = r < 0.55 ? regulars[Math.floor(rand() * regulars.length)] : shopper(r < 0.93 ? "one_time" : "burst");
    const rate = s.heldOut ? UNVERIFIED[s.kind] : verifiedRates[s.kind];
    const arm = s.heldOut ? arms.holdout : arms.verified;
    const counts = arm.get(s.id) ?? { orders: 0, failed: 0 };
    counts.orders++;
    if (rand() < rate) counts.failed++;
    arm.set(s.id, counts);
  }
  return { holdout: [...arms.holdout.values()], verified: [...arms.verified.values()] };
}

/** Runs `RUNS` experiments: how often the interval holds `truth`, and how often it excludes zero (a finding). */
function trial(seed: number, orders: number, verifiedRates: Rates, ordersPerRegular = Number(values["orders-per-regular"])) {
  const rand = seededRandom(seed);
  const truth = armRate(UNVERIFIED) - armRate(verifiedRates);
  let covered = 0;
  let coveredNaive = 0;
  let significant = 0;
  for (let run = 0; run < RUNS; run++) {
    const arms = simulate(rand, orders, verifiedRates, ordersPerRegular);
    const reading = readExperiment({ ...arms, horizon: orders, resolvedPerDay: null });
    if (reading.difference.lower <= truth && truth <= reading.difference.upper) covered++;
    if (reading.difference.lower > 0 || reading.difference.upper < 0) significant++;
    // The same interval on orders as if each were its own shopper (no design effect), to show why it is there.
    const naive = readExperiment({
      holdout: arms.holdout.flatMap((s) => Array.from({ length: s.orders }, (_, i) => ({ orders: 1, failed: i < s.failed ? 1 : 0 }))),
      verified: arms.verified.flatMap((s) => Array.from({ length: s.orders }, (_, i) => ({ orders: 1, failed: i < s.failed ? 1 : 0 }))),
      horizon: orders,
      resolvedPerDay: null,
    });
    if (naive.difference.lower <= truth && truth <= naive.difference.upper) coveredNaive++;
  }
  return { truth, coverage: covered / RUNS, coverageNaive: coveredNaive / RUNS, significant: significant / RUNS };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
/** The Monte Carlo margin of a rate measured over RUNS experiments. */
const margin = (r: number) => 1.96 * Math.sqrt((r * (1 - r)) / RUNS);
const withMargin = (r: number) => `${pct(r)} ± ${(margin(r) * 100).toFixed(1)}`;
const seed = Number(values.seed);
console.log(`Holdout estimator on simulated shops: ${RUNS} experiments per line, ${pct(SHARE)} held out, seed ${seed},`);
console.log(`one regular per ${values["orders-per-regular"]} orders. Held-out failure rate planted: ${pct(armRate(UNVERIFIED))}\n`);

let failed = false;
console.log("Coverage of the 95 % interval (bound: 93-97 %)");
console.log("orders   planted drop   covered          covered without the design effect");
for (const orders of [1_000, 5_000]) {
  const t = trial(seed + orders, orders, scenarios.planted);
  const ok = t.coverage + margin(t.coverage) >= 0.93 && t.coverage - margin(t.coverage) <= 0.97;
  failed ||= !ok;
  console.log(`${String(orders).padStart(6)}   ${pct(t.truth).padStart(12)}   ${withMargin(t.coverage).padEnd(15)}  ${pct(t.coverageNaive)}${ok ? "" : "   OUT OF BOUNDS"}`);
}

console.log("\nNo planted effect: called significant either way (bound: ≤ 5 %)");
for (const orders of [1_000, 5_000]) {
  const t = trial(seed + 7 * orders, orders, scenarios.none);
  const ok = t.significant - margin(t.significant) <= 0.05;
  failed ||= !ok;
  console.log(`${String(orders).padStart(6)} orders: ${withMargin(t.significant)}${ok ? "" : "   OUT OF BOUNDS"}`);
}

console.log("\nPower: a real 10-point drop found (interval above zero)");
for (const orders of [500, 1_000, 5_000]) {
  const t = trial(seed + 13 * orders, orders, scenarios.tenPoints);
  console.log(`${String(orders).padStart(6)} orders: ${withMargin(t.significant).padEnd(15)}  (interval held the drop ${pct(t.coverage)})`);
}

console.log(`\nStress, not a bound: the generator's own density (one regular per ${GENERATOR_ORDERS_PER_REGULAR} orders, about 11 orders each)`);
for (const orders of [1_000, 5_000]) {
  const c = trial(seed + 17 * orders, orders, scenarios.planted, GENERATOR_ORDERS_PER_REGULAR);
  const n = trial(seed + 19 * orders, orders, scenarios.none, GENERATOR_ORDERS_PER_REGULAR);
  console.log(`${String(orders).padStart(6)} orders: covered ${withMargin(c.coverage)} (${pct(c.coverageNaive)} without the design effect), no effect called significant ${withMargin(n.significant)}`);
}

if (failed) {
  console.error("\nexperiment:eval: the estimator is out of bounds");
  process.exit(1);
}
