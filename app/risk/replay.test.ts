import { describe, expect, it } from "vitest";
import { calibrate, emptyCounts, failureProbability, priorProbability, PRIOR_WEIGHT, readCounts } from "./calibration";
import { codOffer, pricedDeposit } from "./pricing";
import { parseReplay, replay, replayShop, type ReplayInput, type ReplayResult } from "./replay";
import { replayReport, wilson } from "./replay-report";
import { BEHAVIOUR_CAP, scoreRisk, type RiskFacts } from "./score";
import { shopHour, unusualHour } from "./signals";
import { riskSettingsOf } from "./facts";

const pricing = { mediumAction: "none", highAction: "price", failureCost: 200, depositMin: 20, depositMax: 150 } as const;
const options = { shop: replayShop(20, 60), pricing, timeZone: "Asia/Kolkata" };
const GOOD = { address1: "Flat 12, Shanti Apartments, MG Road", address2: "Near City Mall", city: "Mumbai", province: "Maharashtra", zip: "400001", country_code: "IN" };

function line(o: Partial<ReplayInput> & { placedAt: string }): string {
  return JSON.stringify({ phone: "+919810000001", address: GOOD, value: 1000, outcome: "delivered", ...o });
}

describe("calibration", () => {
  it("reads the prior with no outcomes and the shop's own rate with many", () => {
    const none = calibrate(emptyCounts());
    expect(failureProbability(none, 5)).toBeCloseTo(priorProbability(5));
    const counts = emptyCounts();
    counts.orders[0] = 2000;
    counts.failed[0] = 20; // 1 % observed at scores 0-9, under the prior's 4 %
    const learnt = calibrate(counts);
    expect(failureProbability(learnt, 5)).toBeCloseTo((20 + PRIOR_WEIGHT * priorProbability(5)) / (2000 + PRIOR_WEIGHT), 5);
    expect(failureProbability(learnt, 5)).toBeLessThan(0.015);
  });
  it("never reads a lower probability for a higher score", () => {
    const counts = emptyCounts();
    counts.orders[3] = 500;
    counts.failed[3] = 400;
    counts.orders[4] = 500;
    counts.failed[4] = 50;
    const bands = calibrate(counts);
    for (let i = 1; i < bands.length; i++) expect(bands[i].predicted).toBeGreaterThanOrEqual(bands[i - 1].predicted);
  });
  it("reads stored counts, and empty ones from anything else", () => {
    const counts = emptyCounts();
    counts.orders[1] = 3;
    expect(readCounts(JSON.stringify(counts))).toEqual(counts);
    expect(readCounts("{\"orders\":[1],\"failed\":[0]}")).toEqual(emptyCounts());
    expect(readCounts("not json")).toEqual(emptyCounts());
  });
});

describe("a deposit priced from the expected loss", () => {
  it("is P(fail) × the failed-parcel cost rounded up to a whole unit, within the merchant's bounds", () => {
    expect(pricedDeposit(0.3142, pricing)).toBe(63);
    expect(pricedDeposit(0.01, pricing)).toBe(20);
    expect(pricedDeposit(0.99, pricing)).toBe(150);
    expect(pricedDeposit(0.5, { ...pricing, failureCost: null })).toBeNull();
    expect(pricedDeposit(0.5, pricing, 90)).toBeNull(); // nothing left to pay on delivery
  });
  it("refuses COD when a band set to price cannot be priced, never plain COD", () => {
    expect(codOffer("high", 0.5, { ...pricing, failureCost: null })).toEqual({ action: "refuse", deposit: null });
    expect(codOffer("medium", 0.5, pricing)).toEqual({ action: "none", deposit: null });
    expect(codOffer("high", 0.5, pricing)).toEqual({ action: "price", deposit: 100 });
  });
});

