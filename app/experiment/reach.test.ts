import { plannedOrders } from "./stats";
import { experimentReach, reachSentence, type ExperimentPace } from "./reach";

/** Horizons as the card gets them: the planning rate 20 %, a drop of 10 points. */
function pace(codOrders: number): ExperimentPace {
  const horizons: Record<number, number> = {};
  for (let p = 5; p <= 30; p++) horizons[p] = plannedOrders({ baseline: 0.2, drop: 0.1, holdoutShare: p / 100 });
  return { codOrders, paceDays: 90, horizons };
}

describe("whether an experiment can reach a result at the store's pace", () => {
  it("29 COD orders in 90 days: no share reaches one within a year, and the card says so instead of asking for hundreds of orders silently", () => {
    const small = pace(29);
    const reach = experimentReach(small, 10, 90);
    expect(reach).toMatchObject({ kind: "never", needed: small.horizons[10], daysNeeded: null, suggestion: null });
    expect(reachSentence(small, 10, reach)).toBe(
      `At 10 %, a result needs ${small.horizons[10].toLocaleString("en")} delivered or failed COD orders: more than 365 days at your pace (29 COD orders in the last 90 days). No share from 5 to 30 % gets there within 365 days at this pace: the report would show the difference so far, without a verdict.`,
    );
  });

  it("a share that cannot within the year gets the quickest larger share that can, its period rounded up to a week", () => {
    const mid = pace(300); // 3.3 a day
    const reach = experimentReach(mid, 5, null);
    expect(reach.kind).toBe("never");
    if (reach.kind !== "never") return;
    expect(reach.suggestion).not.toBeNull();
    const { percent, days } = reach.suggestion!;
    expect(percent).toBeGreaterThan(5);
    expect(days % 7 === 0 || days === 365).toBe(true);
    expect(days * (300 / 90)).toBeGreaterThanOrEqual(mid.horizons[percent]);
    expect(experimentReach(mid, percent, days).kind).toBe("reachable");
    expect(experimentReach(mid, percent - 1, 365).kind).not.toBe("reachable");
  });

  it("a period too short for the share: the same share for long enough", () => {
    const busy = pace(9000); // 100 a day
    const needed = busy.horizons[10];
    const reach = experimentReach(busy, 10, 3);
    expect(reach).toMatchObject({ kind: "too_short", needed, daysNeeded: Math.ceil(needed / 100), suggestion: { percent: 10, days: Math.ceil(Math.ceil(needed / 100) / 7) * 7 } });
    expect(experimentReach(busy, 10, null)).toMatchObject({ kind: "reachable", suggestion: null });
    expect(reachSentence(busy, 10, experimentReach(busy, 10, 30))).toMatch(/^At 10 %, a result needs [\d,]+ delivered or failed COD orders: about \d+ days at your pace \(9,000 COD orders in the last 90 days\)\.$/);
  });

  it("a share outside the card's range says nothing", () => {
    expect(experimentReach(pace(100), 4, null)).toEqual({ kind: "unknown" });
    expect(experimentReach(pace(100), Number.NaN, null)).toEqual({ kind: "unknown" });
  });
});
