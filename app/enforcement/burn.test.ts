import { abnormalBurn, BURN_DAY_FLOOR, BURN_FACTOR, describeBurn, NEW_SHOP_DAYS, NEW_SHOP_FLOOR, newShopAge, numberBlock } from "./burn.server";

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
  it("a month far ahead of the shop's usual pace is abnormal, once it has a usual pace", () => {
    const base = { today: 4, fromNetwork: 1, fromBlock: 1 };
    // Day 10, a usual 2 a day: 40 is the line.
    expect(abnormalBurn({ ...base, usualPerDay: 2, month: { used: 40, day: 10, allowance: 500 } })).toBeNull();
    expect(abnormalBurn({ ...base, usualPerDay: 2, month: { used: 41, day: 10, allowance: 500 } })).toEqual({ kind: "pace", month: 41, usual: 2 });
    // A new shop has no pace to be ahead of.
    expect(abnormalBurn({ ...base, usualPerDay: 0, month: { used: 41, day: 10, allowance: 500 } })).toBeNull();
  });
  it("the allowance used up far ahead of the usual pace is abnormal; a shop that uses its plan at its usual pace is not", () => {
    const base = { today: 3, fromNetwork: 1, fromBlock: 1 };
    expect(abnormalBurn({ ...base, usualPerDay: 1.7, month: { used: 50, day: 15, allowance: 50 } })).toMatchObject({ kind: "early", month: 50 });
    expect(abnormalBurn({ ...base, usualPerDay: 0, month: { used: 50, day: 25, allowance: 50 } })).toMatchObject({ kind: "early" });
    expect(abnormalBurn({ ...base, usualPerDay: 1.7, month: { used: 50, day: 29, allowance: 50 } })).toBeNull();
    expect(abnormalBurn({ ...base, usualPerDay: 1.7, month: { used: 49, day: 15, allowance: 50 } })).toBeNull();
  });
  it("many new numbers from one network, or one block of numbers, is abnormal whatever the day's total", () => {
    expect(abnormalBurn({ ...calm, usualPerDay: 40, today: 60, fromNetwork: 41 })).toEqual({ kind: "network", count: 41 });
    expect(abnormalBurn({ ...calm, usualPerDay: 2, fromNetwork: 11 })).toEqual({ kind: "network", count: 11 });
    expect(abnormalBurn({ ...calm, usualPerDay: 2, fromNetwork: null, fromBlock: 6 })).toEqual({ kind: "block", count: 6 });
    expect(describeBurn({ kind: "block", count: 6 })).toMatch(/6 new numbers/);
  });
  it("a new store's first days at small volume are not abnormal: every rule but the allowance's needs NEW_SHOP_FLOOR", () => {
    const fresh = { today: 12, usualPerDay: 0, fromNetwork: 12, fromBlock: 9, newShop: true, month: { used: 14, day: 3, allowance: 500 } };
    // The merchant trying checkout with a dozen numbers from the office on day two, and the first shoppers.
    expect(abnormalBurn(fresh)).toBeNull();
    expect(abnormalBurn({ ...fresh, newShop: false })).toMatchObject({ kind: "rate" });
    expect(abnormalBurn({ ...fresh, today: NEW_SHOP_FLOOR })).toMatchObject({ kind: "rate", today: NEW_SHOP_FLOOR });
    expect(abnormalBurn({ ...fresh, fromNetwork: NEW_SHOP_FLOOR + 1 })).toMatchObject({ kind: "network" });
    expect(abnormalBurn({ ...fresh, fromBlock: NEW_SHOP_FLOOR + 1 })).toMatchObject({ kind: "block" });
    // The allowance used up far ahead of the pace still is.
    expect(abnormalBurn({ ...fresh, month: { used: 50, day: 3, allowance: 50 } })).toMatchObject({ kind: "early" });
  });
  it("a store is new for NEW_SHOP_DAYS days after install, its age counted in whole days from 1", () => {
    const now = new Date("2026-11-20T10:00:00Z");
    expect(newShopAge(new Date("2026-11-20T09:00:00Z"), now)).toBe(1);
    expect(newShopAge(new Date("2026-11-17T09:00:00Z"), now)).toBe(4);
    expect(newShopAge(new Date(now.getTime() - NEW_SHOP_DAYS * 86_400_000), now)).toBeNull();
    expect(newShopAge(new Date("2026-11-21T09:00:00Z"), now)).toBeNull();
    expect(newShopAge(null, now)).toBeNull();
  });
  it("a number's block is the number less its last 3 digits", () => {
    expect(numberBlock("+971501234567")).toBe("+971501234");
  });
});
