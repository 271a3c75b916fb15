import { describe, expect, it } from "vitest";
import { armCounts, dropToFind, moneySaved, newcombe, normalQuantile, plannedOrders, readExperiment, tQuantile, wilson } from "./stats";

const ones = (orders: number, failed: number) => Array.from({ length: orders }, (_, i) => ({ orders: 1, failed: i < failed ? 1 : 0 }));

describe("normalQuantile", () => {
  it("matches the standard normal's quantiles", () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.8)).toBeCloseTo(0.841621, 5);
    expect(normalQuantile(0.5)).toBeCloseTo(0, 9);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232, 5);
  });
  it("refuses a probability outside (0, 1)", () => {
    expect(() => normalQuantile(1)).toThrow(RangeError);
    expect(() => normalQuantile(0)).toThrow(RangeError);
  });
});

describe("tQuantile", () => {
  it("matches Student's t table and tends to the normal", () => {
    expect(tQuantile(0.975, 10)).toBeCloseTo(2.228, 2);
    expect(tQuantile(0.975, 30)).toBeCloseTo(2.042, 3);
    expect(tQuantile(0.975, 100)).toBeCloseTo(1.984, 3);
    expect(tQuantile(0.975, Infinity)).toBeCloseTo(1.959964, 6);
  });
});

describe("wilson", () => {
  // Newcombe (1998a), Statistics in Medicine 17:857, table I: 81/263 and 0/10.
  it("gives the published intervals", () => {
    const a = wilson(81, 263);
    expect(a.lower).toBeCloseTo(0.2553, 4);
    expect(a.upper).toBeCloseTo(0.3662, 4);
    const b = wilson(0, 10);
    expect(b.lower).toBe(0);
    expect(b.upper).toBeCloseTo(0.2775, 4);
  });
  it("is the whole range with no orders", () => {
    expect(wilson(0, 0)).toMatchObject({ lower: 0, upper: 1 });
  });
});

describe("newcombe (hybrid score, method 10)", () => {
  // Newcombe (1998b), Statistics in Medicine 17:873, table II, method 10.
  it.each([
    [56, 70, 48, 80, 0.0524, 0.3339],
    [9, 10, 3, 10, 0.1705, 0.809],
    [6, 7, 2, 7, 0.0582, 0.8062],
    [5, 56, 0, 29, -0.0381, 0.1926],
  ])("%i/%i − %i/%i", (x1, n1, x2, n2, lower, upper) => {
    const d = newcombe({ failures: x1, n: n1 }, { failures: x2, n: n2 });
    expect(d.lower).toBeCloseTo(lower, 4);
    expect(d.upper).toBeCloseTo(upper, 4);
  });
});

describe("armCounts", () => {
  it("with one order per shopper the design effect is M/(M-1), the jackknife's small-sample factor (docs/experiment.md)", () => {
    for (const [m, f] of [[200, 40], [12, 3], [1000, 500]]) {
      const arm = armCounts(ones(m, f));
      expect(arm).toMatchObject({ orders: m, failed: f, shoppers: m });
      expect(arm.designEffect).toBeCloseTo(m / (m - 1), 12);
      expect(arm.effectiveOrders).toBeCloseTo(m - 1, 9);
    }
  });
  it("rounds the horizon up to a whole ten (docs/experiment.md)", () => {
    const raw = (p1: number, d: number, s: number) => {
      const p2 = p1 - d;
      const za = normalQuantile(0.975);
      const zb = normalQuantile(0.8);
      const pBar = s * p1 + (1 - s) * p2;
      return ((za * Math.sqrt(pBar * (1 - pBar) * (1 / s + 1 / (1 - s))) + zb * Math.sqrt((p1 * (1 - p1)) / s + (p2 * (1 - p2)) / (1 - s))) / d) ** 2;
    };
    for (const [p, d, s] of [[0.2, 0.1, 0.1], [0.06, 0.03, 0.3], [0.3, 0.1, 0.05]]) {
      const n = plannedOrders({ baseline: p, drop: d, holdoutShare: s });
      expect(n % 10).toBe(0);
      expect(n).toBe(Math.ceil(raw(p, d, s) / 10) * 10);
    }
  });
  it("shrinks the counts when one shopper's orders all share a fate", () => {
    // 10 shoppers of 10 orders each: 2 fail every time, 8 never.
    const clustered = [...Array(2).fill({ orders: 10, failed: 10 }), ...Array(8).fill({ orders: 10, failed: 0 })];
    const arm = armCounts(clustered);
    expect(arm.orders).toBe(100);
    expect(arm.designEffect).toBeGreaterThan(9);
    expect(arm.effectiveOrders).toBeLessThan(12);
    expect(arm.effectiveFailed / arm.effectiveOrders).toBeCloseTo(0.2, 9);
    expect(arm.effectiveShoppers).toBeCloseTo(10, 9);
  });
  it("counts few effective shoppers when one made most of the orders", () => {
    const arm = armCounts([{ orders: 30, failed: 0 }, ...ones(10, 2)]);
    expect(arm.shoppers).toBe(11);
    expect(arm.effectiveShoppers).toBeCloseTo(1600 / 910, 9);
  });
});

