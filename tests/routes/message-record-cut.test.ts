import Database from "better-sqlite3";
import * as sendOtp from "~/routes/proxy.send-otp";
import { databaseProvider, driver, prisma } from "~/core/db.server";
import { callRoute, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";

/**
 * A text that went out always has its delivery record: the record is written before the send and
 * completed after. Here the database is taken away between the two (another connection holds SQLite's
 * write lock from the moment Twilio accepts the message until the route has answered): the record
 * written before the send is there throughout, and once the database is back its completion (provider
 * id, state, the dashboard's count) is written by the retry. PostgreSQL's cut under load is in
 * tests/hardening/faults.pg.test.ts.
 */
let lock: Database.Database | null = null;
const fake = useFakeTwilio({}, { onMessage: () => takeTheDatabaseAway() });

function takeTheDatabaseAway() {
  if (driver.provider !== "sqlite") return;
  lock = new Database(driver.db().name);
  lock.exec("BEGIN EXCLUSIVE");
}

afterEach(() => {
  lock?.exec("ROLLBACK");
  lock?.close();
  lock = null;
});

const PHONE = "+14155550188";

describe.skipIf(databaseProvider !== "sqlite")("the database cut between a text's send and its record", () => {
  it("the record written before the send stands, and is completed once the database is back", async () => {
    const shop = await installShop();
    const res = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE } }));
    // The code went: the shopper is told so.
    expect(res.status).toBe(200);
    expect(fake.twilio.messages).toHaveLength(1);
    expect(lock).not.toBeNull();

    // While the database refuses writes, the message already has its row: "accepted", no provider id yet.
    expect(await prisma.messageDelivery.findMany({ select: { phone: true, purpose: true, channel: true, status: true, providerId: true } })).toEqual([
      { phone: PHONE, purpose: "otp", channel: "sms", status: "accepted", providerId: null },
    ]);

    lock!.exec("COMMIT");
    lock!.close();
    lock = null;
    await expect
      .poll(async () => (await prisma.messageDelivery.findFirstOrThrow()).providerId, { timeout: 15_000, interval: 200 })
      .toBe(fake.twilio.messages[0].sid);
    expect(await prisma.messageDelivery.findFirstOrThrow()).toMatchObject({ status: "queued", channel: "sms" });
    const sent = await prisma.dailyStat.findMany({ where: { shopId: shop.id, metric: "otp_sent" } });
    expect(sent.reduce((n, s) => n + s.count, 0)).toBe(1);
  }, 30_000);
});
