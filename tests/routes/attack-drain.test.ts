import { docHolds, drainDay, drainRow, type DrainResult } from "../helpers/attacks";
import { installShop } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";

/**
 * Draining the shop's daily cap (docs/security.md, "A drain of the daily cap"): numbers that never verify,
 * from 1, 20 and 200 networks, over one day, while two real shoppers an hour ask for codes. The table in
 * the doc is this test's output (`ATTACK_TABLE=1` prints it).
 */
const twilio = useFakeTwilio();
afterEach(() => vi.restoreAllMocks());

const results: DrainResult[] = [];
/** A day of a drain is a few thousand requests through the routes: bounded, but more than a unit test's time. */
const DAY = 600_000;

describe("a drain of the daily cap", () => {
  it("from one network: its share, then refused; the drain watch never needed", async () => {
    await installShop();
    const r = await drainDay(twilio.twilio, 1);
    results.push(r);
    expect(r.texts).toBe(50);
    expect(r.capHour).toBeNull();
    expect(r.shoppers).toEqual({ code: 48, capFallback: 0, refused: 0 });
  }, DAY);

  it("from 20 networks: the drain watch slows it to 2 codes a network an hour, and the cap is not spent that day", async () => {
    await installShop();
    const r = await drainDay(twilio.twilio, 20);
    results.push(r);
    expect(r.slowedHour).toBe(0);
    expect(r.capHour).toBeNull();
    expect(r.texts).toBeLessThan(1000);
    expect(r.shoppers).toEqual({ code: 48, capFallback: 0, refused: 0 });
  }, DAY);

  it("from 200 networks: the cap is spent within hours, never passed; shoppers then get cash on delivery confirmed after purchase", async () => {
    await installShop();
    const r = await drainDay(twilio.twilio, 200);
    results.push(r);
    expect(r.capHour).not.toBeNull();
    // Real shoppers' codes and the attacker's together never pass the cap.
    expect(twilio.twilio.messages.length).toBe(1000);
    expect(r.shoppers.refused).toBe(0);
    expect(r.shoppers.capFallback).toBeGreaterThan(0);
  }, DAY);

  it("docs/security.md's drain table is this output", () => {
    expect(results).toHaveLength(3);
    expect(docHolds("security.md", results.map(drainRow))).toEqual([]);
  });
});
