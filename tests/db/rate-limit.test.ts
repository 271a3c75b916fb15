import { clock } from "~/core/utils/clock.server";
import {
  hitRateLimit,
  peekRateLimit,
  purgeExpiredRateCounters,
  releaseRateLimit,
} from "~/core/rate-limit/rate-limit.server";

describe("hitRateLimit (fixed window, atomic in the database)", () => {
  it("allows exactly `limit` hits per window, then says how long to wait", async () => {
    const t0 = new Date("2026-01-01T00:00:00Z");
    vi.spyOn(clock, "now").mockReturnValue(t0);
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await hitRateLimit("k", 3, 600));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
    expect(results.map((r) => r.count)).toEqual([1, 2, 3, 4, 5]);
    expect(results[3].retryAfterSeconds).toBe(600);
    vi.spyOn(clock, "now").mockReturnValue(new Date(t0.getTime() + 599_000));
    expect((await hitRateLimit("k", 3, 600)).retryAfterSeconds).toBe(1);
  });

  it("starts a new window once the old one is over", async () => {
    const t0 = new Date("2026-01-01T00:00:00Z");
    vi.spyOn(clock, "now").mockReturnValue(t0);
    for (let i = 0; i < 4; i++) await hitRateLimit("k", 3, 600);
    vi.spyOn(clock, "now").mockReturnValue(new Date(t0.getTime() + 600_000));
    const next = await hitRateLimit("k", 3, 600);
    expect(next).toMatchObject({ allowed: true, count: 1, windowStart: t0.getTime() + 600_000 });
  });

  it("keeps keys apart", async () => {
    for (let i = 0; i < 3; i++) await hitRateLimit("a", 3, 600);
    expect((await hitRateLimit("a", 3, 600)).allowed).toBe(false);
    expect((await hitRateLimit("b", 3, 600)).allowed).toBe(true);
  });

  it("counts 20 concurrent hits exactly once each: exactly `limit` are allowed", async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => hitRateLimit("burst", 3, 600)));
    expect(results.filter((r) => r.allowed)).toHaveLength(3);
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it("gives a hit back with releaseRateLimit, within the same window only", async () => {
    const first = await hitRateLimit("k", 1, 600);
    expect((await hitRateLimit("k", 1, 600)).allowed).toBe(false);
    await releaseRateLimit("k", first);
    await releaseRateLimit("k", first);
    expect(await peekRateLimit("k", 600)).toBe(0);
    expect((await hitRateLimit("k", 1, 600)).allowed).toBe(true);
  });

  it("purges counters whose window is over", async () => {
    const t0 = new Date("2026-01-01T00:00:00Z");
    vi.spyOn(clock, "now").mockReturnValue(t0);
    await hitRateLimit("old", 3, 60);
    await hitRateLimit("new", 3, 3600);
    vi.spyOn(clock, "now").mockReturnValue(new Date(t0.getTime() + 61_000));
    expect(await purgeExpiredRateCounters()).toBe(1);
    expect(await peekRateLimit("new", 3600)).toBe(1);
  });

  it("purges in chunks smaller than the table, expired and live counters interleaved, missing none and keeping the live", async () => {
    const t0 = new Date("2026-01-01T00:00:00Z");
    vi.spyOn(clock, "now").mockReturnValue(t0);
    for (let i = 0; i < 23; i++) await hitRateLimit(`k${i}`, 3, i % 3 === 0 ? 3600 : 60);
    vi.spyOn(clock, "now").mockReturnValue(new Date(t0.getTime() + 61_000));
    // 8 live (every third), 15 expired, read 4 rows a statement on SQLite (7 chunks, the last one short).
    expect(await purgeExpiredRateCounters(4)).toBe(15);
    for (let i = 0; i < 23; i++) expect(await peekRateLimit(`k${i}`, i % 3 === 0 ? 3600 : 60)).toBe(i % 3 === 0 ? 1 : 0);
    expect(await purgeExpiredRateCounters(4)).toBe(0);
  });
});
