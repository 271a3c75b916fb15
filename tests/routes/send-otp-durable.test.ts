import * as sendOtp from "~/routes/proxy.send-otp";
import { databaseProvider, prisma } from "~/core/db.server";
import { execute, query, sql, watchDirectStatements } from "~/core/db/sql.server";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";

/**
 * A code's text goes only once its decision and its record are committed, on both engines. On PostgreSQL
 * the decision's own commit does not wait for the disk (the shop's hot rows stay locked for less: docs/decisions/0012-send-decision-commit.md);
 * the record's commit after it does, and PostgreSQL writes its log in order, so the decision is on disk
 * before the text goes. Here Twilio answers late: what another connection sees while the text is with
 * Twilio is what a crash at that moment would leave.
 */
const PHONE = "+14155550177";
const seenAtSend: Promise<unknown>[] = [];
const fake = useFakeTwilio({}, { onMessage: () => void seenAtSend.push(whatAnotherConnectionSees()) });

async function whatAnotherConnectionSees() {
  const [records, codes] = await Promise.all([
    prisma.messageDelivery.findMany({ where: { phone: PHONE }, select: { purpose: true, status: true, providerId: true } }),
    prisma.otpChallenge.count({ where: { phone: PHONE } }),
  ]);
  return { records, codes };
}

afterEach(() => void (seenAtSend.length = 0));

describe("a code's text goes only after its decision and record are committed", () => {
  it("the code and its record are there, from another connection, while Twilio holds the text", async () => {
    await installShop();
    fake.twilio.fail("late", { times: 1, delayMs: 400 });
    const res = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE } }));
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toMatchObject({ success: true });
    expect(seenAtSend).toHaveLength(1);
    expect(await seenAtSend[0]).toEqual({ records: [{ purpose: "otp", status: "accepted", providerId: null }], codes: 1 });
  });

  it.skipIf(databaseProvider !== "postgresql")(
    "PostgreSQL: only the decision's own transaction skips the wait for the disk; the record's waits, and no pooled connection keeps the setting",
    async () => {
      await installShop();
      const direct = watchDirectStatements();
      expect((await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE } }))).status).toBe(200);
      direct.stop();
      const [decision, record] = direct.statements;
      expect(decision).toMatch(/set_config\('synchronous_commit', 'off'/);
      expect(decision).not.toMatch(/INSERT INTO "MessageDelivery"/);
      expect(record).toMatch(/^\s*INSERT INTO "MessageDelivery"/);
      expect(direct.statements.slice(1).join("\n")).not.toMatch(/synchronous_commit/);
      // Every connection of the pool at once: the setting ended with the decision's transaction.
      const settings = await Promise.all(
        Array.from({ length: 8 }, () =>
          query<{ now: string; usual: string }>(sql`
            SELECT current_setting('synchronous_commit') AS "now", (SELECT "reset_val" FROM pg_settings WHERE "name" = 'synchronous_commit') AS "usual", pg_sleep(0.05)`),
        ),
      );
      for (const [row] of settings) expect(row.now).toBe(row.usual);
      expect(settings[0][0].usual).not.toBe("off");
    },
  );
});

/** The database refuses the text's record for PHONE (a trigger), as a database that went away between two statements would. */
async function refuseRecords() {
  if (databaseProvider === "sqlite") {
    await execute(sql([`CREATE TRIGGER "refuse_record" BEFORE INSERT ON "MessageDelivery" WHEN NEW."phone" = '${PHONE}' BEGIN SELECT RAISE(ABORT, 'refused'); END`]));
    return () => execute(sql([`DROP TRIGGER "refuse_record"`]));
  }
  await execute(sql([`CREATE FUNCTION "refuse_record"() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$ LANGUAGE plpgsql`]));
  await execute(sql([`CREATE TRIGGER "refuse_record" BEFORE INSERT ON "MessageDelivery" FOR EACH ROW WHEN (NEW."phone" = '${PHONE}') EXECUTE FUNCTION "refuse_record"()`]));
  return () => execute(sql([`DROP FUNCTION "refuse_record"() CASCADE`]));
}

describe("a text whose record cannot be written", () => {
  it("is not sent, and leaves no code and nothing counted against the shopper or the shop", async () => {
    const shop = await installShop();
    const restore = await refuseRecords();
    try {
      const res = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE } }));
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect(fake.twilio.messages).toHaveLength(0);
      expect(await prisma.otpChallenge.count()).toBe(0);
      // The decision's hits (the number's, its places', the shop's day and cap) all given back; the risk score's count of asks stays.
      const counters = await prisma.rateCounter.findMany({ where: { count: { gt: 0 }, NOT: { key: { startsWith: "risk-" } } }, select: { key: true } });
      expect(counters).toEqual([]);
      const sent = await prisma.dailyStat.findMany({ where: { shopId: shop.id, metric: "otp_sent", count: { gt: 0 } } });
      expect(sent).toEqual([]);
    } finally {
      await restore();
    }
    // Once the database takes records again, the number gets its code at once.
    const again = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE } }));
    expect(again.status).toBe(200);
    expect(fake.twilio.messages).toHaveLength(1);
  });
});
