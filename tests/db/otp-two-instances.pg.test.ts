import pg from "pg";
import { inject } from "vitest";
import { postSigned, startServer, type RunningServer } from "../helpers/server";
import { outboxCode, readOutbox } from "../helpers/outbox";
import { createScratchPostgresDatabase } from "../setup/databases";

/**
 * The limits hold across app instances: two built servers share one PostgreSQL database and take a
 * burst of requests between them. Needs the build (npm test builds first) and the postgres suite.
 */
describe("two app instances on one PostgreSQL database", () => {
  let a: RunningServer;
  let b: RunningServer;
  let databaseUrl: string;

  beforeAll(async () => {
    databaseUrl = await createScratchPostgresDatabase(inject("runId"), "otp2");
    a = await startServer({ DATABASE_URL: databaseUrl });
    b = await startServer({ DATABASE_URL: databaseUrl }, { migrate: false });
    // No resend cooldown, so the per-number limit (3 per 10 minutes) is what a burst runs into.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`UPDATE "Shop" SET "otpResendCooldownSeconds" = 0`);
    await client.end();
  }, 60_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
  });

  it("accepts exactly 3 of 20 concurrent sends for one number, split across the instances", async () => {
    const phone = "+14155550100";
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => postSigned(i % 2 ? a : b, "/send-otp", { phone })));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
    expect(readOutbox(a.dataDir).length + readOutbox(b.dataDir).length).toBe(3);
  });

  it("counts at most 5 of 20 concurrent wrong guesses, split across the instances", async () => {
    const phone = "+14155550101";
    expect((await postSigned(a, "/send-otp", { phone })).status).toBe(200);
    const code = outboxCode(a.dataDir, phone);
    const guesses = Array.from({ length: 20 }, (_, i) => String((Number(code) + i + 1) % 1_000_000).padStart(6, "0"));
    const responses = await Promise.all(guesses.map((otp, i) => postSigned(i % 2 ? a : b, "/verify-otp", { phone, otp })));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(responses.filter((r) => r.status === 400)).toHaveLength(4);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(16);
    expect(bodies.filter((x) => x.code === "invalid_code").map((x) => x.attemptsRemaining).sort()).toEqual([1, 2, 3, 4]);
    const right = await postSigned(b, "/verify-otp", { phone, otp: code });
    expect(right.status).toBe(429);
  });
});
