import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import { prisma } from "~/core/db.server";
import { clock } from "~/core/utils/clock.server";
import { planUsage } from "~/billing/plans.server";
import { verificationStatus } from "~/enforcement/pause.server";
import { runningExperiment, startExperiment, stopExperiment } from "~/experiment/experiment.server";
import { loadExperimentReport } from "~/experiment/report.server";
import { loadExperimentSettings } from "~/experiment/settings-page.server";
import { codOrdersLately } from "~/dashboard/cod-orders.server";
import { addDays, shopDayStart } from "~/shared/shop-day";
import { attackerIp, attackerNumber, sendFrom } from "../helpers/attacks";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";

/**
 * A shop's day is the shop's, through the storefront's own requests: the daily cap's day and its
 * retryAfter, the daily counts' rows, the allowance's month and the drain watch's day all turn at the shop's midnight, in zones
 * from UTC-12:00 to UTC+14:00 with the quarter and half hours, on the night a month ends; so do the holdout
 * experiment's period, its report's days and pace, the Settings card's dates and 90 days (every offset and hour:
 * app/experiment/period.test.ts).
 */
const fake = useFakeTwilio();

const send = (phone: string) => callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone } }));
const verify = (phone: string) => callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body: { phone, otp: fake.twilio.codeFor(phone) } }));
const at = (ms: number) => vi.spyOn(clock, "now").mockReturnValue(new Date(ms));

const ZONES = ["Etc/GMT+12", "Pacific/Marquesas", "America/St_Johns", "America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Eucla", "Pacific/Chatham", "Pacific/Kiritimati"];

describe("the shop's midnight, not UTC's", () => {
  it.each(ZONES)("%s: a minute before the shop's 1 December, the cap is November 30's and says 60 s; a second after, December's day, month and cap", async (zone) => {
    const shop = await installShop({ timezone: zone, dailySendCap: 1, capFallback: "prepaid_only", otpResendCooldownSeconds: 0 });
    const midnight = shopDayStart("2026-12-01", zone).getTime();

    at(midnight - 60_000);
    expect((await send("+919876500001")).status).toBe(200);
    expect((await verify("+919876500001")).status).toBe(200);
    const refused = await send("+919876500002");
    expect(refused.status).toBe(429);
    expect(await jsonOf(refused)).toMatchObject({ code: "shop_daily_cap", retryAfter: 60 });
    expect((await planUsage(shop)).since).toBe("2026-11-01");
    expect(await verificationStatus(shop)).toMatchObject({ used: 1 });

    at(midnight + 1000);
    expect((await send("+919876500002")).status).toBe(200);
    expect((await verify("+919876500002")).status).toBe(200);
    // A new month: the allowance counts from the shop's 1 December, where only the new verification is.
    expect((await planUsage(shop)).since).toBe("2026-12-01");
    expect(await verificationStatus(shop)).toMatchObject({ used: 1 });

    const rows = await prisma.dailyStat.findMany({ where: { shopId: shop.id, metric: { in: ["otp_sent", "otp_verified"] } }, orderBy: [{ day: "asc" }, { metric: "asc" }] });
    expect(rows.map((r) => `${r.day} ${r.metric} ${r.count}`)).toEqual(["2026-11-30 otp_sent 1", "2026-11-30 otp_verified 1", "2026-12-01 otp_sent 1", "2026-12-01 otp_verified 1"]);
    const marks = await prisma.verifiedCustomer.findMany({ where: { shopId: shop.id }, orderBy: { phone: "asc" } });
    expect(marks.map((m) => m.countedMonth)).toEqual(["2026-11-01", "2026-12-01"]);
  });

  it.each(ZONES)("%s: at 06:00, 12:00 and 18:45 of the shop's day, a spent cap's retryAfter is the seconds to the shop's next midnight", async (zone) => {
    await installShop({ timezone: zone, dailySendCap: 1, capFallback: "prepaid_only", otpResendCooldownSeconds: 0 });
    const answers: number[] = [];
    const expected: number[] = [];
    for (const [i, minutes] of [6 * 60, 12 * 60, 18 * 60 + 45].entries()) {
      const day = addDays("2026-12-01", i);
      const now = shopDayStart(day, zone).getTime() + minutes * 60_000;
      at(now);
      expect((await send(`+91987650010${i}`)).status).toBe(200);
      answers.push(Number((await jsonOf(await send(`+91987650020${i}`))).retryAfter));
      expected.push((shopDayStart(addDays(day, 1), zone).getTime() - now) / 1000);
    }
    expect(answers).toEqual(expected);
    expect(expected).toEqual([18 * 3600, 12 * 3600, 5 * 3600 + 15 * 60]);
  });

  it("a shop whose zone is not known yet keeps UTC's days", async () => {
    await installShop({ dailySendCap: 1, capFallback: "prepaid_only", otpResendCooldownSeconds: 0 });
    at(Date.UTC(2026, 10, 30, 23, 59));
    expect((await send("+919876500001")).status).toBe(200);
    expect(await jsonOf(await send("+919876500002"))).toMatchObject({ code: "shop_daily_cap", retryAfter: 60 });
  });
});

