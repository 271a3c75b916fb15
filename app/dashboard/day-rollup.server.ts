import { z } from "zod";
import { prisma } from "~/core/db.server";
import { execute, query, sql, sqlList, toDate } from "~/core/db/sql.server";
import { defineJob, enqueueJob } from "~/core/jobs/queue.server";
import { clock } from "~/core/utils/clock.server";
import { addDays, nextMonthStart, shopDay, shopDayStart } from "~/shared/shop-day";
import { addDeliverySpan, deliverySpan, emptyDeliverySpan, type DeliverySpan } from "./delivery-span.server";
import { homeSpan, type HomeSpan } from "./home-span.server";

/**
 * The admin's reports over closed days (docs/performance.md, "As a shop grows"): Home's 30 days and delivery
 * analytics' periods read one row a day of the shop's calendar (`DayRollup`) instead of the day's orders and
 * messages, so a page reads at most a period's days of rows, however many orders a day brings. Today, and
 * any closed day without a row yet, are read from the rows themselves, as before: a page is exact without
 * the rollup and only faster with it.
 *
 * A day is rolled once closed and rolled again while it settles (an order verified by its confirmation
 * after purchase, an outcome learnt days later): until `settleDays` after its end, at most every
 * `REROLL_MS`. After that its row stands as the figures stood then.
 */
export type RollupKind = "home" | "delivery";

export const ROLLUPS: Record<RollupKind, { days: number; settleDays: number; months: boolean }> = {
  // Home shows the last 30 days; a confirmation after purchase settles within the ladder's days.
  home: { days: 30, settleDays: 7, months: false },
  // Delivery analytics' longest period; outcomes (delivered, failed) arrive weeks after the order. A settled
  // calendar month is also stored whole (its days added up), so a year reads about 11 months and 60 days.
  delivery: { days: 365, settleDays: 35, months: true },
};

/** A settled month's row: its kind, keyed by the month's first day. */
const monthKind = (kind: RollupKind) => `${kind}:month`;

/** A settling day's row is rolled again at most this often. */
const REROLL_MS = 12 * 3600_000;

type RollupShop = { id: string; timezone: string | null };
type Figures = { home: HomeSpan; delivery: DeliverySpan };

/** How each report's figures of one span are read (the report's own query, bounded by the span; to now when `to` is null). */
const ROLLERS: { [K in RollupKind]: (shop: RollupShop, from: Date, to: Date | null) => Promise<Figures[K]> } = {
  home: homeSpan,
  delivery: (shop, from, to) => deliverySpan(shop, from, to),
};

/**
 * A report's figures from the instant `from` to now, as spans to add up: the part of `from`'s day after it
 * (read from the rows), the stored closed days in order, and the rest read from the rows, from the first day
 * without a row (or today) to now. With no day stored, one read from `from` to now, as before the rollup.
 */
export async function rolledUp<K extends RollupKind>(shop: RollupShop, kind: K, from: Date, now: Date): Promise<Figures[K][]> {
  const read = ROLLERS[kind] as (shop: RollupShop, from: Date, to: Date | null) => Promise<Figures[K]>;
  const today = shopDay(now, shop.timezone);
  let first = shopDay(from, shop.timezone);
  // A period that starts inside a day: that day's part is read from the rows, the stored days start the next.
  const partial = shopDayStart(first, shop.timezone).getTime() < from.getTime();
  if (partial) first = addDays(first, 1);
  const kinds = ROLLUPS[kind].months ? [kind, monthKind(kind)] : [kind];
  const rows = await query<{ kind: string; day: string; figures: string }>(sql`
    SELECT "kind", "day", "figures" FROM "DayRollup" WHERE "shopId" = ${shop.id} AND "kind" IN (${sqlList(kinds)}) AND "day" >= ${first} AND "day" < ${today}`);
  const stored = new Map(rows.map((r) => [`${r.kind} ${r.day}`, r.figures]));
  const days: Figures[K][] = [];
  let liveDay = first;
  while (liveDay < today) {
    // A whole settled month where one starts, else the day; a gap (a day not rolled yet) ends the stored part.
    const month = stored.get(`${monthKind(kind)} ${liveDay}`);
    const day = month === undefined ? stored.get(`${kind} ${liveDay}`) : undefined;
    if (month !== undefined) {
      days.push(JSON.parse(month) as Figures[K]);
      liveDay = nextMonthStart(liveDay);
    } else if (day !== undefined) {
      days.push(JSON.parse(day) as Figures[K]);
      liveDay = addDays(liveDay, 1);
    } else break;
  }
  if (!days.length) return [await read(shop, from, null)];
  const liveFrom = shopDayStart(liveDay, shop.timezone);
  const [head, live] = await Promise.all([partial ? read(shop, from, shopDayStart(first, shop.timezone)) : null, read(shop, liveFrom, null)]);
  return [...(head ? [head] : []), ...days, live];
}

