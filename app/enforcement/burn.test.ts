import { abnormalBurn, BURN_DAY_FLOOR, BURN_FACTOR, describeBurn, numberBlock } from "./burn.server";

describe("abnormalBurn", () => {
  const calm = { today: 3, usualPerDay: 2, fromNetwork: 1, fromBlock: 1 };
  it("a usual day is not abnormal, nor a new shop's first few verifications", () => {
    expect(abnormalBurn(calm)).toBeNull();
    expect(abnormalBurn({ today: BURN_DAY_FLOOR - 1, usualPerDay: 0, fromNetwork: 1, fromBlock: 1 })).toBeNull();
    // A busy shop's busy day: four times its usual.
    expect(abnormalBurn({ today: 400, usualPerDay: 100, fromNetwork: 3, fromBlock: 1 })).toBeNull();
  });
  it("far above the usual day is abnormal (and at least the floor)", () => {
    expect(abnormalBurn({ ...calm, today: BURN_DAY_FLOOR, usualPerDay: 0 })).toEqual({ kind: "rate", today: BURN_DAY_FLOOR, usual: 0 });
    expect(abnormalBurn({ ...calm, today: BURN_FACTOR * 20 + 1, usualPerDay: 20 })).toMatchObject({ kind: "rate" });
    expect(abnormalBurn({ ...calm, today: BURN_FACTOR * 20, usualPerDay: 20 })).toBeNull();
  });
  it("many new numbers from one network, or one block of numbers, is abnormal whatever the day's total", () => {
    expect(abnormalBurn({ ...calm, usualPerDay: 40, today: 60, fromNetwork: 41 })).toEqual({ kind: "network", count: 41 });
    expect(abnormalBurn({ ...calm, usualPerDay: 2, fromNetwork: 11 })).toEqual({ kind: "network", count: 11 });
    expect(abnormalBurn({ ...calm, usualPerDay: 2, fromNetwork: null, fromBlock: 6 })).toEqual({ kind: "block", count: 6 });
    expect(describeBurn({ kind: "block", count: 6 })).toMatch(/6 new numbers/);
  });
  it("a number's block is the number less its last 3 digits", () => {
    expect(numberBlock("+971501234567")).toBe("+971501234");
  });
});
