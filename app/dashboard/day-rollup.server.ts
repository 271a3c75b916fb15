import { z } from "zod";
import { prisma } from "~/core/db.server";
import { execute, joinSql, query, sql, sqlList, toDate } from "~/core/db/sql.server";
import { defineJob, enqueueJob } from "~/core/jobs/queue.server";
import { clock } from "~/core/utils/clock.server";
import { addDays, nextMonthStart, shopDay, shopDayStart } from "~/shared/shop-day";
import { addDeliverySpan, deliverySpan, emptyDeliverySpan, type DeliverySpan } from "./delivery-span.server";
import { homeSpan, type HomeSpan } from "./home-span.server";

/**
 * The admin's reports over closed days (docs/performance.md, "As a shop grows"): Home's 30 days, the experiment
 * card's 90 days of COD orders and delivery analytics' periods read one row a day of the shop's calendar
 * (`DayRollup`; a closed month's days as one row) instead of the day's orders and messages, so a page reads
 * at most a period's days of rows, however many orders a day brings. Today, and
 * any closed day without a row yet, are read from the rows themselves, as before: a page is exact without
 * the rollup and only faster with it.
 *
 * A day is rolled once closed and rolled again while it settles (an order verified by its confirmation
 * after purchase, an outcome learnt days later): until `settleDays` after its end, at most every
 * `REROLL_MS`. After that its row stands as the figures stood then.
 */
export type RollupKind = "home" | "delivery";

export const ROLLUPS: Record<RollupKind, { days: number; settleDays: number; months: boolean }> = {
  // Home shows the last 30 days, the experiment card's pace counts 90; a confirmation after purchase settles
  // within the ladder's days.
  home: { days: 90, settleDays: 7, months: false },
  // Delivery analytics' longest period; outcomes (delivered, failed) arrive weeks after the order. A closed
  // calendar month is also stored whole (its days added up, again whenever one of them is rolled again), so a
  // year reads about 12 months and 30 days.
  delivery: { days: 365, settleDays: 35, months: true },
};

/** A closed month's row: its kind, keyed by the month's first day. */
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

/** A figure read both ways: from the rows of a span, and from a stored day's (or month's) figures. */
export type RollupReader<K extends RollupKind, T> = { span: (shop: RollupShop, from: Date, to: Date | null) => Promise<T>; stored: (figures: Figures[K]) => T };

/** A month's first day, of a day. */
const monthOf = (day: string) => `${day.slice(0, 7)}-01`;

/**
 * The stored rows that cover a report's closed days from `first`, in order, and the first day they leave to
 * the rows (a gap: a day not rolled yet, or today). A month's row where one starts and it closed before
 * today, unless one of its days was rolled after it (it is rebuilt by the next run); else the day's row.
 * Only the keys and times are read here: the figures of the rows chosen, and of no other, are read next.
 */
async function storedCover(shop: RollupShop, kind: RollupKind, first: string, today: string): Promise<{ keys: { kind: string; day: string }[]; liveDay: string }> {
  const kinds = ROLLUPS[kind].months ? [kind, monthKind(kind)] : [kind];
  const rows = await query<{ kind: string; day: string; rolledAt: unknown }>(sql`
    SELECT "kind", "day", "rolledAt" FROM "DayRollup" WHERE "shopId" = ${shop.id} AND "kind" IN (${sqlList(kinds)}) AND "day" >= ${first} AND "day" < ${today}`);
  const days = new Set<string>();
  const months = new Map<string, number>();
  const newestDayOfMonth = new Map<string, number>();
  for (const r of rows) {
    const at = toDate(r.rolledAt).getTime();
    if (r.kind === kind) {
      days.add(r.day);
      newestDayOfMonth.set(monthOf(r.day), Math.max(at, newestDayOfMonth.get(monthOf(r.day)) ?? 0));
    } else months.set(r.day, at);
  }
  const keys: { kind: string; day: string }[] = [];
  let liveDay = first;
  while (liveDay < today) {
    const month = months.get(liveDay);
    if (month !== undefined && nextMonthStart(liveDay) <= today && month >= (newestDayOfMonth.get(liveDay) ?? 0)) {
      keys.push({ kind: monthKind(kind), day: liveDay });
      liveDay = nextMonthStart(liveDay);
    } else if (days.has(liveDay)) {
      keys.push({ kind, day: liveDay });
      liveDay = addDays(liveDay, 1);
    } else break;
  }
  return { keys, liveDay };
}

