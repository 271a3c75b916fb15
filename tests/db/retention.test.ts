import { prisma, watchQueries } from "~/core/db.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import { sendLimitKey } from "~/otp/otp.server";
import { BATCH, deleteExpiredRecords, RETENTION_EVERY_MS, RETENTION_KIND, scheduleRetention } from "~/privacy/retention.server";
import { clock } from "~/core/utils/clock.server";
import { installShop } from "../helpers/shops";
import { JOB_KINDS } from "~/server-build";

/**
 * The retention job: every kind of personal record is deleted once past its period (docs/privacy.md),
 * records still in their period or still in use stay, and the job runs again by itself.
 */
const NOW = new Date("2026-11-20T12:00:00Z");
const DAY = 86_400_000;
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);

afterEach(() => vi.restoreAllMocks());

async function seedShop(domain: string, settings: { returningSkipDays: number; recordRetentionDays: number }) {
  const shop = await installShop({ domain, ...settings });
  const id = shop.id;
  const phone = (n: number) => `+2126000${String(n).padStart(5, "0")}`;
  // Verified marks: 10 and 100 days old.
  await prisma.verifiedCustomer.createMany({ data: [{ shopId: id, phone: phone(1), verifiedAt: ago(10) }, { shopId: id, phone: phone(2), verifiedAt: ago(100) }] });
  // Selections: 5 and 31 days old.
  await prisma.selection.create({ data: { shopId: id, phone: phone(1), mode: "cod", source: "verify-otp", createdAt: ago(5) } });
  await prisma.selection.create({ data: { shopId: id, phone: phone(2), mode: "cod", source: "verify-otp", createdAt: ago(31) } });
  // Codes: one expired a minute ago, one still valid; counters likewise.
  await prisma.otpChallenge.create({ data: { id: `${id}-old`, shopId: id, phone: phone(1), codeHash: "0", sentAt: 0n, expiresAt: BigInt(NOW.getTime() - 60_000), maxAttempts: 5 } });
  await prisma.otpChallenge.create({ data: { id: `${id}-new`, shopId: id, phone: phone(2), codeHash: "0", sentAt: 0n, expiresAt: BigInt(NOW.getTime() + 60_000), maxAttempts: 5 } });
  await prisma.rateCounter.create({ data: { key: sendLimitKey(id, phone(1)), windowStart: 0n, count: 1, expiresAt: BigInt(NOW.getTime() - 1) } });
  await prisma.rateCounter.create({ data: { key: sendLimitKey(id, phone(2)), windowStart: 0n, count: 1, expiresAt: BigInt(NOW.getTime() + 60_000) } });
  // Records: 40 and 400 days old (the shop's setting decides), plus an old confirmation still pending.
  for (const [n, days] of [[1, 40], [2, 400]] as const) {
    await prisma.messageDelivery.create({ data: { shopId: id, phone: phone(n), purpose: "otp", channel: "sms", status: "delivered", createdAt: ago(days) } });
    await prisma.addressCorrection.create({
      data: { shopId: id, orderGid: `gid://shopify/Order/${n}${id}`, phone: phone(n), tokenHash: `${id}-${n}`, status: "completed", source: "api", before: "{}", expiresAt: ago(days - 3), createdAt: ago(days) },
    });
    await prisma.orderConfirmation.create({
      data: { id: `${id}-${n}`, shopId: id, orderGid: `gid://shopify/Order/${n}${id}`, phone: phone(n), tokenHash: `${id}-${n}`, status: "confirmed", deadlineAt: ago(days - 1), createdAt: ago(days) },
    });
    await prisma.orderRecord.create({ data: { shopId: id, orderGid: `gid://shopify/Order/${n}${id}`, phone: phone(n), cod: true, status: "verified", placedAt: ago(days) } });
    await prisma.orderOutcome.create({ data: { shopId: id, orderGid: `gid://shopify/Order/${n}${id}`, phone: phone(n), postalCode: "20000", outcome: "delivered", decidedAt: ago(days) } });
    // A call of the ladder is a message record like a text.
    await prisma.messageDelivery.create({ data: { shopId: id, phone: phone(n), purpose: "order_confirmation", channel: "voice", status: "completed", createdAt: ago(days) } });
    await prisma.deliveryReminder.create({ data: { shopId: id, orderGid: `gid://shopify/Order/${n}${id}`, phone: phone(n), status: "sent", createdAt: ago(days) } });
    await prisma.deliveryRecovery.create({
      data: { id: `${id}-r${n}`, shopId: id, orderGid: `gid://shopify/Order/${n}${id}`, phone: phone(n), tokenHash: `${id}-r${n}`, cause: "failure", status: "answered", expiresAt: ago(days - 3), createdAt: ago(days) },
    });
  }
  // A recovery opened 400 days ago whose link is somehow still valid: the shopper can answer, so it stays.
  await prisma.deliveryRecovery.create({
    data: { id: `${id}-ropen`, shopId: id, orderGid: `gid://shopify/Order/8${id}`, phone: phone(3), tokenHash: `${id}-ropen`, cause: "failure", status: "open", expiresAt: new Date(NOW.getTime() + DAY), createdAt: ago(400) },
  });
  // Confirmations opened 400 days ago and still pending: one still before its deadline stays; one whose deadline
  // passed 399 days ago (its deadline job gave up) is past the period like any other.
  await prisma.orderConfirmation.create({
    data: { id: `${id}-pending`, shopId: id, orderGid: `gid://shopify/Order/9${id}`, phone: phone(3), tokenHash: `${id}-pending`, status: "pending", deadlineAt: ago(-1), createdAt: ago(400) },
  });
  await prisma.orderConfirmation.create({
    data: { id: `${id}-stale`, shopId: id, orderGid: `gid://shopify/Order/7${id}`, phone: phone(3), tokenHash: `${id}-stale`, status: "pending", deadlineAt: ago(399), createdAt: ago(400) },
  });
  // Experiment groups drawn 40 and 400 days ago (the records' period), and opt-outs asked 400 and 800 days ago (two years).
  await prisma.experiment.create({ data: { id: `${id}-x`, shopId: id, holdoutShare: 0.1, startedAt: ago(500), horizon: 100, baseline: 0.2, drop: 0.1 } });
  for (const [n, days] of [[1, 40], [2, 400]] as const) {
    await prisma.experimentAssignment.create({ data: { experimentId: `${id}-x`, shopId: id, phone: phone(n), arm: "holdout", assignedAt: ago(days) } });
  }
  for (const [n, days] of [[1, 400], [2, 800]] as const) {
    await prisma.contactOptOut.create({ data: { shopId: id, phone: phone(n), channel: "all", source: "sms_stop", createdAt: ago(days) } });
  }
  // Data request reports: 89 and 91 days old.
  for (const days of [89, 91]) {
    await prisma.dataRequestReport.create({ data: { id: `${id}-${days}`, shopId: id, requestKey: `dr:${days}`, ordersRequested: "[]", report: "{}", createdAt: ago(days) } });
  }
  return shop;
}

