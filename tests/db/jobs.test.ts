import { z } from "zod";
import { prisma } from "~/core/db.server";
import { backoffMs, defineJob, scheduleRecurringJobs, deleteOrderJobs, enqueueJob, LOCK_MS, orderJobKey, pruneFinishedJobs, runDueJobs as runJobs, type JobResult } from "~/core/jobs/queue.server";
import { clock } from "~/core/utils/clock.server";
import { expectConsoleErrors } from "../setup/worker";

/** A kind whose runs the test scripts: each run takes the next answer (done when the script is empty). */
const script: JobResult[] = [];
const runs: { n: number; shop: string; attempts: number }[] = [];
const counterJob = defineJob({
  kind: "test.counter",
  payload: z.object({ n: z.number().int(), seen: z.array(z.string()).default([]) }),
  maxAttempts: 3,
  merge: (queued, incoming) => {
    const fresh = incoming.seen.filter((s) => !queued.seen.includes(s));
    return fresh.length ? { n: incoming.n, seen: [...queued.seen, ...fresh] } : null;
  },
  run: async ({ n }, job) => {
    runs.push({ n, ...job });
    return script.shift() ?? { ok: true };
  },
});
const throwingJob = defineJob({
  kind: "test.throws",
  payload: z.object({}),
  run: async () => {
    throw new Error("boom");
  },
});

/** A kind whose first run sees a second enqueue for its own key arrive while it runs (a concurrent delivery). */
const mergedRuns: string[][] = [];
const mergingJob = defineJob({
  kind: "test.merging",
  payload: z.object({ tags: z.array(z.string()) }),
  merge: (queued, incoming) => {
    const fresh = incoming.tags.filter((t) => !queued.tags.includes(t));
    return fresh.length ? { tags: [...queued.tags, ...fresh] } : null;
  },
  run: async ({ tags }, job) => {
    mergedRuns.push(tags);
    if (mergedRuns.length === 1) await enqueueJob(mergingJob, { shop: job.shop, key: "m", payload: { tags: ["late"] } });
    return { ok: true };
  },
});

/** A kind whose run hangs until the test lets it end (a Shopify call that takes its time). */
let endSlowRun: () => void = () => {};
const slowJob = defineJob({
  kind: "test.slow",
  payload: z.object({}),
  run: () => new Promise<JobResult>((resolve) => void (endSlowRun = () => resolve({ ok: true }))),
});

/** The kinds this file's worker runs: listed, as the server lists its own (app/server-build.ts). */
const runDueJobs = (limit?: number, concurrency?: number) => runJobs([counterJob, throwingJob, mergingJob], limit, concurrency);

const SHOP = "jobs-test.myshopify.com";
const t0 = new Date("2026-03-01T10:00:00Z");

beforeEach(() => {
  script.length = 0;
  runs.length = 0;
  mergedRuns.length = 0;
  vi.spyOn(clock, "now").mockReturnValue(t0);
});

function at(ms: number) {
  vi.spyOn(clock, "now").mockReturnValue(new Date(t0.getTime() + ms));
}

