/**
 * Quiet hours in the shop's time zone: no text to a shopper from `start` until `end`, minutes of the day
 * in shop time (a window that wraps midnight, e.g. 21:00 to 09:00, is the usual one; either null, or both
 * equal: none). A message due inside the window waits for its end. Pure: the jobs that send call it with
 * the shop's columns (the confirmation ladder keeps its quiet hours in the same columns).
 */
import { addDays, shopDay, utcOffsetMinutes } from "~/shared/shop-day";

export type QuietHours = { quietHoursStart: number | null; quietHoursEnd: number | null; timezone: string | null };

/** The minute of the day at `at` in `timeZone` (an unknown zone reads as UTC). */
function localMinute(at: Date, timeZone: string | null): number {
  const local = Math.floor((at.getTime() + utcOffsetMinutes(at, timeZone) * 60_000) / 60_000);
  return ((local % 1440) + 1440) % 1440;
}

/** Whether `minute` (0-1439) is inside [start, end), wrapping midnight when start > end. */
export function isQuietMinute(minute: number, start: number, end: number): boolean {
  if (start === end) return false;
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

/**
 * When a message due at `now` may go: `now` outside quiet hours, else the window's end. Walks forward a
 * minute at a time from the next whole minute (at most a day), so a daylight-saving change inside the
 * window still lands on the first allowed minute.
 */
export function nextSendTime(now: Date, q: QuietHours): Date {
  const { quietHoursStart: start, quietHoursEnd: end } = q;
  if (start === null || end === null || !isQuietMinute(localMinute(now, q.timezone), start, end)) return now;
  let t = Math.ceil(now.getTime() / 60_000) * 60_000;
  for (let i = 0; i <= 26 * 60; i++, t += 60_000) {
    if (!isQuietMinute(localMinute(new Date(t), q.timezone), start, end)) return new Date(t);
  }
  return now;
}

/** The shop's date (YYYY-MM-DD) `days` calendar days after `at`'s, in its time zone (a 23- or 25-hour day still moves one date). */
export function shopDate(at: Date, timeZone: string | null, days = 0): string {
  return addDays(shopDay(at, timeZone), days);
}