const left = async (shopId: string) => ({
  verifiedMarks: (await prisma.verifiedCustomer.findMany({ where: { shopId }, orderBy: { phone: "asc" } })).map((v) => Math.round((NOW.getTime() - v.verifiedAt.getTime()) / DAY)),
  selections: (await prisma.selection.findMany({ where: { shopId } })).map((s) => Math.round((NOW.getTime() - s.createdAt.getTime()) / DAY)),
  pendingCodes: await prisma.otpChallenge.count({ where: { shopId } }),
  rateCounters: await prisma.rateCounter.count({ where: { key: { contains: `:${shopId}:` } } }),
  messages: await prisma.messageDelivery.count({ where: { shopId } }),
  addressCorrections: await prisma.addressCorrection.count({ where: { shopId } }),
  orderConfirmations: (await prisma.orderConfirmation.findMany({ where: { shopId }, orderBy: { id: "asc" } })).map((c) => c.status),
  orderRecords: await prisma.orderRecord.count({ where: { shopId } }),
  orderOutcomes: await prisma.orderOutcome.count({ where: { shopId } }),
  dataRequests: (await prisma.dataRequestReport.findMany({ where: { shopId } })).map((r) => r.requestKey),
  reminders: await prisma.deliveryReminder.count({ where: { shopId } }),
  recoveries: (await prisma.deliveryRecovery.findMany({ where: { shopId }, orderBy: { id: "asc" } })).map((r) => r.status),
  experimentGroups: (await prisma.experimentAssignment.findMany({ where: { shopId } })).map((a) => Math.round((NOW.getTime() - a.assignedAt.getTime()) / DAY)),
  optOuts: (await prisma.contactOptOut.findMany({ where: { shopId } })).map((o) => Math.round((NOW.getTime() - o.createdAt.getTime()) / DAY)),
});

