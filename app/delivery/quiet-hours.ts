/**
 * Quiet hours in the shop's time zone: no text to a shopper from `start` o'clock until `end` o'clock
 * (shop time; a window that wraps midnight, e.g. 21 to 9, is the usual one). A message due inside the
 * window waits for its end. Pure: the jobs that send call it with the shop's settings.
 */
export type QuietHours = { timeZone: string | null; start: number; end: number };

/** The hour and minute at `at` in `timeZone` (an unknown zone reads as UTC). */
function localTime(at: Date, timeZone: string | null): { hour: number; minute: number } {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat("en-GB", { timeZone: timeZone ?? "UTC", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(at);
  } catch {
    parts = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(at);
  }
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { hour: get("hour") % 24, minute: get("minute") };
}

/** Whether `hour` (0-23) is inside the window [start, end), wrapping midnight when start > end. */
export function isQuietHour(hour: number, start: number, end: number): boolean {
  if (start === end) return false;
  return start < end ? hour >= start && hour < end : hour >= start || hour < end;
}

/**
 * When a message due at `now` may go: `now` outside quiet hours, else the window's end (the first minute
 * of hour `end`, shop time). Walks forward a minute-aligned quarter hour at a time, so a daylight-saving
 * change inside the window still lands on the first allowed quarter hour.
 */
export function nextSendTime(now: Date, quiet: QuietHours): Date {
  const { start, end } = quiet;
  if (!isQuietHour(localTime(now, quiet.timeZone).hour, start, end)) return now;
  const step = 15 * 60_000;
  let t = Math.ceil(now.getTime() / step) * step;
  for (let i = 0; i < 4 * 26; i++, t += step) {
    if (!isQuietHour(localTime(new Date(t), quiet.timeZone).hour, start, end)) return new Date(t);
  }
  return now;
}

/** The shop's date (YYYY-MM-DD) `days` days after `at`, in its time zone. */
export function shopDate(at: Date, timeZone: string | null, days = 0): string {
  const later = new Date(at.getTime() + days * 24 * 3600_000);
  try {
    return new Intl.DateTimeFormat("en-CA", { timeZone: timeZone ?? "UTC", year: "numeric", month: "2-digit", day: "2-digit" }).format(later);
  } catch {
    return later.toISOString().slice(0, 10);
  }
}
