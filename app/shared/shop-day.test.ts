import { addDays, lastShopDaysStart, nextMonthStart, nextShopMidnight, shopDay, shopDayStart, shopMonthStart, utcOffsetMinutes, utcOffsetSpans } from "./shop-day";
import { shopDate } from "~/delivery/quiet-hours";

/**
 * A shop's day, swept over every zone the runtime knows (every offset in use from UTC-12:00 to UTC+14:00,
 * the quarter and half hours among them), every half hour of a month-end day, and the days around each
 * zone's daylight-saving changes: the date matches the runtime's own calendar for that zone, a day starts
 * at its first instant, and the next midnight is the next date's first instant.
 */
const HOUR = 3600_000;
const DAY = 24 * HOUR;
// The runtime lists its canonical zones; UTC-12:00 and UTC+14:00 alone are added by name.
const ZONES = [...Intl.supportedValuesOf("timeZone"), "Etc/GMT+12", "Etc/GMT-14"];
const calendars = new Map<string, Intl.DateTimeFormat>();
const calendarDay = (ms: number, zone: string) => {
  if (!calendars.has(zone)) calendars.set(zone, new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }));
  return calendars.get(zone)!.format(ms);
};
const MONTH_END = Date.UTC(2026, 10, 30, 12); // the middle of 30 November (UTC): the month ends somewhere in the day after

describe("shopDay: the shop's date", () => {
  it(`matches the zone's own calendar in every zone (${ZONES.length}), every half hour from 30 November 12:00 to 1 December 24:00 UTC`, () => {
    const wrong: string[] = [];
    const offsets = new Set<number>();
    for (const zone of ZONES) {
      for (let t = MONTH_END; t < MONTH_END + 1.5 * DAY; t += 30 * 60_000) {
        offsets.add(utcOffsetMinutes(t, zone));
        if (shopDay(t, zone) !== calendarDay(t, zone)) wrong.push(`${zone} ${new Date(t).toISOString()}`);
        if (shopMonthStart(t, zone) !== `${calendarDay(t, zone).slice(0, 7)}-01`) wrong.push(`${zone} month ${new Date(t).toISOString()}`);
      }
    }
    expect(wrong).toEqual([]);
    // The sweep reached both ends of the world and its quarter hours.
    for (const minutes of [-720, -570, -210, 0, 330, 345, 525, 825, 840]) expect(offsets, `offset ${minutes}`).toContain(minutes);
  });

  it("an unknown zone (or none) reads as UTC", () => {
    const at = Date.UTC(2026, 10, 30, 23, 30);
    expect(shopDay(at, null)).toBe("2026-11-30");
    expect(shopDay(at, "Not/AZone")).toBe("2026-11-30");
    expect(shopDay(at, "Asia/Kolkata")).toBe("2026-12-01");
    expect(shopMonthStart(at, "Asia/Kolkata")).toBe("2026-12-01");
    expect(shopMonthStart(at, "America/Los_Angeles")).toBe("2026-11-01");
  });

  it("calendar arithmetic: month and year ends, leap day", () => {
    expect(addDays("2026-11-30", 1)).toBe("2026-12-01");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2028-03-01", -1)).toBe("2028-02-29");
    expect(nextMonthStart("2026-12-01")).toBe("2027-01-01");
  });
});

/** Each zone's offset changes in 2026 (read every 3 hours from the runtime's database). */
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

describe("the shop's midnight, on ordinary and daylight-saving days", () => {
  const DST_ZONES = ["America/New_York", "Europe/London", "America/Santiago", "Australia/Lord_Howe", "Pacific/Chatham", "America/St_Johns", "America/Havana", "Asia/Tehran", "Africa/Casablanca", "Australia/Adelaide"];
  it.each(["Asia/Kolkata", "Asia/Kathmandu", "Pacific/Kiritimati", "Etc/GMT+12", "Pacific/Marquesas", ...DST_ZONES])(
    "%s: each day starts at its first instant and the next midnight is the next date's first instant, every 3 hours around the month-end and each offset change",
    (zone) => {
      const froms = [MONTH_END, ...changes(zone).map((c) => c - DAY)];
      for (const from of froms) {
        for (let t = from; t < from + 2 * DAY; t += 3 * HOUR) {
          const day = calendarDay(t, zone);
          const start = shopDayStart(day, zone).getTime();
          expect(calendarDay(start, zone), `${zone} ${day}`).toBe(day);
          expect(calendarDay(start - 60_000, zone)).toBe(addDays(day, -1));
          const next = nextShopMidnight(t, zone).getTime();
          expect(next).toBeGreaterThan(t);
          expect(calendarDay(next, zone)).toBe(addDays(day, 1));
          expect(calendarDay(next - 60_000, zone)).toBe(day);
          // A day is 23 to 25 hours (Lord Howe's: 23.5 to 24.5).
          expect(next - start).toBeGreaterThanOrEqual(23 * HOUR);
          expect(next - start).toBeLessThanOrEqual(25 * HOUR);
          // Delivery days: "tomorrow" is the next date whatever the day's length.
          expect(shopDate(new Date(t), zone, 1)).toBe(addDays(day, 1));
        }
      }
    },
  );

  it("the offsets written for checkout match the zone at every hour of a year", () => {
    for (const zone of DST_ZONES) {
      const from = new Date(Date.UTC(2026, 0, 1));
      const spans = utcOffsetSpans(zone, from, new Date(Date.UTC(2027, 0, 1)));
      expect(spans.length, zone).toBe(changes(zone).length + 1);
      for (let t = from.getTime(); t < Date.UTC(2027, 0, 1); t += HOUR) {
        const span = [...spans].reverse().find(([start]) => start * 1000 <= t)!;
        expect(span[1], `${zone} ${new Date(t).toISOString()}`).toBe(utcOffsetMinutes(t, zone));
      }
    }
  });
});

describe("the last N shop days: today and the N - 1 before, from the first one's midnight", () => {
  it.each(["Asia/Kolkata", "Pacific/Kiritimati", "Pacific/Pago_Pago", "America/St_Johns", "Asia/Kathmandu", "America/New_York", "Australia/Lord_Howe"])(
    "%s: every hour of two days at the month's end and at each offset change, for 1, 7, 30 and 90 days",
    (zone) => {
      for (const from of [MONTH_END, ...changes(zone).map((c) => c - DAY)]) {
        for (let t = from; t < from + 2 * DAY; t += HOUR) {
          const today = calendarDay(t, zone);
          for (const days of [1, 7, 30, 90]) {
            const start = lastShopDaysStart(t, days, zone).getTime();
            expect(calendarDay(start, zone), `${zone} ${new Date(t).toISOString()} ${days}`).toBe(addDays(today, 1 - days));
            expect(calendarDay(start - 60_000, zone)).toBe(addDays(today, -days));
          }
        }
      }
    },
  );

  it("a shop whose zone is not known yet counts UTC's days", () => {
    expect(lastShopDaysStart(Date.UTC(2026, 11, 1, 23, 59), 7, null).toISOString()).toBe("2026-11-25T00:00:00.000Z");
  });
});
