import { planById, type PlanId } from "~/shared/plans";
import { docTable, drainBill, drainDay, drainRow, printTable } from "../helpers/attacks";
import { installShop } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";

/**
 * Draining the shop's daily cap (docs/security.md, "A drain of the daily cap"): numbers that never verify,
 * from 1, 20 and 200 networks, over one day, while two real shoppers an hour ask for codes and confirm
 * them, on each plan (usage charges turned on where the plan has them): what the attacker sent and
 * triggered, what it cost the merchant's plan, what the shoppers saw. The table in the doc is this test's
 * output (`npm run attack:table` prints it).
 */
const twilio = useFakeTwilio();
afterEach(() => vi.restoreAllMocks());

const rows: string[] = [];
/** A day of a drain is up to two thousand requests through the routes: 1-3 s on a quiet machine, minutes on a loaded one. */
const DAY = 300_000;
const PLANS: PlanId[] = ["free", "starter", "pro"];

describe.each(PLANS)("a drain of the daily cap on the %s plan", (id) => {
  const plan = planById(id)!;
  const shop = () => installShop({ subscriptionPlan: plan.name, usageChargesEnabled: plan.overagePrice > 0 });

  it("from one network: its share, then refused; the drain watch never needed; nothing counted or charged", async () => {
    const s = await shop();
    const r = await drainDay(twilio.twilio, 1);
    const bill = await drainBill(s, r);
    rows.push(drainRow(r, bill));
    expect(r.texts).toBe(50);
    expect(r.capHour).toBeNull();
    expect(r.shoppers).toEqual({ code: 48, capFallback: 0, refused: 0 });
    expect(bill).toMatchObject({ allowanceUsed: 0, usageCharges: 0 });
  }, DAY);

  it("from 20 networks: the drain watch slows it to 2 codes a network an hour, and the cap is not spent that day", async () => {
    const s = await shop();
    const r = await drainDay(twilio.twilio, 20);
    const bill = await drainBill(s, r);
    rows.push(drainRow(r, bill));
    expect(r.slowedHour).toBe(0);
    expect(r.capHour).toBeNull();
    expect(r.texts).toBeLessThan(1000);
    expect(r.shoppers).toEqual({ code: 48, capFallback: 0, refused: 0 });
    expect(bill).toMatchObject({ allowanceUsed: 0, usageCharges: 0 });
  }, DAY);

  it("from 200 networks: the cap is spent within hours, never passed; shoppers then get cash on delivery confirmed after purchase", async () => {
    const s = await shop();
    const r = await drainDay(twilio.twilio, 200);
    const bill = await drainBill(s, r);
    rows.push(drainRow(r, bill));
    expect(r.capHour).not.toBeNull();
    // Real shoppers' codes and the attacker's together never pass the cap.
    expect(twilio.twilio.messages.length).toBe(1000);
    expect(r.shoppers.refused).toBe(0);
    expect(r.shoppers.capFallback).toBeGreaterThan(0);
    expect(bill).toMatchObject({ allowanceUsed: 0, usageCharges: 0 });
  }, DAY);
});

describe("docs/security.md", () => {
  it("its drain table is this output, row for row", () => {
    printTable(rows);
    expect(rows).toHaveLength(PLANS.length * 3);
    expect(docTable("security.md", "| plan | attacker networks |")).toEqual(rows);
  });
});
