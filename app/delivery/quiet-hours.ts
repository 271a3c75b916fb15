/**
 * Quiet hours in the shop's time zone: no text to a shopper from `start` until `end`, minutes of the day
 * in shop time (a window that wraps midnight, e.g. 21:00 to 09:00, is the usual one; either null, or both
 * equal: none). A message due inside the window waits for its end. Pure: the jobs that send call it with
 * the shop's columns (the confirmation ladder keeps its quiet hours in the same columns).
 */
import { utcDay } from "~/shared/daily-metrics";

export type QuietHours = { quietHoursStart: number | null; quietHoursEnd: number | null; timezone: string | null };

/** The minute of the day at `at` in `timeZone` (an unknown zone reads as UTC). */
function localMinute(at: Date, timeZone: string | null): number {
  const format = (zone: string) => new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(at);
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = format(timeZone ?? "UTC");
  } catch {
    parts = format("UTC");
  }
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return (get("hour") % 24) * 60 + get("minute");
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

/** The shop's date (YYYY-MM-DD) `days` days after `at`, in its time zone. */
export function shopDate(at: Date, timeZone: string | null, days = 0): string {
  const later = new Date(at.getTime() + days * 24 * 3600_000);
  try {
    return new Intl.DateTimeFormat("en-CA", { timeZone: timeZone ?? "UTC", year: "numeric", month: "2-digit", day: "2-digit" }).format(later);
  } catch {
    return utcDay(later);
  }
}
