// `npm run risk:eval`: how well the risk score catches failed COD orders, and what refusing or pricing
// them would earn, measured on synthetic shop histories with known ground truth (no public labelled RTO
// data exists). Each history mixes good repeat buyers, repeat refusers, one-time buyers, bursts from one
// IP and bad postal areas, with the modal's behaviour fields drawn per kind of shopper (assumptions, not
// data: a refuser tries other numbers, asks codes it never types, rushes or lingers more often than a
// good buyer). The histories are written as risk:replay's JSONL records and replayed by the same code
// (app/risk/replay.ts, which scores with the app's own functions): the score without behaviour and with
// the app's prior ("today"), then the full score with each shop's calibration.
// Griefing: strangers also place COD orders with a regular's number, never confirm them (they are
// cancelled: failed) and ask four codes for it. The app counts only history the phone proved and
// ignores others' codes once the number is proven; the run also scores the griefed regulars' honest
// orders as if those orders and codes counted (the rule before), to show what that costs them.
//   npm run risk:eval [-- --seed 1 --shops 5 --orders 3000] [--write shop0.jsonl (the first shop's history,
//   for risk:replay)] [risk:replay's flags]
import fs from "node:fs";
import { parseArgs } from "node:util";
import { scoreRisk, type RiskFacts, type RiskSettings } from "../app/risk/score";
import { redecide, type ReplayOrder } from "../app/risk/replay";
import { formatReport, replayReport, seededRandom } from "../app/risk/replay-report";
import { calibrationLines, FLAG_OPTIONS, flagsOf, policyLines, reasonLines, runReplay, type ReplayFlags } from "./lib/risk-replay";
import { FAIL_RATE, type ShopperKind as Kind } from "./lib/simulated-shoppers";

const { values } = parseArgs({ options: { seed: { type: "string", default: "1" }, shops: { type: "string", default: "5" }, orders: { type: "string", default: "3000" }, write: { type: "string" }, ...FLAG_OPTIONS } });

type Shopper = { kind: Kind; phone: string; ip: string; zip: string; weakAddress: boolean; usual: number };
/** Share of order slots in which a stranger griefs a regular's number (one unconfirmed order, four codes). */
const GRIEF_RATE = 0.03;
const SETTINGS: RiskSettings = { mediumThreshold: 20, highThreshold: 60, deniedPostalCodes: [], prepaidPhones: [], codValueCap: null };
const GOOD = { address1: "Flat 12, Shanti Apartments, MG Road", address2: "Near City Mall", city: "Mumbai", province: "Maharashtra", country_code: "IN" };
const WEAK = { address1: "home", address2: null, city: "", province: null, country_code: "IN" };

/**
 * The chance a kind of shopper shows each behaviour in the modal (assumptions): other numbers tried from
 * the browser, the code asked within 5 s of opening the form, typed after 3 minutes, codes asked and
 * never typed; and a cart 4 times the shopper's usual.
 */
const BEHAVIOUR: Record<Kind, { numbers: number; rushed: number; slow: number; abandoned: number; bigCart: number }> = {
  good_repeat: { numbers: 0.01, rushed: 0.05, slow: 0.03, abandoned: 0.02, bigCart: 0.02 },
  one_time: { numbers: 0.04, rushed: 0.08, slow: 0.06, abandoned: 0.05, bigCart: 0.05 },
  refuser: { numbers: 0.2, rushed: 0.25, slow: 0.2, abandoned: 0.25, bigCart: 0.25 },
  burst: { numbers: 0.5, rushed: 0.5, slow: 0.1, abandoned: 0.3, bigCart: 0.2 },
};
const START = Date.parse("2026-09-01T00:00:00Z");
/**
 * The shop's clock (assumptions): its orders come between 06:00 and 23:59 of its day, 144 a day; an order
 * placed at night (00:00-05:59) is one a refuser or a burst makes 12 % of the time, anyone else 1 %.
 */
