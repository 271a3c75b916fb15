import { describe, expect, it } from "vitest";
import { aboutMoney, experimentSentence, percent, pointsRange, shopLocale, type ArmReport, type ExperimentReport } from "./report";

const arm = (codOrders: number, delivered: number, failed: number, estimate: number): ArmReport => ({
  shoppers: codOrders,
  codOrders,
  delivered,
  failed,
  open: codOrders - delivered - failed,
  messages: 0,
  messagesCost: null,
  rate: { estimate, lower: estimate - 0.03, upper: estimate + 0.03 },
  designEffect: 1,
});

function report(overrides: Partial<ExperimentReport> = {}): ExperimentReport {
  return {
    id: "e1",
    running: false,
    startedAt: "2026-10-01T00:00:00Z",
    endsAt: "2026-11-01T00:00:00Z",
    days: { first: "2026-10-01", last: "2026-10-31" },
    holdoutShare: 0.1,
    horizon: 1200,
    baseline: 0.24,
    drop: 0.1,
    holdout: arm(124, 94, 30, 30 / 124),
    verified: arm(1116, 1016, 100, 100 / 1116),
    probed: 0,
    reading: { difference: { estimate: 0.15, lower: 0.11, upper: 0.19 }, crossesZero: false, verdict: "fewer_failures", ordersToHorizon: 0, daysToHorizon: null },
    saved: { estimate: 190_000, lower: 140_000, upper: 240_000 },
    currency: "INR",
    locale: "en-IN",
    ...overrides,
  };
}

describe("experimentSentence", () => {
  it("says how many numbers a probe asked for, kept out of both groups", () => {
    expect(experimentSentence(report({ probed: 26 }))).toMatch(/ 26 numbers were asked from networks that tried many numbers and confirmed few \(a probe\): always asked for a code and left out of both groups\.$/);
    expect(experimentSentence(report({ probed: 0 }))).not.toMatch(/probe/);
  });

  it("says what a finished experiment found, in the shop's currency and words", () => {
    expect(experimentSentence(report())).toBe(
      "Verification cut failed deliveries from 24 % to 9 %, a 15-point drop, 95 % CI 11-19, over 1,240 COD orders: about ₹1.9\u202flakh saved.",
    );
  });
  it("never calls a win before the horizon: it says the interval and how many more orders, and when", () => {
    const s = experimentSentence(
      report({ running: true, reading: { difference: { estimate: 0.08, lower: -0.02, upper: 0.18 }, crossesZero: true, verdict: "collecting", ordersToHorizon: 420, daysToHorizon: 12 } }),
    );
    expect(s).toBe(
      "So far failed deliveries went from 24 % to 9 % (95 % CI -2 to 18 points) over 1,240 COD orders; the interval still includes no difference: the experiment needs 420 more delivered or failed orders, about 12 days at the current pace.",
    );
    expect(s).not.toMatch(/cut|saved/);
  });
  it("says no clear difference at the horizon when the interval holds zero", () => {
    const s = experimentSentence(report({ reading: { difference: { estimate: 0.02, lower: -0.03, upper: 0.07 }, crossesZero: true, verdict: "no_clear_difference", ordersToHorizon: 0, daysToHorizon: null } }));
    expect(s).toMatch(/^No clear difference: .*95 % CI -3 to 7 points/);
  });
  it("has nothing to compare while an arm has no delivered or failed order", () => {
    expect(experimentSentence(report({ holdout: arm(3, 0, 0, NaN) }))).toMatch(/no delivered or failed order in the held-out group yet/);
  });
});

describe("formatting", () => {
  it("writes money in the locale's own large-number words", () => {
    expect(aboutMoney(190_000, "INR", "en-IN")).toBe("₹1.9\u202flakh");
    expect(aboutMoney(190_000, "USD", "en-US")).toMatch(/^\$190[\s\u202f]thousand$/);
    expect(aboutMoney(850, "EUR", "en")).toBe("€850");
    expect(aboutMoney(850, null, "en")).toBe("850");
  });
  it("takes the shop's country into its locale", () => {
    expect(shopLocale("en", "IN")).toBe("en-IN");
    expect(shopLocale("fr-CA", "IN")).toBe("fr-CA");
    expect(shopLocale(null, null)).toBe("en");
  });
  it("writes rates and point ranges as the sentence does", () => {
    expect(percent(0.24)).toBe("24 %");
    expect(percent(0.085)).toBe("8.5 %");
    expect(pointsRange({ estimate: 0.15, lower: 0.11, upper: 0.19 })).toBe("11-19");
    expect(pointsRange({ estimate: 0.05, lower: -0.02, upper: 0.12 })).toBe("-2 to 12");
  });
});
