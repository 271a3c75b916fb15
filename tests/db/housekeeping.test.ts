import { prisma } from "~/core/db.server";
import { runDueJobs, scheduleRecurringJobs } from "~/core/jobs/queue.server";
import { JOB_KINDS } from "~/server-build";
import { RETENTION_EVERY_MS } from "~/privacy/retention.server";
import { DAY_ROLLUP_EVERY_MS } from "~/dashboard/day-rollup.server";
import { clock } from "~/core/utils/clock.server";
import { installShop } from "../helpers/shops";

const now = new Date("2026-03-01T10:00:00Z");
const DAY = 24 * 3600_000;

// Housekeeping is recurring jobs in the server's one list (app/server-build.ts), not timers: one
// instance runs each, and a restart neither loses nor doubles it.
describe("housekeeping as recurring jobs", () => {
  it("purges expired codes and rate counters every minute, and old delivery records and finished jobs every hour", async () => {
    vi.spyOn(clock, "now").mockReturnValue(now);
    const shop = await installShop();
    const t = now.getTime();
    await prisma.otpChallenge.createMany({
      data: [
        { id: "old", shopId: shop.id, phone: "+15550000001", codeHash: "x", sentAt: BigInt(t - 700_000), expiresAt: BigInt(t - 100_000), maxAttempts: 5 },
        { id: "live", shopId: shop.id, phone: "+15550000002", codeHash: "x", sentAt: BigInt(t), expiresAt: BigInt(t + 600_000), maxAttempts: 5 },
      ],
    });
    await prisma.rateCounter.createMany({
      data: [
        { key: "old", windowStart: 0n, count: 1, expiresAt: BigInt(t - 1) },
        { key: "live", windowStart: 0n, count: 1, expiresAt: BigInt(t + 60_000) },
      ],
    });
    await prisma.webhookDelivery.createMany({
      data: [
        { id: "old", topic: "orders/create", shop: shop.domain, receivedAt: new Date(t - 8 * DAY) },
        { id: "new", topic: "orders/create", shop: shop.domain, receivedAt: new Date(t - DAY) },
      ],
    });

    await scheduleRecurringJobs(JOB_KINDS.filter((kind) => kind.every));
    // The two housekeeping kinds, and the personal-data retention and day rollup runs that the hourly one queues.
    expect(await runDueJobs(JOB_KINDS)).toMatchObject({ done: 4 });

    expect((await prisma.otpChallenge.findMany()).map((r) => r.id)).toEqual(["live"]);
    expect((await prisma.rateCounter.findMany()).map((r) => r.key)).toEqual(["live"]);
    expect((await prisma.webhookDelivery.findMany()).map((r) => r.id)).toEqual(["new"]);
    const due = await prisma.job.findMany({ orderBy: { kind: "asc" }, select: { kind: true, nextAttemptAt: true, doneAt: true } });
    expect(due).toEqual([
      // The day rollup queued its own next run (no shop here has days to roll).
      { kind: "analytics.day-rollup", nextAttemptAt: new Date(t + DAY_ROLLUP_EVERY_MS), doneAt: null },
      { kind: "housekeeping.otp-purge", nextAttemptAt: new Date(t + 60_000), doneAt: null },
      { kind: "housekeeping.prune", nextAttemptAt: new Date(t + 3600_000), doneAt: null },
      // The retention job queued its own next run.
      { kind: "privacy.retention", nextAttemptAt: new Date(t + RETENTION_EVERY_MS), doneAt: null },
    ]);
  });
});
