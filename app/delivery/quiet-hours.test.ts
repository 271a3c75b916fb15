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