const NIGHT: Record<Kind, number> = { good_repeat: 0.01, one_time: 0.01, refuser: 0.12, burst: 0.12 };
const DAY_MS = 86_400_000;
function orderTime(t: number, kind: Kind, draw: () => number): Date {
  const day = Math.floor(t / DAY_MS) * DAY_MS;
  if (draw() < NIGHT[kind]) return new Date(START + day + Math.floor(draw() * 6 * 3_600_000));
  return new Date(START + day + 6 * 3_600_000 + Math.floor(((t - day) * 18) / 24));
}

function simulate(seed: number, orderCount: number) {
  const rand = seededRandom(seed);
  // Behaviour and values draw from their own sequence, so the shop's orders are those of the runs before them.
  const more = seededRandom(seed ^ 0x9e3779b9);
  const pick = <T,>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const zips = Array.from({ length: 40 }, (_, i) => String(400001 + i));
  const badZips = new Set(zips.slice(0, 4));
  let n = 0;
  const newShopper = (kind: Kind, ip?: string): Shopper => ({
    kind,
    phone: `+9198${String(10_000_000 + n++).padStart(8, "0")}`,
    ip: ip ?? `10.${Math.floor(rand() * 250)}.${Math.floor(rand() * 250)}.${Math.floor(rand() * 250)}`,
    zip: pick(zips),
    weakAddress: rand() < (kind === "good_repeat" ? 0.03 : kind === "one_time" ? 0.1 : 0.35),
    usual: 400 + Math.round(more() * 2600),
  });
  const records: ReplayOrder[] = [];
  const regulars = Array.from({ length: 150 }, () => newShopper(rand() < 0.85 ? "good_repeat" : "refuser"));
  const history = new Map<string, { good: number; bad: number }>();
  const postal = new Map<string, { orders: number; failed: number }>();
  const ipTimes = new Map<string, number[]>();
  let shopOrders = 0;
  let shopFailed = 0;
  const results: { failed: boolean; band: string; kind: Kind; returning: boolean; griefed?: { oldBand: string } }[] = [];
  // The strangers draw from their own sequence, so the shop's own orders are the same with or without them.
  const griefRand = seededRandom(seed ^ 0x5bd1e995);
  // And the hours of day from theirs.
  const clockRand = seededRandom(seed ^ 0x27d4eb2d);
  const griefs = new Map<string, { orders: number; codesAt: number[] }>();
  for (let i = 0; i < orderCount; i++) {
    const t = i * 600_000; // an order every 10 minutes
    if (griefRand() < GRIEF_RATE) {
      const victim = regulars[Math.floor(griefRand() * regulars.length)];
      const g = griefs.get(victim.phone) ?? { orders: 0, codesAt: [] };
      griefs.set(victim.phone, { orders: g.orders + 1, codesAt: [...g.codesAt, t, t, t, t] });
    }
    const r = rand();
    let s: Shopper;
    if (r < 0.55) s = pick(regulars);
    else if (r < 0.93) s = newShopper("one_time");
    else {
      // A burst: five new numbers from one IP within the hour.
      const ip = `172.16.0.${Math.floor(rand() * 250)}`;
      s = newShopper("burst", ip);
      for (let k = 0; k < 4; k++) (ipTimes.get(ip) ?? ipTimes.set(ip, []).get(ip)!).push(t - k * 60_000);
    }
    const failedTruth = rand() < Math.min(0.95, FAIL_RATE[s.kind] + (badZips.has(s.zip) ? 0.3 : 0));
    const b = BEHAVIOUR[s.kind];
    const placedAt = orderTime(t, s.kind, clockRand);
    records.push({
      id: String(i + 1),
      placedAt,
      phone: s.phone,
      verified: true,
      address: { ...(s.weakAddress ? WEAK : GOOD), zip: s.zip },
      value: Math.round(s.usual * (more() < b.bigCart ? 4 : 0.7 + 0.6 * more())),
      ip: s.ip,
      attemptsFromIp: s.kind === "burst" ? 4 : 0,
      behaviour: {
        codesAsked: 1,
        numbersTried: more() < b.numbers ? 2 + Math.floor(more() * 2) : 0,
        msToRequest: more() < b.rushed ? 1_000 + more() * 3_000 : 8_000 + more() * 60_000,
        msToType: more() < b.slow ? 200_000 + more() * 300_000 : 10_000 + more() * 50_000,
        codesAbandoned: more() < b.abandoned ? 2 + Math.floor(more() * 2) : 0,
      },
      outcome: failedTruth ? "failed" : "delivered",
      outcomeAt: new Date(placedAt.getTime() + 60_000), // learnt before the next order, as the runs before assumed
    });
    const h = history.get(s.phone);
    const p = postal.get(s.zip) ?? { orders: 0, failed: 0 };
    const times = (ipTimes.get(s.ip) ?? []).filter((x) => x > t - 86_400_000);
    const facts: RiskFacts = {
      phone: s.phone,
      otpVerified: true, // everyone verifies in both arms: the score is about refusers who own their phone
      history: { verifiedBefore: !!h, goodOrders: h?.good ?? 0, badOrders: h?.bad ?? 0 },
      address: { ...(s.weakAddress ? WEAK : GOOD), zip: s.zip },
      orderValue: null,
      usualValueP90: null,
      postalHistory: { ...p, shopOrders, shopFailed },
      velocity: { codesForPhone: 1, requestsFromIp: times.length + 1 },
    };
    const { band } = scoreRisk(facts, SETTINGS);
    const g = griefs.get(s.phone);
    // The rule before: the strangers' unconfirmed orders were the phone's failures, and every code asked
    // for it in 24 hours counted (as for a number not proven yet: otpVerified null adds nothing else here).
    const oldBand = g
      ? scoreRisk(
          {
            ...facts,
            otpVerified: null,
            history: { ...facts.history!, verifiedBefore: true, badOrders: facts.history!.badOrders + g.orders },
            velocity: { ...facts.velocity, codesForPhone: 1 + g.codesAt.filter((x) => x > t - 86_400_000).length },
          },
          SETTINGS,
        ).band
      : null;
    results.push({ failed: failedTruth, band, kind: s.kind, returning: !!h, ...(oldBand ? { griefed: { oldBand } } : {}) });
    // The outcome is learnt (orders/cancelled or orders/fulfilled) before the next order.
    history.set(s.phone, { good: (h?.good ?? 0) + (failedTruth ? 0 : 1), bad: (h?.bad ?? 0) + (failedTruth ? 1 : 0) });
    postal.set(s.zip, { orders: p.orders + 1, failed: p.failed + (failedTruth ? 1 : 0) });
    (ipTimes.get(s.ip) ?? ipTimes.set(s.ip, []).get(s.ip)!).push(t);
    shopOrders++;
    if (failedTruth) shopFailed++;
  }
  return { results, records };
}