/** The figures of the stored rows `keys` (of one report, in day order), in their order: one range of days per run of one kind. */
async function storedFigures(shop: RollupShop, keys: { kind: string; day: string }[]): Promise<string[]> {
  if (!keys.length) return [];
  const runs: { kind: string; from: string; to: string }[] = [];
  for (const k of keys) {
    const last = runs.at(-1);
    if (last?.kind === k.kind) last.to = k.day;
    else runs.push({ kind: k.kind, from: k.day, to: k.day });
  }
  const rows = await query<{ kind: string; day: string; figures: string }>(sql`
    SELECT "kind", "day", "figures" FROM "DayRollup" WHERE "shopId" = ${shop.id} AND (${joinSql(
      runs.map((r) => sql`("kind" = ${r.kind} AND "day" >= ${r.from} AND "day" <= ${r.to})`),
      " OR ",
    )})`);
  const figures = new Map(rows.map((r) => [`${r.kind} ${r.day}`, r.figures]));
  return keys.map((k) => {
    const f = figures.get(`${k.kind} ${k.day}`);
    // Deleted between the two reads (the retention's prune runs on days no period reads): never expected.
    if (f === undefined) throw new Error(`day rollup: ${k.kind} ${k.day} went missing`);
    return f;
  });
}

/**
 * A report's figures from the instant `from` to now, as spans to add up: the part of `from`'s day after it
 * (read from the rows), the stored closed days and months in order, and the rest read from the rows, from the
 * first day without a row (or today) to now. With no day stored, one read from `from` to now, as before the
 * rollup. `read` reads another figure than the report's own from the same rows (both ways, alike).
 */
export async function rolledUp<K extends RollupKind, T = Figures[K]>(
  shop: RollupShop,
  kind: K,
  from: Date,
  now: Date,
  read: RollupReader<K, T> = { span: ROLLERS[kind] as unknown as RollupReader<K, T>["span"], stored: (f) => f as unknown as T },
): Promise<T[]> {
  const today = shopDay(now, shop.timezone);
  let first = shopDay(from, shop.timezone);
  // A period that starts inside a day: that day's part is read from the rows, the stored days start the next.
  const partial = shopDayStart(first, shop.timezone).getTime() < from.getTime();
  if (partial) first = addDays(first, 1);
  const { keys, liveDay } = await storedCover(shop, kind, first, today);
  if (!keys.length) return [await read.span(shop, from, null)];
  const liveFrom = shopDayStart(liveDay, shop.timezone);
  const [head, figures, live] = await Promise.all([
    partial ? read.span(shop, from, shopDayStart(first, shop.timezone)) : null,
    storedFigures(shop, keys),
    read.span(shop, liveFrom, null),
  ]);
  return [...(head ? [head] : []), ...figures.map((f) => read.stored(JSON.parse(f) as Figures[K])), live];
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

/**
 * Stores each closed calendar month of the report whole, from its stored days (all of them, or none is
 * stored), and stores it again when one of its days was rolled after it (a settling day): a month's row is
 * always its days added up. Reads the days' figures only of the months it (re)builds.
 */
export async function rollMonths(shop: RollupShop, kind: RollupKind, now: Date = clock.now()): Promise<number> {
  const { days, months } = ROLLUPS[kind];
  if (!months) return 0;
  const today = shopDay(now, shop.timezone);
  const first = addDays(today, -days);
  const rows = await query<{ kind: string; day: string; rolledAt: unknown }>(sql`
    SELECT "kind", "day", "rolledAt" FROM "DayRollup" WHERE "shopId" = ${shop.id} AND "kind" IN (${sqlList([kind, monthKind(kind)])}) AND "day" >= ${first}`);
  const monthRolled = new Map(rows.filter((r) => r.kind !== kind).map((r) => [r.day, toDate(r.rolledAt).getTime()]));
  const dayRolled = new Map(rows.filter((r) => r.kind === kind).map((r) => [r.day, toDate(r.rolledAt).getTime()]));
  let stored = 0;
  for (let month = first.endsWith("-01") ? first : nextMonthStart(first); nextMonthStart(month) <= today; month = nextMonthStart(month)) {
    const monthDays: string[] = [];
    for (let day = month; day < nextMonthStart(month); day = addDays(day, 1)) monthDays.push(day);
    if (!monthDays.every((d) => dayRolled.has(d))) continue;
    const newest = Math.max(...monthDays.map((d) => dayRolled.get(d)!));
    const rolled = monthRolled.get(month);
    if (rolled !== undefined && rolled >= newest) continue;
    const figures = await storedFigures(shop, monthDays.map((day) => ({ kind, day })));
    const whole = figures.map((f) => JSON.parse(f) as DeliverySpan).reduce(addDeliverySpan, emptyDeliverySpan());
    // Never older than its days: a reader takes the month only when none of them was rolled after it.
    const at = new Date(Math.max(now.getTime(), newest));
    await execute(sql`
      INSERT INTO "DayRollup" ("shopId", "kind", "day", "figures", "rolledAt") VALUES (${shop.id}, ${monthKind(kind)}, ${month}, ${JSON.stringify(whole)}, ${at})
      ON CONFLICT ("shopId", "kind", "day") DO UPDATE SET "figures" = excluded."figures", "rolledAt" = excluded."rolledAt"`);
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