/** Rolls (or rolls again) one closed day of one report. */
export async function rollDay(shop: RollupShop, kind: RollupKind, day: string, now: Date = clock.now()): Promise<void> {
  const figures = JSON.stringify(await ROLLERS[kind](shop, shopDayStart(day, shop.timezone), shopDayStart(addDays(day, 1), shop.timezone)));
  await execute(sql`
    INSERT INTO "DayRollup" ("shopId", "kind", "day", "figures", "rolledAt") VALUES (${shop.id}, ${kind}, ${day}, ${figures}, ${now})
    ON CONFLICT ("shopId", "kind", "day") DO UPDATE SET "figures" = excluded."figures", "rolledAt" = excluded."rolledAt"`);
}

/** The closed days of one shop's report that want a row: none yet, or rolled while settling and long enough ago. Newest first. */
export async function daysToRoll(shop: RollupShop, kind: RollupKind, now: Date): Promise<string[]> {
  const { days, settleDays } = ROLLUPS[kind];
  const today = shopDay(now, shop.timezone);
  const first = addDays(today, -days);
  const rows = await query<{ day: string; rolledAt: unknown }>(sql`
    SELECT "day", "rolledAt" FROM "DayRollup" WHERE "shopId" = ${shop.id} AND "kind" = ${kind} AND "day" >= ${first}`);
  const rolled = new Map(rows.map((r) => [r.day, toDate(r.rolledAt).getTime()]));
  const out: string[] = [];
  for (let day = addDays(today, -1); day >= first; day = addDays(day, -1)) {
    const at = rolled.get(day);
    if (at === undefined) {
      out.push(day);
      continue;
    }
    const settledAt = shopDayStart(addDays(day, 1 + settleDays), shop.timezone).getTime();
    if (at < settledAt && now.getTime() - at >= REROLL_MS) out.push(day);
  }
  return out;
}

/** Stores each settled calendar month of the report whole, from its stored days (all of them, or none is stored). */
export async function rollMonths(shop: RollupShop, kind: RollupKind, now: Date = clock.now()): Promise<number> {
  const { days, settleDays, months } = ROLLUPS[kind];
  if (!months) return 0;
  const today = shopDay(now, shop.timezone);
  const first = addDays(today, -days);
  const settled = addDays(today, -settleDays);
  const rows = await query<{ kind: string; day: string; figures: string }>(sql`
    SELECT "kind", "day", "figures" FROM "DayRollup" WHERE "shopId" = ${shop.id} AND "kind" IN (${sqlList([kind, monthKind(kind)])}) AND "day" >= ${first}`);
  const done = new Set(rows.filter((r) => r.kind !== kind).map((r) => r.day));
  const dayRows = new Map(rows.filter((r) => r.kind === kind).map((r) => [r.day, r.figures]));
  let stored = 0;
  for (let month = first.endsWith("-01") ? first : nextMonthStart(first); nextMonthStart(month) <= settled; month = nextMonthStart(month)) {
    if (done.has(month)) continue;
    const figures: string[] = [];
    for (let day = month; day < nextMonthStart(month); day = addDays(day, 1)) {
      const f = dayRows.get(day);
      if (f !== undefined) figures.push(f);
    }
    if (figures.length !== Math.round((Date.parse(nextMonthStart(month)) - Date.parse(month)) / 86_400_000)) continue;
    const whole = figures.map((f) => JSON.parse(f) as DeliverySpan).reduce(addDeliverySpan, emptyDeliverySpan());
    await execute(sql`
      INSERT INTO "DayRollup" ("shopId", "kind", "day", "figures", "rolledAt") VALUES (${shop.id}, ${monthKind(kind)}, ${month}, ${JSON.stringify(whole)}, ${now})
      ON CONFLICT ("shopId", "kind", "day") DO NOTHING`);
    stored++;
  }
  return stored;
}