describe("the retention job", () => {
  it("deletes each kind of record past its period, by the shop's settings, and keeps the rest", async () => {
    const longKeeper = await seedShop("keeps.myshopify.com", { returningSkipDays: 90, recordRetentionDays: 365 });
    const shortKeeper = await seedShop("short.myshopify.com", { returningSkipDays: 7, recordRetentionDays: 30 });
    // The keywords texted to the SMS number (no number kept): 29 and 31 days old.
    await prisma.inboundKeyword.createMany({ data: [{ id: "SM-29", keyword: "stop", createdAt: ago(29) }, { id: "SM-31", keyword: "start", createdAt: ago(31) }] });
    vi.spyOn(clock, "now").mockReturnValue(NOW);
    await scheduleRetention();
    expect(await runDueJobs(JOB_KINDS)).toMatchObject({ claimed: 1, retried: 0, failed: 0 });

    expect(await left(longKeeper.id)).toEqual({
      verifiedMarks: [10], // the 100-day-old one is past the 90-day returning-customer window
      selections: [5],
      pendingCodes: 1,
      rateCounters: 1,
      messages: 2, // 40 days kept (a text and a call), 400 gone
      addressCorrections: 1,
      orderConfirmations: ["confirmed", "pending"], // a pending one before its deadline stays whatever its age; the stale one went
      orderRecords: 1,
      orderOutcomes: 1,
      dataRequests: ["dr:89"],
      reminders: 1,
      recoveries: ["answered", "open"],
      experimentGroups: [40],
      optOuts: [400], // two years, whatever the shop's setting
    });
    expect(await left(shortKeeper.id)).toEqual({
      verifiedMarks: [], // 7-day window: 10 days is past it
      selections: [5],
      pendingCodes: 1,
      rateCounters: 1,
      messages: 0, // the merchant's 30 days: 40 is past it
      addressCorrections: 0,
      orderConfirmations: ["pending"],
      orderRecords: 0,
      orderOutcomes: 0,
      dataRequests: ["dr:89"],
      reminders: 0,
      recoveries: ["open"], // still answerable
      experimentGroups: [],
      optOuts: [400],
    });
    expect((await prisma.inboundKeyword.findMany()).map((k) => k.id)).toEqual(["SM-29"]);
  });

  it("deletes staff sessions whose token ended, offline sessions that can no longer refresh, sessions a day after an uninstall, and blocks past the end the merchant gave them", async () => {
    const kept = await installShop({ domain: "kept.myshopify.com" });
    await installShop({ domain: "gone.myshopify.com", uninstalledAt: ago(2) });
    await installShop({ domain: "just-gone.myshopify.com", uninstalledAt: new Date(NOW.getTime() - 3600_000) });
    const session = (id: string, shop: string, more: Record<string, unknown>) =>
      prisma.session.create({ data: { id, shop, state: "s", accessToken: "t", ...more } });
    await session("online-ended", "kept.myshopify.com", { isOnline: true, expires: new Date(NOW.getTime() - 60_000), userId: 1n, firstName: "Ravi", email: "ravi@example.com" });
    await session("online-live", "kept.myshopify.com", { isOnline: true, expires: new Date(NOW.getTime() + 60_000), userId: 2n, firstName: "Meera", email: "meera@example.com" });
    // An offline token that expired but can still be refreshed stays; one whose refresh token ended goes.
    await session("offline-refreshable", "kept.myshopify.com", { expires: ago(1), refreshToken: "r", refreshTokenExpires: new Date(NOW.getTime() + DAY) });
    await session("offline-dead", "kept.myshopify.com", { expires: ago(40), refreshToken: "r", refreshTokenExpires: ago(10) });
    const phone = (n: number) => `+2126001${String(n).padStart(4, "0")}`;
    await prisma.blockedPhone.createMany({
      data: [
        { shopId: kept.id, phone: phone(1), expiresAt: new Date(NOW.getTime() - 60_000), createdAt: ago(30) },
        { shopId: kept.id, phone: phone(2), expiresAt: new Date(NOW.getTime() + 60_000), createdAt: ago(30) },
        { shopId: kept.id, phone: phone(3), expiresAt: null, createdAt: ago(3000) },
      ],
    });
    vi.spyOn(clock, "now").mockReturnValue(NOW);
    const summary = await deleteExpiredRecords(NOW);
    expect(summary).toMatchObject({ sessions: 3, blocklist: 1 });
    expect((await prisma.session.findMany({ orderBy: { id: "asc" } })).map((x) => x.id)).toEqual([
      "offline-refreshable",
      "offline_just-gone.myshopify.com", // uninstalled an hour ago: app/uninstalled's work, or a reinstall under way
      "offline_kept.myshopify.com",
      "online-live",
    ]);
    // A block with no end stays whatever its age: the merchant keeps it until they unblock it.
    expect((await prisma.blockedPhone.findMany({ orderBy: { phone: "asc" } })).map((b) => b.phone)).toEqual([phone(2), phone(3)]);
  });

  it("queues its own next run an hour later, once, whatever the housekeeping of other instances queues", async () => {
    await installShop();
    vi.spyOn(clock, "now").mockReturnValue(NOW);
    await scheduleRetention();
    await scheduleRetention(); // a second instance starting
    expect(await prisma.job.count({ where: { kind: RETENTION_KIND } })).toBe(1);
    expect(await runDueJobs(JOB_KINDS)).toMatchObject({ claimed: 1 });
    const [job] = await prisma.job.findMany({ where: { kind: RETENTION_KIND } });
    expect(job).toMatchObject({ doneAt: null, failedAt: null, lockedUntil: null, nextAttemptAt: new Date(NOW.getTime() + RETENTION_EVERY_MS) });
    // Housekeeping right after does not pull the next run forward; nothing is due.
    await scheduleRetention();
    expect(await runDueJobs(JOB_KINDS)).toMatchObject({ claimed: 0 });
    // An hour later it runs again, and deletes what aged meanwhile.
    const later = new Date(NOW.getTime() + RETENTION_EVERY_MS);
    await prisma.rateCounter.create({ data: { key: "otp-send:x:+212600000001", windowStart: 0n, count: 1, expiresAt: BigInt(later.getTime() - 1) } });
    vi.spyOn(clock, "now").mockReturnValue(later);
    expect(await runDueJobs(JOB_KINDS)).toMatchObject({ claimed: 1 });
    expect(await prisma.rateCounter.count()).toBe(0);
    expect(await prisma.job.count({ where: { kind: RETENTION_KIND } })).toBe(1);
  });

  it("deletes a backlog in batches of at most BATCH rows a statement", async () => {
    const expired = BigInt(NOW.getTime() - 1);
    await prisma.rateCounter.createMany({ data: Array.from({ length: 2 * BATCH + 7 }, (_, i) => ({ key: `k:${i}`, windowStart: 0n, count: 1, expiresAt: expired })) });
    const watch = watchQueries();
    const summary = await deleteExpiredRecords(NOW);
    watch.stop();
    expect(summary).toMatchObject({ rateCounters: 2 * BATCH + 7, more: false });
    expect(await prisma.rateCounter.count()).toBe(0);
    const deletes = watch.queries.filter((q) => /DELETE FROM [`"]?\w*[`"]?\.?[`"]?RateCounter/i.test(q));
    expect(deletes).toHaveLength(3);
  });
});
