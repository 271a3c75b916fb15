import { isQuietHour, nextSendTime, shopDate } from "./quiet-hours";

describe("quiet hours", () => {
  it("reads a window that wraps midnight and one that does not; equal bounds mean none", () => {
    expect([20, 21, 23, 0, 8, 9].map((h) => isQuietHour(h, 21, 9))).toEqual([false, true, true, true, true, false]);
    expect([12, 13, 14].map((h) => isQuietHour(h, 13, 14))).toEqual([false, true, false]);
    expect(isQuietHour(3, 0, 0)).toBe(false);
  });

  it("waits for the window's end in the shop's time zone (Asia/Kolkata is UTC+5:30)", () => {
    const quiet = { timeZone: "Asia/Kolkata", start: 21, end: 9 };
    // 23:00 in Kolkata = 17:30 UTC: the text waits for 09:00 Kolkata = 03:30 UTC the next day.
    expect(nextSendTime(new Date("2026-11-27T17:30:00Z"), quiet).toISOString()).toBe("2026-11-28T03:30:00.000Z");
    // 10:00 in Kolkata: sent at once.
    const day = new Date("2026-11-27T04:30:00Z");
    expect(nextSendTime(day, quiet)).toBe(day);
    // The same instant in UTC is not quiet for a UTC shop; an unknown zone reads as UTC.
    expect(nextSendTime(new Date("2026-11-27T17:30:00Z"), { ...quiet, timeZone: null }).toISOString()).toBe("2026-11-27T17:30:00.000Z");
    expect(nextSendTime(new Date("2026-11-27T22:10:00Z"), { ...quiet, timeZone: "Not/AZone" }).toISOString()).toBe("2026-11-28T09:00:00.000Z");
  });

  it("gives the shop's date, tomorrow included, in its zone", () => {
    expect(shopDate(new Date("2026-11-27T20:00:00Z"), "Asia/Kolkata")).toBe("2026-11-28");
    expect(shopDate(new Date("2026-11-27T20:00:00Z"), "Asia/Kolkata", 1)).toBe("2026-11-29");
    expect(shopDate(new Date("2026-11-27T20:00:00Z"), null)).toBe("2026-11-27");
  });
});