describe("the job queue (one durable mechanism for background work)", () => {
  it("runs a queued job once, with its payload, and keeps it as done", async () => {
    await enqueueJob(counterJob, { shop: SHOP, key: "a", payload: { n: 7, seen: [] } });
    expect(await runDueJobs()).toEqual({ claimed: 1, done: 1, retried: 0, failed: 0 });
    expect(runs).toEqual([{ n: 7, shop: SHOP, attempts: 1 }]);
    expect(await prisma.job.findFirstOrThrow()).toMatchObject({ kind: "test.counter", key: "a", attempts: 1, doneAt: expect.any(Date), lockedUntil: null });
    expect(await runDueJobs()).toMatchObject({ claimed: 0 });
  });

  it("refuses a payload its kind cannot read, before anything is stored", async () => {
    await expect(enqueueJob(counterJob, { shop: SHOP, key: "bad", payload: { n: 1.5 } as never })).rejects.toThrow();
    expect(await prisma.job.count()).toBe(0);
  });

  it("is idempotent on (kind, key); a merge that adds something makes the job due again", async () => {
    await enqueueJob(counterJob, { shop: SHOP, key: "k", payload: { n: 1, seen: ["x"] } });
    await enqueueJob(counterJob, { shop: SHOP, key: "k", payload: { n: 1, seen: ["x"] } });
    expect(await prisma.job.count()).toBe(1);
    await runDueJobs();
    await enqueueJob(counterJob, { shop: SHOP, key: "k", payload: { n: 2, seen: ["y"] } });
    const job = await prisma.job.findFirstOrThrow();
    expect(JSON.parse(job.payload)).toEqual({ n: 2, seen: ["x", "y"] });
    expect(job).toMatchObject({ doneAt: null, attempts: 0 });
    await runDueJobs();
    expect(runs.map((r) => r.n)).toEqual([1, 2]);
  });

  it("runs a job again when a merge changed it during its run, with the merged payload", async () => {
    await enqueueJob(mergingJob, { shop: SHOP, key: "m", payload: { tags: ["first"] } });
    expect(await runDueJobs()).toMatchObject({ claimed: 2, done: 2 });
    expect(mergedRuns).toEqual([["first"], ["first", "late"]]);
    expect(await prisma.job.findFirstOrThrow({ where: { kind: "test.merging" } })).toMatchObject({ doneAt: expect.any(Date), lockedUntil: null });
  });

  it("records the ends of jobs run together in one round: done, due again after a failure, run again after a merge", async () => {
    await enqueueJob(mergingJob, { shop: SHOP, key: "m", payload: { tags: ["first"] } });
    await enqueueJob(counterJob, { shop: SHOP, key: "x", payload: { n: 1, seen: [] } });
    await enqueueJob(throwingJob, { shop: SHOP, key: "t", payload: {} });
    expect(await runDueJobs(20, 4)).toEqual({ claimed: 4, done: 3, retried: 1, failed: 0 });
    expect(mergedRuns).toEqual([["first"], ["first", "late"]]);
    expect(await prisma.job.findFirstOrThrow({ where: { key: "m" } })).toMatchObject({ doneAt: expect.any(Date), lockedUntil: null, payload: JSON.stringify({ tags: ["first", "late"] }) });
    expect(await prisma.job.findFirstOrThrow({ where: { key: "x" } })).toMatchObject({ doneAt: t0, attempts: 1, lockedUntil: null, lastError: null });
    const failed = await prisma.job.findFirstOrThrow({ where: { key: "t" } });
    expect(failed).toMatchObject({ doneAt: null, failedAt: null, attempts: 1, lockedUntil: null, lastError: expect.stringContaining("boom") });
    expect(failed.nextAttemptAt.getTime()).toBe(t0.getTime() + backoffMs(1));
  });

  it("records the end of a job done long before the slowest of its round, before its lock could expire", async () => {
    await enqueueJob(counterJob, { shop: SHOP, key: "fast", payload: { n: 1, seen: [] } });
    await enqueueJob(slowJob, { shop: SHOP, key: "slow", payload: {} });
    endSlowRun = () => {};
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const sweep = runJobs([counterJob, slowJob], 20, 4);
      const turn = () => new Promise((resolve) => setImmediate(resolve));
      while (!runs.length) await turn();
      for (let i = 0; i < 20; i++) await turn();
      const fast = () => prisma.job.findFirstOrThrow({ where: { key: "fast" } });
      // Within the round's wait, nothing is recorded yet: the fast job waits for the slow one.
      expect(await fast()).toMatchObject({ doneAt: null });
      await vi.advanceTimersByTimeAsync(10_000);
      while (!(await fast()).doneAt) await turn();
      expect(await fast()).toMatchObject({ doneAt: t0, lockedUntil: null });
      expect(await prisma.job.findFirstOrThrow({ where: { key: "slow" } })).toMatchObject({ doneAt: null, lockedUntil: new Date(t0.getTime() + LOCK_MS) });
      endSlowRun();
      expect(await sweep).toEqual({ claimed: 2, done: 2, retried: 0, failed: 0 });
      expect(await prisma.job.findFirstOrThrow({ where: { key: "slow" } })).toMatchObject({ doneAt: t0, lockedUntil: null });
    } finally {
      vi.useRealTimers();
    }
  });

  it("retries a failure with exponential backoff, then gives up after maxAttempts and keeps the last error", async () => {
    const restore = expectConsoleErrors();
    script.push({ ok: false, error: "first" }, { ok: false, error: "second" }, { ok: false, error: "third" });
    await enqueueJob(counterJob, { shop: SHOP, key: "r", payload: { n: 1, seen: [] } });
    expect(await runDueJobs()).toMatchObject({ retried: 1 });
    let job = await prisma.job.findFirstOrThrow();
    expect(job.nextAttemptAt.getTime()).toBe(t0.getTime() + backoffMs(1));
    expect(job.lastError).toBe("first");
    at(backoffMs(1) - 1);
    expect(await runDueJobs()).toMatchObject({ claimed: 0 });
    at(backoffMs(1));
    expect(await runDueJobs()).toMatchObject({ retried: 1 });
    job = await prisma.job.findFirstOrThrow();
    expect(job.nextAttemptAt.getTime()).toBe(t0.getTime() + backoffMs(1) + backoffMs(2));
    at(backoffMs(1) + backoffMs(2));
    expect(await runDueJobs()).toMatchObject({ failed: 1 });
    expect(await prisma.job.findFirstOrThrow()).toMatchObject({ attempts: 3, failedAt: expect.any(Date), lastError: "third" });
    at(10 * 3600_000);
    expect(await runDueJobs()).toMatchObject({ claimed: 0 });
    restore();
  });

  it("fails at once when a run says not to retry, and treats a throw as a failure to retry", async () => {
    const restore = expectConsoleErrors();
    script.push({ ok: false, error: "permanent", retry: false });
    await enqueueJob(counterJob, { shop: SHOP, key: "p", payload: { n: 1, seen: [] } });
    await enqueueJob(throwingJob, { shop: SHOP, key: "t", payload: {} });
    expect(await runDueJobs()).toMatchObject({ claimed: 2, failed: 1, retried: 1 });
    expect(await prisma.job.findFirstOrThrow({ where: { key: "t" } })).toMatchObject({ failedAt: null, lastError: expect.stringContaining("boom") });
    restore();
  });

  it("lets one of two workers claim a job; a crashed worker's lock expires after LOCK_MS", async () => {
    await enqueueJob(counterJob, { shop: SHOP, key: "c", payload: { n: 1, seen: [] } });
    // A worker that claimed it and died: the lock is set, nothing else.
    await prisma.job.updateMany({ data: { lockedUntil: new Date(t0.getTime() + LOCK_MS), attempts: 1 } });
    expect(await runDueJobs()).toMatchObject({ claimed: 0 });
    at(LOCK_MS + 1);
    const [a, b] = await Promise.all([runDueJobs(), runDueJobs()]);
    expect(a.claimed + b.claimed).toBe(1);
    expect(runs).toHaveLength(1);
    expect(await prisma.job.findFirstOrThrow()).toMatchObject({ attempts: 2, doneAt: expect.any(Date) });
  });

  it("runs several jobs at a time, each once, within the sweep's limit", async () => {
    for (let n = 1; n <= 12; n++) await enqueueJob(counterJob, { shop: SHOP, key: `p${n}`, payload: { n, seen: [] } });
    expect(await runDueJobs(10, 4)).toMatchObject({ claimed: 10, done: 10 });
    expect(await runDueJobs(10, 4)).toMatchObject({ claimed: 2, done: 2 });
    expect(runs.map((r) => r.n).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(await prisma.job.count({ where: { doneAt: null } })).toBe(0);
  });

  it("keeps one row per recurring kind, due again `every` ms after each run, never given up", async () => {
    const restore = expectConsoleErrors();
    const ticks: number[] = [];
    const answers: JobResult[] = [];
    const recurring = defineJob({
      kind: "test.recurring",
      payload: z.object({}),
      every: 60_000,
      maxAttempts: 2,
      run: async () => {
        ticks.push(clock.now().getTime() - t0.getTime());
        return answers.shift() ?? { ok: true };
      },
    });
    // GIVEN two instances starting: one row
    await scheduleRecurringJobs([recurring]);
    await scheduleRecurringJobs([recurring]);
    expect(await prisma.job.count({ where: { kind: "test.recurring" } })).toBe(1);
    // WHEN it runs, it is due again a minute later and not before
    expect(await runJobs([recurring])).toMatchObject({ claimed: 1, done: 1 });
    at(59_000);
    expect(await runJobs([recurring])).toMatchObject({ claimed: 0 });
    at(60_000);
    answers.push({ ok: false, error: "busy" }, { ok: false, error: "busy" }, { ok: false, error: "busy" });
    // THEN failures past maxAttempts are retried, not given up, and a success starts the period anew
    for (const when of [60_000, 90_000, 150_000, 210_000]) {
      at(when);
      expect(await runJobs([recurring])).toMatchObject({ claimed: 1 });
    }
    expect(ticks).toEqual([0, 60_000, 90_000, 150_000, 210_000]);
    const row = await prisma.job.findFirstOrThrow({ where: { kind: "test.recurring" } });
    expect(row).toMatchObject({ doneAt: null, failedAt: null, attempts: 0, lastError: null, nextAttemptAt: new Date(t0.getTime() + 270_000) });
    restore();
  });

  it("leaves alone the kinds this process does not know (another version's jobs)", async () => {
    await prisma.job.create({ data: { kind: "test.unknown", key: "u", shop: SHOP, payload: "{}", nextAttemptAt: t0 } });
    expect(await runDueJobs()).toMatchObject({ claimed: 0 });
    expect(await prisma.job.findFirstOrThrow()).toMatchObject({ attempts: 0, lockedUntil: null });
  });

  it("prunes finished jobs after 30 days (failed ones after 90), and forgets an order's jobs on request", async () => {
    const restore = expectConsoleErrors();
    script.push({ ok: true }, { ok: false, error: "no", retry: false });
    await enqueueJob(counterJob, { shop: SHOP, key: orderJobKey(SHOP, "gid://shopify/Order/1"), payload: { n: 1, seen: [] } });
    await enqueueJob(counterJob, { shop: SHOP, key: orderJobKey(SHOP, "gid://shopify/Order/2"), payload: { n: 2, seen: [] } });
    await runDueJobs();
    restore();
    expect(await pruneFinishedJobs(new Date(t0.getTime() + 29 * 86_400_000))).toBe(0);
    expect(await pruneFinishedJobs(new Date(t0.getTime() + 31 * 86_400_000))).toBe(1);
    expect(await deleteOrderJobs(SHOP, ["gid://shopify/Order/2"])).toBe(1);
    expect(await prisma.job.count()).toBe(0);
  });

  it("keeps a job that failed for good 90 days for a person to read, then deletes it (its payload names a shopper)", async () => {
    const restore = expectConsoleErrors();
    script.push({ ok: false, error: "no", retry: false });
    await enqueueJob(counterJob, { shop: SHOP, key: orderJobKey(SHOP, "gid://shopify/Order/3"), payload: { n: 3, seen: [] } });
    await runDueJobs();
    restore();
    expect(await prisma.job.findFirstOrThrow()).toMatchObject({ failedAt: t0 });
    expect(await pruneFinishedJobs(new Date(t0.getTime() + 89 * 86_400_000))).toBe(0);
    expect(await pruneFinishedJobs(new Date(t0.getTime() + 91 * 86_400_000))).toBe(1);
  });
});

