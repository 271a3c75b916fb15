import { addDays, utcOffsetMinutes } from "~/shared/shop-day";
import { daysBetween, experimentDays, experimentEnd, paceWindowStart, shopDaysRun } from "./period";

/**
 * The experiment's days are the shop's, swept over one zone for every UTC offset in use (UTC-12:00 to
 * UTC+14:00, the quarter and half hours among them) and zones whose clocks change, a start every hour of a
 * month-end day and of the days around each change: a period of N days ends at the shop's midnight after
 * its N-th whole day, the report's first and last days, the pace's days run and the 90 days the Settings
 * card reads are the zone's own calendar's (read with the runtime's time zone database, not shop-day's).
 */
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const calendars = new Map<string, Intl.DateTimeFormat>();
const calendarDay = (ms: number, zone: string) => {
  if (!calendars.has(zone)) calendars.set(zone, new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }));
  return calendars.get(zone)!.format(ms);
};

const MONTH_END = Date.UTC(2026, 10, 30); // 30 November, UTC: the month ends somewhere within the next 38 hours
/** One zone per offset in force at the month's end, then zones whose clocks change in the year. */
const BY_OFFSET = new Map<number, string>();
for (const zone of [...Intl.supportedValuesOf("timeZone"), "Etc/GMT+12", "Etc/GMT-14"]) {
  const offset = utcOffsetMinutes(MONTH_END, zone);
  if (!BY_OFFSET.has(offset)) BY_OFFSET.set(offset, zone);
}
const DST_ZONES = ["America/New_York", "Europe/London", "America/Santiago", "Australia/Lord_Howe", "Pacific/Chatham", "America/St_Johns", "America/Havana", "Africa/Casablanca"];

/** Each hour of two days from `from`. */
const hours = (from: number) => Array.from({ length: 48 }, (_, i) => from + i * HOUR);

/** The zone's 2026 offset changes (read every 3 hours). */
function changes(zone: string): number[] {
  const found: number[] = [];
  let before = utcOffsetMinutes(Date.UTC(2026, 0, 1), zone);
  for (let t = Date.UTC(2026, 0, 1) + 3 * HOUR; t < Date.UTC(2027, 0, 1); t += 3 * HOUR) {
    const now = utcOffsetMinutes(t, zone);
    if (now !== before) found.push(t);
    before = now;
  }
  return found;
}

function checkPeriod(zone: string, start: number, wrong: string[]) {
  const startDay = calendarDay(start, zone);
  for (const days of [1, 7, 30]) {
    const end = experimentEnd(new Date(start), days, zone).getTime();
    const lastDay = addDays(startDay, days);
    const where = `${zone} from ${new Date(start).toISOString()} for ${days}`;
    // It ends at a midnight of the shop's: the instant before is its last day, the instant of it the next.
    if (calendarDay(end - 1000, zone) !== lastDay || calendarDay(end, zone) !== addDays(lastDay, 1)) wrong.push(`${where}: ends ${new Date(end).toISOString()}`);
    // At least N whole days of the shop's (a day that loses an hour to daylight saving is still a day).
    if (end - start < days * DAY - HOUR) wrong.push(`${where}: only ${(end - start) / HOUR} hours`);
    const period = experimentDays(new Date(start), new Date(end), zone);
    if (period.first !== startDay || period.last !== lastDay) wrong.push(`${where}: report says ${period.first}–${period.last}`);
    // Stopped at any hour of its period: the last day is the one the stop ends (a stop at midnight ends the day before).
    const stop = start + Math.floor(((end - start) * 2) / 3);
    if (experimentDays(new Date(start), new Date(stop), zone).last !== calendarDay(stop - 1, zone)) wrong.push(`${where}: stopped, report's last day`);
  }
  // The pace's denominator: the shop days from the start's to the one now ends (a midnight ends the day before), both counted whole.
  for (const later of [0, HOUR, 11 * HOUR, DAY - HOUR, DAY, 3 * DAY + 5 * HOUR, 40 * DAY]) {
    const now = start + later;
    const expected = daysBetween(startDay, calendarDay(Math.max(start, now - 1), zone)) + 1;
    if (shopDaysRun(new Date(start), new Date(now), zone) !== expected) wrong.push(`${zone} days run from ${new Date(start).toISOString()} to ${new Date(now).toISOString()}`);
  }
  // The Settings card's 90 days: today and the 89 before, from the first instant of the first.
  const window = paceWindowStart(new Date(start), 90, zone).getTime();
  if (calendarDay(window, zone) !== addDays(startDay, -89) || calendarDay(window - 1000, zone) !== addDays(startDay, -90)) wrong.push(`${zone} pace window at ${new Date(start).toISOString()}`);
}

describe("the experiment's days are the shop's", () => {
  it(`in one zone per offset (${BY_OFFSET.size}), a start every hour of the two days around the month's end`, () => {
    const wrong: string[] = [];
    for (const zone of BY_OFFSET.values()) for (const start of hours(MONTH_END - 6 * HOUR)) checkPeriod(zone, start, wrong);
    expect(wrong).toEqual([]);
    // The sweep reached both ends of the world and its quarter and half hours.
    for (const minutes of [-720, -570, -210, 0, 330, 345, 525, 825, 840]) expect([...BY_OFFSET.keys()], `offset ${minutes}`).toContain(minutes);
  });

  it.each(DST_ZONES)("%s: a start every hour of the days around each clock change", (zone) => {
    const wrong: string[] = [];
    for (const change of changes(zone)) for (const start of hours(change - DAY)) checkPeriod(zone, start, wrong);
    expect(changes(zone).length).toBeGreaterThan(0);
    expect(wrong).toEqual([]);
  });

  it("a period ends after its last whole day, the start day's rest on top", () => {
    // 23:30 in Kolkata on 30 November (18:00 UTC), for 1 day: to the end of 1 December, 2 December's midnight (18:30 UTC on the 1st).
    expect(experimentEnd(new Date("2026-11-30T18:00:00Z"), 1, "Asia/Kolkata").toISOString()).toBe("2026-12-01T18:30:00.000Z");
    expect(experimentDays(new Date("2026-11-30T18:00:00Z"), new Date("2026-12-01T18:30:00Z"), "Asia/Kolkata")).toEqual({ first: "2026-11-30", last: "2026-12-01" });
    expect(experimentDays(new Date("2026-11-30T18:00:00Z"), null, "Asia/Kolkata")).toEqual({ first: "2026-11-30", last: null });
    // A shop whose zone is not known yet keeps UTC's days.
    expect(experimentEnd(new Date("2026-11-30T18:00:00Z"), 1, null).toISOString()).toBe("2026-12-02T00:00:00.000Z");
  });
});