describe("the drain watch's day, the shop's", () => {
  it.each(ZONES)("%s: a day of unconfirmed codes slows every network to 2 an hour until the shop's midnight, not UTC's", async (zone) => {
    // A cap of 100: the watch wakes at 20 codes a day with fewer than one in five confirmed.
    await installShop({ timezone: zone, dailySendCap: 100 });
    const midnight = shopDayStart("2026-12-01", zone).getTime();
    at(midnight - 120_000);
    let next = 0;
    for (let n = 0; n < 4; n++) for (let k = 0; k < 5; k++) expect((await sendFrom(attackerNumber(next++), attackerIp(n, k + 1))).status).toBe(200);
    at(midnight - 60_000);
    const late = [];
    for (let k = 0; k < 3; k++) late.push(await sendFrom(attackerNumber(next++), attackerIp(10, k + 1)));
    expect(late.map((a) => a.status)).toEqual([200, 200, 429]);
    expect(late[2].body).toMatchObject({ code: "rate_limited" });
    // The shop's new day has seen no code yet: the watch sleeps, whatever UTC's hour and day say.
    at(midnight + 1000);
    expect((await sendFrom(attackerNumber(next++), attackerIp(10, 9))).status).toBe(200);
    const spike = await prisma.dailyStat.findMany({ where: { metric: "otp_refused", dimension: "spike" } });
    expect(spike.map((r) => `${r.day} ${r.count}`)).toEqual(["2026-11-30 1"]);
  });
});

describe("the experiment's days, the shop's", () => {
  const MINUTE = 60_000;
  it.each(ZONES)("%s: started at 23:30 on 30 November for 1 day, it runs to the end of 1 December; the pace counts days as the shop turns them", async (zone) => {
    const shop = await installShop({ timezone: zone });
    const midnight = shopDayStart("2026-12-01", zone).getTime();
    const start = new Date(midnight - 30 * MINUTE);
    // The Settings card's 90 days: from the first instant of the 89th day before today.
    const firstPaceDay = shopDayStart(addDays("2026-11-30", -89), zone).getTime();
    for (const [n, placedAt] of [firstPaceDay - 1000, firstPaceDay, start.getTime() - MINUTE].entries()) {
      await prisma.orderRecord.create({ data: { shopId: shop.id, orderGid: `gid://shopify/Order/${n}`, cod: true, status: "verified", placedAt: new Date(placedAt) } });
    }
    expect(await codOrdersLately(shop, start)).toBe(2);

    const started = await startExperiment(shop, { holdoutShare: 0.1, days: 1 }, start);
    expect(started.ok).toBe(true);
    const end = shopDayStart("2026-12-02", zone);
    expect((await prisma.experiment.findFirstOrThrow()).endsAt).toEqual(end);
    expect(await runningExperiment(shop.id, new Date(end.getTime() - 1000))).not.toBeNull();
    expect(await runningExperiment(shop.id, end)).toBeNull();

    // One resolved order 10 minutes in: a pace of 1 a day on 30 November, 1 in 2 days from the shop's midnight on.
    const experiment = await prisma.experiment.findFirstOrThrow();
    await prisma.experimentAssignment.create({ data: { experimentId: experiment.id, shopId: shop.id, phone: "+919876500001", arm: "verify", assignedAt: start } });
    await prisma.orderRecord.create({ data: { shopId: shop.id, orderGid: "gid://shopify/Order/exp", phone: "+919876500001", cod: true, status: "verified", placedAt: new Date(start.getTime() + 10 * MINUTE) } });
    await prisma.orderOutcome.create({ data: { shopId: shop.id, orderGid: "gid://shopify/Order/exp", outcome: "delivered", decidedAt: new Date(start.getTime() + 15 * MINUTE) } });
    const toGo = started.ok ? started.horizon - 1 : NaN;
    const before = await loadExperimentReport(shop, new Date(midnight - 5 * MINUTE));
    expect(before).toMatchObject({ running: true, days: { first: "2026-11-30", last: "2026-12-01" }, reading: { ordersToHorizon: toGo, daysToHorizon: toGo } });
    const after = await loadExperimentReport(shop, new Date(midnight + 5 * MINUTE));
    expect(after).toMatchObject({ running: true, reading: { ordersToHorizon: toGo, daysToHorizon: toGo * 2 } });
    const ended = await loadExperimentReport(shop, new Date(end.getTime() + 3_600_000));
    expect(ended).toMatchObject({ running: false, endsAt: end.toISOString(), days: { first: "2026-11-30", last: "2026-12-01" } });
    // A stop pressed after the period ended changes neither its end nor its days.
    expect(await stopExperiment(shop.id, new Date(end.getTime() + 2 * 3_600_000))).toBe(true);
    expect(await loadExperimentReport(shop, new Date(end.getTime() + 3 * 3_600_000))).toMatchObject({ running: false, endsAt: end.toISOString(), days: { last: "2026-12-01" } });

    // The Settings card: the shop's first and real last day, worded on the server (the browser's zone does not move them).
    at(midnight - 5 * MINUTE);
    expect((await loadExperimentSettings(shop.domain, codOrdersLately)).dayWords).toEqual({ first: "Nov 30, 2026", last: "Dec 1, 2026" });
    // Started a minute before the shop's 3 December with no set period: from the 2nd, until stopped.
    const third = shopDayStart("2026-12-03", zone).getTime();
    expect((await startExperiment(shop, { holdoutShare: 0.1, days: null }, new Date(third - MINUTE))).ok).toBe(true);
    at(third - MINUTE / 2);
    expect(await loadExperimentSettings(shop.domain, codOrdersLately)).toMatchObject({ running: true, dayWords: { first: "Dec 2, 2026", last: null } });
    // Stopped, and started again a minute after that midnight for 2 days: from the 3rd through the 5th.
    expect(await stopExperiment(shop.id, new Date(third))).toBe(true);
    expect((await startExperiment(shop, { holdoutShare: 0.1, days: 2 }, new Date(third + MINUTE))).ok).toBe(true);
    at(third + 2 * MINUTE);
    expect(await loadExperimentSettings(shop.domain, codOrdersLately)).toMatchObject({ running: true, dayWords: { first: "Dec 3, 2026", last: "Dec 5, 2026" } });
  });
});
