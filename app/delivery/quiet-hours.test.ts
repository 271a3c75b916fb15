import { utcOffsetMinutes } from "~/shared/shop-day";
import { isQuietMinute, nextSendTime, shopDate } from "./quiet-hours";

const at = (h: number, m = 0) => h * 60 + m;

describe("quiet hours", () => {
  it("reads a window that wraps midnight and one that does not; equal bounds mean none", () => {
    expect([at(20, 59), at(21), at(23), at(0), at(8, 59), at(9)].map((m) => isQuietMinute(m, at(21), at(9)))).toEqual([false, true, true, true, true, false]);
    expect([at(12), at(13), at(13, 30), at(14)].map((m) => isQuietMinute(m, at(13), at(14)))).toEqual([false, true, true, false]);
    expect(isQuietMinute(at(3), 0, 0)).toBe(false);
  });

  it("waits for the window's end in the shop's time zone (Asia/Kolkata is UTC+5:30); none when unset", () => {
    const quiet = { timezone: "Asia/Kolkata", quietHoursStart: at(21), quietHoursEnd: at(9) };
    // 23:00 in Kolkata = 17:30 UTC: the text waits for 09:00 Kolkata = 03:30 UTC the next day.
    expect(nextSendTime(new Date("2026-11-27T17:30:00Z"), quiet).toISOString()).toBe("2026-11-28T03:30:00.000Z");
    // 10:00 in Kolkata: sent at once.
    const day = new Date("2026-11-27T04:30:00Z");
    expect(nextSendTime(day, quiet)).toBe(day);
    // The same instant is not quiet for a UTC shop; an unknown zone reads as UTC; no quiet hours set: at once.
    expect(nextSendTime(new Date("2026-11-27T17:30:00Z"), { ...quiet, timezone: null }).toISOString()).toBe("2026-11-27T17:30:00.000Z");
    expect(nextSendTime(new Date("2026-11-27T22:10:00Z"), { ...quiet, timezone: "Not/AZone" }).toISOString()).toBe("2026-11-28T09:00:00.000Z");
    const night = new Date("2026-11-27T17:30:00Z");
    expect(nextSendTime(night, { ...quiet, quietHoursStart: null })).toBe(night);
  });

  it("gives the shop's date, tomorrow included, in its zone", () => {
    expect(shopDate(new Date("2026-11-27T20:00:00Z"), "Asia/Kolkata")).toBe("2026-11-28");
    expect(shopDate(new Date("2026-11-27T20:00:00Z"), "Asia/Kolkata", 1)).toBe("2026-11-29");
    expect(shopDate(new Date("2026-11-27T20:00:00Z"), null)).toBe("2026-11-27");
  });
});

/**
 * Quiet hours are the shop's hours, swept over one zone for every UTC offset in use (UTC-12:00 to
 * UTC+14:00, the quarter and half hours among them) and zones whose clocks change, a message due every half
 * hour of two days: a message is held exactly while the shop's clock (read with the runtime's time
 * zone database) is inside the window, and goes at the first minute the clock leaves it.
 */
describe("quiet hours in every zone, at every hour", () => {
  const clocks = new Map<string, Intl.DateTimeFormat>();
  const localMinute = (ms: number, zone: string) => {
    if (!clocks.has(zone)) clocks.set(zone, new Intl.DateTimeFormat("en-GB", { timeZone: zone, hourCycle: "h23", hour: "2-digit", minute: "2-digit" }));
    const parts = clocks.get(zone)!.formatToParts(ms);
    return Number(parts.find((p) => p.type === "hour")!.value) * 60 + Number(parts.find((p) => p.type === "minute")!.value);
  };
  const MONTH_END = Date.UTC(2026, 10, 30);
  const byOffset = new Map<number, string>();
  for (const zone of [...Intl.supportedValuesOf("timeZone"), "Etc/GMT+12", "Etc/GMT-14"]) {
    const offset = utcOffsetMinutes(MONTH_END, zone);
    if (!byOffset.has(offset)) byOffset.set(offset, zone);
  }
  // Days around the month's end, and around a clock change: New York's in March, Lord Howe's half hour in April.
  const SPANS: [string[], number][] = [
    [[...byOffset.values()], MONTH_END - 12 * 3600_000],
    [["America/New_York", "Europe/London"], Date.UTC(2026, 2, 7, 12)],
    [["America/New_York", "Europe/London", "Australia/Lord_Howe"], Date.UTC(2026, 9, 31, 12)],
    [["Australia/Lord_Howe", "Pacific/Chatham"], Date.UTC(2026, 3, 4, 0)],
  ];
  const WINDOWS = [[at(21), at(9)], [at(22), at(7, 30)], [at(1), at(2, 30)], [at(13), at(14)]];

  it(`holds a message exactly while the shop's clock is inside the window (${byOffset.size} offsets)`, () => {
    const wrong: string[] = [];
    for (const [zones, from] of SPANS) {
      for (const zone of zones) {
        for (const [start, end] of WINDOWS) {
          const quiet = { timezone: zone, quietHoursStart: start, quietHoursEnd: end };
          for (let t = from; t < from + 48 * 3600_000; t += 30 * 60_000) {
            const due = t + 17_000; // a few seconds past the minute, as a job finds it
            const next = nextSendTime(new Date(due), quiet).getTime();
            const where = `${zone} ${start}-${end} at ${new Date(due).toISOString()}`;
            if (!isQuietMinute(localMinute(due, zone), start, end)) {
              if (next !== due) wrong.push(`${where}: held outside the window`);
              continue;
            }
            if (isQuietMinute(localMinute(next, zone), start, end)) wrong.push(`${where}: sent inside the window at ${new Date(next).toISOString()}`);
            if (!isQuietMinute(localMinute(next - 60_000, zone), start, end)) wrong.push(`${where}: held past the window's end to ${new Date(next).toISOString()}`);
            if (next <= due || next - due > 24 * 3600_000) wrong.push(`${where}: waits ${(next - due) / 60_000} minutes`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    for (const minutes of [-720, -570, -210, 0, 330, 345, 525, 825, 840]) expect([...byOffset.keys()], `offset ${minutes}`).toContain(minutes);
  });
});