describe("plannedOrders", () => {
  it("matches the textbook size for 20 % against 10 %, equal arms", () => {
    // Fleiss without continuity correction: 199 per arm.
    expect(plannedOrders({ baseline: 0.2, drop: 0.1, holdoutShare: 0.5 })).toBe(400);
  });
  it("needs more orders for a smaller holdout", () => {
    expect(plannedOrders({ baseline: 0.2, drop: 0.1, holdoutShare: 0.1 })).toBeGreaterThan(plannedOrders({ baseline: 0.2, drop: 0.1, holdoutShare: 0.3 }));
  });
  it("sizes for a 10-point drop, or half a low rate", () => {
    expect(dropToFind(0.24)).toBe(0.1);
    expect(dropToFind(0.08)).toBeCloseTo(0.04, 9);
    expect(dropToFind(0.02)).toBe(0.03);
  });
});

describe("readExperiment", () => {
  it("gives no verdict before the horizon, however clear the interval", () => {
    const r = readExperiment({ holdout: ones(100, 30), verified: ones(900, 90), horizon: 2000, resolvedPerDay: 50 });
    expect(r.crossesZero).toBe(false);
    expect(r.verdict).toBe("collecting");
    expect(r.ordersToHorizon).toBe(1000);
    expect(r.daysToHorizon).toBe(20);
  });
  it("calls fewer failures at the horizon when the interval is above zero", () => {
    const r = readExperiment({ holdout: ones(100, 30), verified: ones(900, 90), horizon: 1000, resolvedPerDay: 50 });
    expect(r.verdict).toBe("fewer_failures");
    expect(r.difference.estimate).toBeCloseTo(0.2, 9);
    expect(r.difference.lower).toBeGreaterThan(0);
    expect(r.ordersToHorizon).toBe(0);
    expect(r.daysToHorizon).toBeNull();
  });
  it("says no clear difference at the horizon when the interval holds zero", () => {
    const r = readExperiment({ holdout: ones(100, 12), verified: ones(900, 90), horizon: 1000, resolvedPerDay: null });
    expect(r.crossesZero).toBe(true);
    expect(r.verdict).toBe("no_clear_difference");
  });
  it("has no pace and no verdict with an empty arm", () => {
    const r = readExperiment({ holdout: [], verified: ones(50, 5), horizon: 10, resolvedPerDay: 0 });
    expect(r.verdict).toBe("collecting");
    expect(r.daysToHorizon).toBeNull();
  });
});

describe("moneySaved", () => {
  it("is orders × drop × parcel cost, less the messages, at the estimate and both ends", () => {
    const saved = moneySaved({ verifiedOrders: 1000, difference: { estimate: 0.15, lower: 0.11, upper: 0.19 }, failedParcelCost: 200, messagesCost: 1500 });
    expect(saved).toEqual({ estimate: 28_500, lower: 20_500, upper: 36_500 });
  });
  it("is unknown without the parcel's cost", () => {
    expect(moneySaved({ verifiedOrders: 10, difference: { estimate: 0.1, lower: 0, upper: 0.2 }, failedParcelCost: null, messagesCost: 0 })).toBeNull();
  });
});