const flags: ReplayFlags = flagsOf(values);
const rows = [];
const shops: ReplayOrder[][] = [];
const total = { goodReturning: 0, goodReturningLow: 0, griefedGood: 0, griefedGoodHigh: 0, griefedGoodHighBefore: 0 };
for (let shop = 0; shop < Number(values.shops); shop++) {
  const { results, records } = simulate(Number(values.seed) * 1000 + shop, Number(values.orders));
  shops.push(records);
  const goodReturning = results.filter((r) => r.kind === "good_repeat" && r.returning);
  const low = goodReturning.filter((r) => r.band === "low").length;
  // Honest orders (delivered) of regulars a stranger griefed: refused COD now, and under the rule before.
  const griefedGood = results.filter((r) => r.griefed && !r.failed);
  total.griefedGood += griefedGood.length;
  total.griefedGoodHigh += griefedGood.filter((r) => r.band === "high").length;
  total.griefedGoodHighBefore += griefedGood.filter((r) => r.griefed!.oldBand === "high").length;
  total.goodReturning += goodReturning.length;
  total.goodReturningLow += low;
  const today = replayReport(runReplay(records, { ...flags, withoutBehaviour: true, priorOnly: true, medium: "none", high: "refuse" }).results, flags.money);
  rows.push({ shop, orders: today.orders, failedRate: pct(today.failed / today.orders), highShare: pct(today.share.estimate), precision: pct(today.precision.estimate), recall: pct(today.recall.estimate), goodReturningSkip: pct(low / (goodReturning.length || 1)) });
}
function pct(x: number) {
  return `${(100 * x).toFixed(1)}%`;
}
if (values.write) fs.writeFileSync(values.write, shops[0].map((o) => JSON.stringify(o)).join("\n") + "\n");
const replayAll = (f: ReplayFlags) => {
  const runs = shops.map((records) => runReplay(records, f));
  return { results: runs.flatMap((r) => r.results), calibration: runs.map((r) => r.calibration) };
};
console.log(`risk:eval seed ${values.seed}: ${values.shops} synthetic shops x ${values.orders} COD orders; failed parcel ${flags.money.failureCost}, margin ${pct(flags.money.margin)}`);
console.log("today's score (no behaviour, the app's prior), high band (from 60) refuses COD, per shop:");
console.table(rows);
const sections: [string, ReplayFlags][] = [
  ["today: no behaviour, high refuses", { ...flags, withoutBehaviour: true, priorOnly: true, medium: "none", high: "refuse" }],
  ["with behaviour, high refuses", { ...flags, medium: "none", high: "refuse" }],
  ["with behaviour, high priced", { ...flags, medium: "none", high: "price" }],
  ["with behaviour, medium and high priced", { ...flags, medium: "price", high: "price" }],
  [`as flagged: medium ${flags.medium}, high ${flags.high}`, flags],
];
for (const [title, f] of sections) {
  console.log(`${title}:`);
  for (const line of formatReport(replayReport(replayAll(f).results, f.money))) console.log(`  ${line}`);
}
const fullRun = replayAll(flags);
// At today's share acted on: the threshold of the score with behaviour whose share comes nearest, and
// the most any score could catch at that share (every order acted on a failed one).
const todayReport = replayReport(replayAll(sections[0][1]).results, flags.money);
const pricing = { mediumAction: "none", highAction: "refuse", failureCost: flags.money.failureCost, depositMin: null, depositMax: null } as const;
const atShare = Array.from({ length: 81 }, (_, k) => 20 + k)
  .map((t) => ({ t, r: replayReport(redecide(fullRun.results, { mediumThreshold: Math.min(20, t), highThreshold: t }, pricing), flags.money) }))
  .sort((a, b) => Math.abs(a.r.share.estimate - todayReport.share.estimate) - Math.abs(b.r.share.estimate - todayReport.share.estimate))[0];