/**
 * A shop with fewer COD-year orders than this has no rollup: its pages read a year of its rows in a few
 * milliseconds, and a thousand small shops would otherwise cost a year of days each.
 */
export const ROLL_FROM_ORDERS = 5_000;
/** One run's time: a shop's first year of days is rolled over several runs, a few seconds apart. */
const RUN_BUDGET_MS = 20_000;
/** The next run, when the last one left days to roll, and when it did not. */
const BACKLOG_EVERY_MS = 5_000;
export const DAY_ROLLUP_EVERY_MS = 600_000;

/** Whether the shop has at least `minOrders` orders in the last 365 days (an index range that stops there). */
async function busyEnough(shop: RollupShop, now: Date, minOrders: number): Promise<boolean> {
  if (minOrders <= 0) return true;
  const [row] = await query<{ n: unknown }>(sql`
    SELECT COUNT(*) AS "n" FROM (SELECT 1 FROM "OrderRecord" WHERE "shopId" = ${shop.id} AND "placedAt" >= ${new Date(now.getTime() - 365 * 86_400_000)} LIMIT ${minOrders}) AS "o"`);
  return Number(row?.n ?? 0) >= minOrders;
}

/** One run over every installed shop busy enough: the days each report wants, newest first, for at most RUN_BUDGET_MS. */
export async function rollUpShops(now: Date = clock.now(), minOrders = ROLL_FROM_ORDERS): Promise<{ rolled: number; more: boolean }> {
  const started = Date.now();
  const shops = await prisma.shop.findMany({ where: { uninstalledAt: null }, select: { id: true, timezone: true }, orderBy: { id: "asc" } });
  let rolled = 0;
  for (const shop of shops) {
    if (!(await busyEnough(shop, now, minOrders))) continue;
    for (const kind of Object.keys(ROLLUPS) as RollupKind[]) {
      for (const day of await daysToRoll(shop, kind, now)) {
        if (Date.now() - started >= RUN_BUDGET_MS) return { rolled, more: true };
        await rollDay(shop, kind, day, now);
        rolled++;
      }
      await rollMonths(shop, kind, now);
    }
  }
  return { rolled, more: false };
}

const rollupPayload = z.object({ runAt: z.string().datetime() });

/** Rolls the days that closed since (each shop's midnight in its own time zone) and the settling ones; queues its own next run. */
export const dayRollupJob = defineJob({
  kind: "analytics.day-rollup",
  payload: rollupPayload,
  maxAttempts: 5,
  // One row, re-queued by each run and by the hourly housekeeping: a later run wins (as the retention job's).
  merge: (queued, incoming) => (incoming.runAt > queued.runAt ? incoming : null),
  run: async () => {
    const { more } = await rollUpShops();
    await scheduleDayRollup(new Date(clock.now().getTime() + (more ? BACKLOG_EVERY_MS : DAY_ROLLUP_EVERY_MS)));
    return { ok: true };
  },
});

/** Queues the rollup's next run (by the run itself, and by every instance's hourly housekeeping, which starts it on a new database). */
export async function scheduleDayRollup(runAt: Date = clock.now()): Promise<void> {
  await enqueueJob(dayRollupJob, { shop: "*", key: "global", payload: { runAt: runAt.toISOString() }, runAt });
}

/** Rolled days are kept this long (the longest report reads 365 days); the daily counters as long. */
export const DAILY_FIGURES_KEPT_DAYS = 400;

/** Deletes rolled days and daily counters past DAILY_FIGURES_KEPT_DAYS (the hourly housekeeping): both tables stay a bounded number of days a shop. */
export async function pruneDailyFigures(now: Date = clock.now()): Promise<void> {
  // A UTC date a day earlier than any shop's date of that instant: no shop loses a day it still reads.
  const before = addDays(shopDay(now, "UTC"), -(DAILY_FIGURES_KEPT_DAYS + 1));
  await execute(sql`DELETE FROM "DayRollup" WHERE "day" < ${before}`);
  await execute(sql`DELETE FROM "DailyStat" WHERE "day" < ${before}`);
}
