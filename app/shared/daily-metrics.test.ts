import { utcDay } from "./daily-metrics";

describe("utcDay", () => {
  it("gives each moment its UTC day, whatever day was asked before", () => {
    const moments = [
      "2026-11-28T23:59:59.999Z",
      "2026-11-29T00:00:00.000Z",
      "2026-11-28T00:00:00.000Z",
      "2026-11-28T12:00:00.000+05:30",
      "2024-02-29T23:00:00.000-02:00",
      "1969-12-31T23:59:59.999Z",
      "1970-01-01T00:00:00.000Z",
      "2026-11-29T00:00:00.000Z",
    ];
    for (const moment of [...moments, ...moments.reverse()]) {
      const at = new Date(moment);
      expect(utcDay(at), moment).toBe(at.toISOString().slice(0, 10));
    }
  });

  it("stays right past the days it keeps, today and a day four weeks back in turn", () => {
    const start = Date.UTC(2026, 0, 1, 13, 5);
    for (let round = 0; round < 2; round++)
      for (let day = 0; day < 200; day++) {
        for (const at of [new Date(start + day * 86_400_000), new Date(start + (day - 28) * 86_400_000)]) {
          expect(utcDay(at)).toBe(at.toISOString().slice(0, 10));
        }
      }
  });

  it("refuses an invalid date as formatting it would", () => {
    expect(() => utcDay(new Date(Number.NaN))).toThrow(RangeError);
  });
});
