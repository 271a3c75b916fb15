/**
 * A shop's day is the shop's: the calendar date, month and midnight in the store's time zone (Shopify's
 * `ianaTimezone`, kept on the shop as `timezone`). Every date the product computes for a shop (the daily
 * counts, the daily cap, the allowance's month, quiet hours, delivery-day reminders, the reports' days)
 * comes from here. A shop whose zone is not known yet (or a zone this runtime does not know) reads as UTC.
 * Pure: no clock, no database; the browser may bundle it.
 */

/** What a shop's dates need of its row. */
export type ShopZone = { id: string; timezone: string | null };

/** The formatters made so far, by zone (making one is the dear part; formatting with it is cheap). */
const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterOf(timezone: string | null | undefined): Intl.DateTimeFormat | null {
  if (!timezone || timezone === "UTC") return null;
  let formatter = formatters.get(timezone);
  if (formatter === undefined) {
    try {
      formatter = new Intl.DateTimeFormat("en-US", { timeZone: timezone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
    } catch {
      formatter = null;
    }
    if (formatters.size >= 500) formatters.clear();
    formatters.set(timezone, formatter);
  }
  return formatter;
}

/**
 * The offsets read lately, by zone and quarter hour of UTC: reading one from the runtime's time zone
 * database costs tens of microseconds, and a request asks for the same few. Zones change offset on a
 * quarter hour of UTC (every change in force today does), so a quarter hour has one offset.
 */
const offsets = new Map<string, number>();
const QUARTER_HOUR = 15 * 60_000;

/** The zone's offset from UTC at `at`, in minutes (330 for Asia/Kolkata, -300 for New York in winter). */
export function utcOffsetMinutes(at: Date | number, timezone: string | null | undefined): number {
  const formatter = formatterOf(timezone);
  if (!formatter) return 0;
  const ms = typeof at === "number" ? at : at.getTime();
  const key = `${timezone}|${Math.floor(ms / QUARTER_HOUR)}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    const slot = Math.floor(ms / QUARTER_HOUR) * QUARTER_HOUR;
    const parts: Record<string, number> = {};
    for (const part of formatter.formatToParts(slot)) if (part.type !== "literal") parts[part.type] = Number(part.value);
    const local = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour % 24, parts.minute, parts.second);
    offset = Math.round((local - slot) / 60_000);
    if (offsets.size >= 5_000) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

/** The shop's calendar date at `at` ("2026-11-29"), as DailyStat and every daily key store it. */
export function shopDay(at: Date | number, timezone: string | null | undefined): string {
  const ms = typeof at === "number" ? at : at.getTime();
  return new Date(ms + utcOffsetMinutes(ms, timezone) * 60_000).toISOString().slice(0, 10);
}

/** The first day of the shop's month at `at` ("2026-11-01"): the allowance's month. */
export function shopMonthStart(at: Date | number, timezone: string | null | undefined): string {
  return `${shopDay(at, timezone).slice(0, 7)}-01`;
}

/** `day` ("2026-11-29") moved by `days` calendar days. */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** The first day of the month after `day`'s. */
export function nextMonthStart(day: string): string {
  const [y, m] = day.split("-").map(Number);
  return new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
}

/**
 * The first instant of the shop's day `day`: its midnight, or where a daylight-saving change skips
 * midnight, the first minute that exists. Found by halving the 26 hours in which it must lie (every zone
 * is between UTC-12 and UTC+14), so no rule about the zone's changes is assumed.
 */
export function shopDayStart(day: string, timezone: string | null | undefined): Date {
  const [y, m, d] = day.split("-").map(Number);
  const utcMidnight = Date.UTC(y, m - 1, d);
  if (!formatterOf(timezone)) return new Date(utcMidnight);
  let before = utcMidnight - 14 * 3600_000 - 60_000;
  let after = utcMidnight + 12 * 3600_000;
  while (after - before > 60_000) {
    const mid = before + Math.floor((after - before) / 120_000) * 60_000;
    if (shopDay(mid, timezone) >= day) after = mid;
    else before = mid;
  }
  return new Date(after);
}

/**
 * Where a "last `days` days" figure starts: the first instant of the last `days` shop days, today the
 * last of them (today and the `days` - 1 before, from the first one's midnight in the shop's zone).
 */
export function lastShopDaysStart(at: Date | number, days: number, timezone: string | null | undefined): Date {
  return shopDayStart(addDays(shopDay(at, timezone), 1 - days), timezone);
}

/** The next start of a shop day after `at`: when a daily count starts again. */
export function nextShopMidnight(at: Date | number, timezone: string | null | undefined): Date {
  return shopDayStart(addDays(shopDay(at, timezone), 1), timezone);
}

/**
 * The zone's UTC offsets from `from` to `until`: `[[start, minutes], ...]` (epoch seconds, each offset in
 * force from its start to the next one's). Sampled every 6 hours and each change found to the minute by
 * halving; zones change offset at most a few times a year, months apart.
 */
export function utcOffsetSpans(timezone: string | null | undefined, from: Date, until: Date): [number, number][] {
  const step = 6 * 3600_000;
  let t = Math.floor(from.getTime() / 60_000) * 60_000;
  let offset = utcOffsetMinutes(t, timezone);
  const spans: [number, number][] = [[t / 1000, offset]];
  for (; t < until.getTime(); t += step) {
    const next = utcOffsetMinutes(t + step, timezone);
    if (next === offset) continue;
    let before = t;
    let after = t + step;
    while (after - before > 60_000) {
      const mid = before + Math.floor((after - before) / 120_000) * 60_000;
      if (utcOffsetMinutes(mid, timezone) === offset) before = mid;
      else after = mid;
    }
    offset = next;
    spans.push([after / 1000, next]);
  }
  return spans;
}
