import { addDays, lastShopDaysStart, shopDay, shopDayStart } from "~/shared/shop-day";

/**
 * The holdout experiment's days are the shop's calendar days (app/shared/shop-day.ts), whatever the hour
 * it starts and however long a day is where daylight saving changes. Pure: the server and the report
 * page's numbers come from here.
 */

/**
 * When an experiment started at `startedAt` for `days` days stops: at the shop's midnight that ends the
 * `days`-th whole day after the start day. The rest of the start day comes on top, so a period of N days
 * always runs at least N whole days of the shop's (what the Settings card's reach assumes) and ends at
 * a day's end, never mid-afternoon.
 */
export function experimentEnd(startedAt: Date, days: number, timezone: string | null | undefined): Date {
  return shopDayStart(addDays(shopDay(startedAt, timezone), days + 1), timezone);
}

/** The days an experiment covers, as the shop reads them: its first and its last (null while it runs without an end). */
export type ExperimentDays = { first: string; last: string | null };

/** The first day and the last: the day of the stop, or the day before the end's midnight. */
export function experimentDays(startedAt: Date, end: Date | null, timezone: string | null | undefined): ExperimentDays {
  return { first: shopDay(startedAt, timezone), last: end ? shopDay(Math.max(startedAt.getTime(), end.getTime() - 1), timezone) : null };
}

/** Whole calendar days from `from` to `to` ("2026-11-29" to "2026-12-01": 2). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * The shop days an experiment has run by `until`, the start day and `until`'s day each counted whole: the
 * pace's denominator (resolved orders per day). One on the start day.
 */
export function shopDaysRun(startedAt: Date, until: Date, timezone: string | null | undefined): number {
  const { first, last } = experimentDays(startedAt, until, timezone);
  return Math.max(1, daysBetween(first, last!) + 1);
}

/** The first instant of the window the store's pace is read over: `paceDays` shop days, today the last of them. */
export function paceWindowStart(now: Date, paceDays: number, timezone: string | null | undefined): Date {
  return lastShopDaysStart(now, paceDays, timezone);
}