describe("behaviour in the score", () => {
  const settings = riskSettingsOf(options.shop);
  const facts: RiskFacts = { phone: "+919810000001", otpVerified: true, history: null, address: null, orderValue: null, usualValueP90: null, velocity: { codesForPhone: 1, requestsFromIp: 1 } };
  it("gives each behaviour its reason, the modal's together at most BEHAVIOUR_CAP and never below zero", () => {
    const worst = scoreRisk({ ...facts, behaviour: { numbersTried: 50, msToRequest: 0, msToType: 86_400_000, codesAbandoned: 1000 } }, settings);
    const modal = worst.reasons.filter((r) => r.code.startsWith("behaviour_"));
    expect(modal.reduce((s, r) => s + r.points, 0)).toBe(BEHAVIOUR_CAP);
    expect(modal.every((r) => r.points > 0)).toBe(true);
    // An attacker who writes the calmest values gets no discount.
    const calm = scoreRisk({ ...facts, behaviour: { numbersTried: 0, msToRequest: 60_000, msToType: 10_000, codesAbandoned: 0 } }, settings);
    expect(calm.score).toBe(scoreRisk(facts, settings).score);
  });
  it("reads the hour in the shop's zone, quarter hours included", () => {
    const at = new Date("2026-11-29T20:30:00Z");
    expect(shopHour(at, "Asia/Kathmandu")).toBe(2); // +05:45
    expect(shopHour(at, "Pacific/Kiritimati")).toBe(10); // +14:00
    expect(shopHour(at, "Etc/GMT+12")).toBe(8); // -12:00
    expect(unusualHour(2, null)).toBe(false); // the shop's own hours are the measure: none known, nothing unusual
    const quietAtNight = Array.from({ length: 24 }, (_, h) => (h >= 1 && h <= 4 ? 1 : 20));
    expect(unusualHour(2, quietAtNight)).toBe(true);
    expect(unusualHour(2, quietAtNight.map((n) => n / 4))).toBe(false); // 95 orders known: too few to judge
    expect(unusualHour(2, Array(24).fill(10))).toBe(false);
  });
});

describe("the replay", () => {
  it("scores each order with only what was learnt before it", () => {
    const text = [
      line({ placedAt: "2026-10-01T10:00:00Z", outcome: "failed", outcomeAt: "2026-10-03T10:00:00Z" }),
      line({ placedAt: "2026-10-02T10:00:00Z" }), // the failure is not known yet
      line({ placedAt: "2026-10-04T10:00:00Z" }), // now it is
    ].join("\n");
    const parsed = parseReplay(text);
    if (!parsed.ok) throw new Error(parsed.error);
    const { results } = replay(parsed.orders, options);
    expect(results[1].reasons).not.toContain("rto_prone_phone");
    expect(results[2].reasons).toContain("rto_prone_phone");
  });
  it("names the first bad line", () => {
    expect(parseReplay(`${line({ placedAt: "2026-10-01T10:00:00Z" })}\n{"placedAt":"yesterday","phone":null,"outcome":null}`)).toMatchObject({ ok: false, line: 2 });
    expect(parseReplay("{")).toMatchObject({ ok: false, line: 1, error: "not JSON" });
  });
  it("reports precision, recall and money with intervals", () => {
    const w = wilson(8, 10);
    expect(w.lower).toBeLessThan(0.8);
    expect(w.upper).toBeGreaterThan(0.8);
    const results: ReplayResult[] = [
      { id: "1", value: 1000, score: 80, band: "high", probability: 0.7, action: "price", deposit: 140, failed: true, rule: false, reasons: [] },
      { id: "2", value: 1000, score: 80, band: "high", probability: 0.7, action: "price", deposit: 140, failed: false, rule: false, reasons: [] },
      { id: "3", value: 1000, score: 0, band: "low", probability: 0.04, action: "none", deposit: null, failed: true, rule: false, reasons: [] },
    ];
    const r = replayReport(results, { failureCost: 200, margin: 0.2, defaultValue: 1000, goodPrepaidWhenRefused: 0, goodPayDeposit: 0.5, badPayDeposit: 0.5 });
    expect(r.precision.estimate).toBe(0.5);
    expect(r.recall.estimate).toBe(0.5);
    expect(r.money.failuresAvoided.estimate).toBe(200 * 0.5 + 0.5 * 140);
    expect(r.money.goodOrdersLost.estimate).toBe(200 * 0.5);
    expect(r.money.depositsTaken.estimate).toBe(140);
  });
});