describe("a database cut under a sweep of several turns", () => {
  /** What a driver throws when the database goes away (app/core/db/database-errors.ts reads it as unavailable). */
  const cut = () => Object.assign(new Error("Connection terminated unexpectedly"), { code: "ECONNRESET" });
  let releaseSlow: () => void = () => {};
  const slowJob = defineJob({
    kind: "test.cut-slow",
    payload: z.object({}),
    run: async () => {
      await new Promise<void>((resolve) => (releaseSlow = resolve));
      throw cut();
    },
  });
  const quickJob = defineJob({
    kind: "test.cut-quick",
    payload: z.object({}),
    run: async () => {
      // The slow turn is still running when this one fails, and for a while after.
      setTimeout(() => releaseSlow(), 30);
      throw cut();
    },
  });

  it("a turn failing while another still runs rejects nothing unhandled; the sweep throws the cut once, every turn ended", async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", listener);
    try {
      await enqueueJob(slowJob, { shop: SHOP, key: "slow", payload: {} });
      await enqueueJob(quickJob, { shop: SHOP, key: "quick", payload: {} });
      await prisma.job.updateMany({ where: { key: "slow" }, data: { nextAttemptAt: new Date(t0.getTime() - 1000) } });
      await expect(runJobs([slowJob, quickJob], 20, 2)).rejects.toThrow("Connection terminated unexpectedly");
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
      // Neither job is failed for the cut: each runs again once its lock expires.
      expect(await prisma.job.findMany({ where: { failedAt: { not: null } } })).toEqual([]);
    } finally {
      process.off("unhandledRejection", listener);
    }
  });
});
