import { databaseProvider, prisma } from "~/core/db.server";
import { query, sql } from "~/core/db/sql.server";
import { clock } from "~/core/utils/clock.server";
import { dashboardOf } from "~/dashboard/dashboard.server";
import { codOrdersLately } from "~/dashboard/cod-orders.server";
import { DAILY_FIGURES_KEPT_DAYS, daysToRoll, pruneDailyFigures, rollDay, rollMonths, rollUpShops } from "~/dashboard/day-rollup.server";
import { loadDeliveryAnalytics } from "~/dashboard/delivery-analytics.server";
import { deliverySpan, weekOf, weeksBetween } from "~/dashboard/delivery-span.server";
import { addDays, shopDay, shopDayStart } from "~/shared/shop-day";
import { installShop } from "../helpers/shops";

/**
 * The admin's reports over closed days read one stored row a day (DayRollup) instead of the day's rows: the
 * figures are the same with and without the rollup, in zones ahead of UTC (by half and three quarters of an
 * hour too) and behind it, and a closed day's rows are no longer read once it is rolled.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// 20:30 UTC: already the next day in Kolkata (UTC+5:30), still the same day in New York.
const NOW = new Date("2026-11-20T20:30:00Z");

beforeEach(() => {
  vi.spyOn(clock, "now").mockImplementation(() => new Date(NOW));
});
afterEach(() => vi.restoreAllMocks());

async function seed(shopId: string) {
  const at = (hoursAgo: number) => new Date(NOW.getTime() - hoursAgo * HOUR);
  const orders = [];
  const messages = [];
  const outcomes = [];
  // One order every 7 hours over 120 days (some before midnight in one zone and after it in the other), each
  // phone its own shopper, so a shopper's codes fall on one day.
  for (let i = 0; i < 120 * 24; i += 7) {
    const gid = `gid://shopify/Order/${1000 + i}`;
    const phone = `+9198765${String(i).padStart(5, "0")}`;
    const cod = i % 5 !== 0;
    orders.push({
      shopId,
      orderGid: gid,
      phone,
      cod,
      mode: cod ? "cod" : "prepaid",
      status: i % 3 === 0 ? "unverified" : "verified",
      verifiedBy: "proof",
      riskBand: i % 2 ? "low" : "high",
      trafficSource: "direct",
      postalCode: String(110001 + (i % 4)),
      products: JSON.stringify(i % 2 ? ["Kurta"] : ["Saree", "Kurta"]),
      placedAt: at(i),
      createdAt: at(i),
    });
    messages.push({ shopId, phone, purpose: "otp", channel: i % 4 ? "sms" : "whatsapp", providerId: `SM${i}`, status: i % 6 ? "delivered" : "failed", createdAt: at(i + 1) });
    if (cod && i % 2) outcomes.push({ shopId, orderGid: gid, phone, outcome: i % 3 ? "delivered" : "failed", reason: "fulfilled", decidedAt: at(i) });
  }
  await prisma.orderRecord.createMany({ data: orders });
  await prisma.messageDelivery.createMany({ data: messages });
  await prisma.orderOutcome.createMany({ data: outcomes });
  await prisma.verifiedCustomer.createMany({ data: orders.filter((o) => o.status === "verified").map((o) => ({ shopId, phone: o.phone!, verifiedAt: o.placedAt })) });
}

describe.each(["Asia/Kolkata", "Asia/Kathmandu", "America/New_York", "Pacific/Pago_Pago"])("the day rollup, in %s", (timezone) => {
  it("Home and delivery analytics answer the same with the closed days rolled, and read no closed day's rows", async () => {
    const shop = await installShop({ timezone, codFailureCost: 80 });
    await seed(shop.id);
    const home = await dashboardOf(shop);
    expect(home.orders.total).toBeGreaterThan(80);
    expect(home.channels.find((c) => c.channel === "whatsapp")!.sent).toBeGreaterThan(10);
    const delivery = await Promise.all([30, 90, 365].map((days) => loadDeliveryAnalytics(shop, days)));
    const pace = await codOrdersLately(shop, NOW);
    expect(pace).toBeGreaterThan(200);

    // A shop this small has no rollup (its rows are cheap to read): asked of every shop here.
    expect(await rollUpShops(NOW)).toEqual({ rolled: 0, more: false });
    const { rolled, more } = await rollUpShops(NOW, 0);
    expect(more).toBe(false);
    // Home's 90 closed days (the experiment card's pace reads 90) and the delivery report's 365, this shop's only.
    expect(rolled).toBe(90 + 365);
    const today = shopDay(NOW, timezone);
    const stored = await prisma.dayRollup.findMany({ where: { shopId: shop.id, kind: "home" }, orderBy: { day: "asc" } });
    expect(stored.map((r) => r.day)).toEqual(Array.from({ length: 90 }, (_, i) => addDays(today, i - 90)));

    // The closed calendar months are stored whole too, to October here (November is this month).
    expect((await prisma.dayRollup.findMany({ where: { shopId: shop.id, kind: "delivery:month" }, orderBy: { day: "asc" } })).map((r) => r.day).slice(-2)).toEqual(["2026-09-01", "2026-10-01"]);

    expect(await dashboardOf(shop)).toEqual(home);
    expect(await Promise.all([30, 90, 365].map((days) => loadDeliveryAnalytics(shop, days)))).toEqual(delivery);
    expect(await codOrdersLately(shop, NOW)).toBe(pace);

    // The closed days are read from their rows no more: deleting them leaves the figures as they stood.
    const todayStart = new Date(NOW.getTime() - 12 * HOUR);
    const { count } = await prisma.orderRecord.deleteMany({ where: { shopId: shop.id, placedAt: { lt: new Date(todayStart.getTime() - DAY) } } });
    expect(count).toBeGreaterThan(100);
    expect((await dashboardOf(shop)).orders.total).toBe(home.orders.total);
    expect(await codOrdersLately(shop, NOW)).toBe(pace);
  });

  it("a closed month's row is its days added up: a day rolled again is read from its own row until the month is stored again", async () => {
    const shop = await installShop({ timezone, codFailureCost: 80 });
    await seed(shop.id);
    await rollUpShops(NOW, 0);
    // An October order's outcome learnt anew (a failure where it was delivered, or none was known), its day rolled again hours later.
    const order = await prisma.orderRecord.findFirstOrThrow({
      where: { shopId: shop.id, cod: true, placedAt: { gte: shopDayStart("2026-10-10", timezone), lt: shopDayStart("2026-10-20", timezone) } },
      orderBy: { placedAt: "asc" },
    });
    const key = { shopId_orderGid: { shopId: shop.id, orderGid: order.orderGid } };
    const outcome = (await prisma.orderOutcome.findUnique({ where: key }))?.outcome === "failed" ? "delivered" : "failed";
    await prisma.orderOutcome.upsert({ where: key, create: { shopId: shop.id, orderGid: order.orderGid, outcome, reason: "cancelled", decidedAt: NOW }, update: { outcome } });
    const before = (await loadDeliveryAnalytics(shop, 90)).totals;
    const later = new Date(NOW.getTime() + HOUR);
    await rollDay(shop, "delivery", shopDay(order.placedAt, timezone), later);
    const withDay = await Promise.all([90, 365].map((days) => loadDeliveryAnalytics(shop, days)));
    expect(withDay[0].totals.failed).toBe(before.failed + (outcome === "failed" ? 1 : -1));
    // The month is stored again from its days by the next run (October only: no other month's day changed).
    expect(await rollMonths(shop, "delivery", later)).toBe(1);
    expect(await rollMonths(shop, "delivery", later)).toBe(0);
    expect(await Promise.all([90, 365].map((days) => loadDeliveryAnalytics(shop, days)))).toEqual(withDay);
    // And both are what the rows say without any rollup.
    await prisma.dayRollup.deleteMany({ where: { shopId: shop.id } });
    const raw = await Promise.all([90, 365].map((days) => loadDeliveryAnalytics(shop, days)));
    expect(withDay).toEqual(raw);
    expect(raw[0].totals.failed).toBeGreaterThan(0);
  });

  it("rolls a settling day again after 12 hours, a settled one never; nothing is due right after a run", async () => {
    const shop = await installShop({ timezone });
    await rollUpShops(NOW, 0);
    expect(await daysToRoll(shop, "home", NOW)).toEqual([]);
    const later = new Date(NOW.getTime() + 13 * HOUR);
    const due = await daysToRoll(shop, "home", later);
    const today = shopDay(later, timezone);
    // Yesterday (new since the run, or rolled again) back to the days within the 7 days' settling.
    expect(due[0]).toBe(addDays(today, -1));
    expect(due.every((d) => d >= addDays(today, -9))).toBe(true);
    expect(due).not.toContain(addDays(today, -20));
  });
});

describe("the weeks of a span's orders", () => {
  const ZONES = ["Asia/Kolkata", "Asia/Kathmandu", "Pacific/Pago_Pago", "America/New_York", "Australia/Lord_Howe", "Pacific/Chatham", "UTC"];

  it.each(ZONES)("%s: each instant's week found among the span's midnights is its week in the zone, across daylight-saving changes", (timezone) => {
    const from = new Date("2026-01-01T00:00:00Z");
    const to = new Date("2027-01-20T00:00:00Z");
    const weekAt = weeksBetween(from, to, timezone);
    // Every 97 minutes over a year: every hour and quarter of the day, each side of every midnight and change.
    for (let t = from.getTime(); t <= to.getTime(); t += 97 * 60_000) expect(weekAt(new Date(t)), new Date(t).toISOString()).toBe(weekOf(new Date(t), timezone));
    // Each side of a Monday's midnight, to the second.
    const monday = shopDayStart("2026-11-16", timezone).getTime();
    expect(weekAt(new Date(monday - 1000))).toBe("2026-11-09");
    expect(weekAt(new Date(monday))).toBe("2026-11-16");
  });

  it.each(["Asia/Kathmandu", "Pacific/Pago_Pago"])("%s: a day of many orders counts each in the week the zone says", async (timezone) => {
    const shop = await installShop({ timezone });
    // An order every 20 minutes over Sunday 15 to Tuesday 17 November, the shop's days: Monday's midnight between them.
    const start = shopDayStart("2026-11-15", timezone).getTime();
    const placed = Array.from({ length: 216 }, (_, i) => new Date(start + i * 20 * 60_000));
    await prisma.orderRecord.createMany({ data: placed.map((at, i) => ({ shopId: shop.id, orderGid: `gid://shopify/Order/${i}`, cod: true, status: "verified", placedAt: at, createdAt: at })) });
    const span = await deliverySpan(shop, new Date(start), null);
    expect(span.tallies.week).toEqual({ "2026-11-09": [72, 0, 0], "2026-11-16": [144, 0, 0] });
    const expected: Record<string, number> = {};
    for (const at of placed) expected[weekOf(at, timezone)] = (expected[weekOf(at, timezone)] ?? 0) + 1;
    expect(Object.fromEntries(Object.entries(span.tallies.week).map(([k, t]) => [k, t[0]]))).toEqual(expected);
  });
});

describe("the daily figures' retention", () => {
  it("the hourly housekeeping deletes rolled days and daily counters past 400 days, and keeps the rest", async () => {
    const shop = await installShop();
    const day = (daysAgo: number) => new Date(NOW.getTime() - daysAgo * DAY).toISOString().slice(0, 10);
    const old = DAILY_FIGURES_KEPT_DAYS + 3;
    await prisma.dailyStat.createMany({ data: [old, 10].map((d) => ({ shopId: shop.id, metric: "otp_sent", day: day(d), dimension: "IN", count: 1 })) });
    await prisma.dayRollup.createMany({ data: [old, 10].map((d) => ({ shopId: shop.id, kind: "home", day: day(d), figures: "{}", rolledAt: NOW })) });
    await pruneDailyFigures(NOW);
    expect((await prisma.dailyStat.findMany()).map((r) => r.day)).toEqual([day(10)]);
    expect((await prisma.dayRollup.findMany()).map((r) => r.day)).toEqual([day(10)]);
  });
});

describe("the plans", () => {
  // SQLite keeps no statistics here, so its plan is the one production gets; PostgreSQL's is shown by npm run bench:growth.
  it.runIf(databaseProvider === "sqlite")("a report's rolled days are one index range (the primary key), not a scan", async () => {
    const shop = await installShop();
    const statement = sql`SELECT "day", "figures" FROM "DayRollup" WHERE "shopId" = ${shop.id} AND "kind" = ${"home"} AND "day" >= ${"2026-10-01"} AND "day" < ${"2026-11-01"} ORDER BY "day"`;
    const plan = (await query<{ detail: string }>(sql`EXPLAIN QUERY PLAN ${statement}`)).map((r) => r.detail).join("\n");
    expect(plan).toMatch(/SEARCH DayRollup USING (PRIMARY KEY|INDEX sqlite_autoindex_DayRollup_1) \(shopId=\? AND kind=\? AND day>\? AND day<\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });
});