console.log(
  `at today's share (${pct(todayReport.share.estimate)}): with behaviour from score ${atShare.t}, share ${pct(atShare.r.share.estimate)}, precision ${pct(atShare.r.precision.estimate)} ` +
    `(today ${pct(todayReport.precision.estimate)}), recall ${pct(atShare.r.recall.estimate)} (today ${pct(todayReport.recall.estimate)}); ` +
    `no score can catch more than ${pct(todayReport.share.estimate / (todayReport.failed / todayReport.orders))} of failures acting on that share`,
);
for (const [title, f] of [sections[2], sections[3]]) {
  console.log(`what each behaviour reason adds (${title}):`);
  for (const line of reasonLines(shops, f)) console.log(line);
}
console.log("calibration learnt by shop 0 (predicted against observed, by score):");
for (const line of calibrationLines(fullRun.calibration[0])) console.log(line);
console.log("today's score, refusing or pricing from each score:");
for (const line of policyLines(shops, { ...flags, withoutBehaviour: true })) console.log(line);
console.log("with behaviour, refusing or pricing from each score:");
for (const line of policyLines(shops, flags)) console.log(line);
console.log(
  [
    `verify everyone (baseline): recall 0.0% (no COD refused), every shopper pays a code`,
    `good returning buyers in the low band (may skip the code on their remembered device): ${pct(total.goodReturningLow / (total.goodReturning || 1))}; baseline 0.0%`,
    `griefed (${pct(GRIEF_RATE)} of order slots: a stranger's unconfirmed COD order and 4 codes on a regular's number): ` +
      `${total.griefedGood} delivered orders of griefed regulars, COD refused to ${pct(total.griefedGoodHigh / (total.griefedGood || 1))} ` +
      `(only proven history counts); ${pct(total.griefedGoodHighBefore / (total.griefedGood || 1))} if the strangers' orders and codes counted`,
  ].join("\n"),
);
