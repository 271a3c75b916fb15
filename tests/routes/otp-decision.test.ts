import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import { prisma } from "~/core/db.server";
import { blockPhone } from "~/otp/blocklist.server";
import { issueDeviceToken } from "~/otp/proof.server";
import { markPhoneVerified } from "~/otp/verified-phones.server";
import { peekRateLimit } from "~/core/rate-limit/rate-limit.server";
import { riskCodesKey } from "~/risk/assess.server";
import { FREE_PLAN } from "~/shared/plans";
import { clock } from "~/core/utils/clock.server";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";

/**
 * send-otp and verify-otp each make their decision in one round trip (app/otp/otp.server.ts: one
 * data-modifying CTE on PostgreSQL, one transaction on SQLite). These hold what that one step must
 * keep exact under concurrency, on both engines: each counter counts each request once, a step runs
 * only when the steps before it let the request through, and a right code is consumed once.
 */
const fake = useFakeTwilio();
// Each in a block of its own (the number less its last 3 digits), so only the limits a test names are met.
const numbers = (n: number) => Array.from({ length: n }, (_, i) => `+1415${String(5550000 + i * 1000)}`);

function send(body: Record<string, unknown>) {
  return callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body }));
}
function verify(body: Record<string, unknown>) {
  return callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body }));
}
const sendKey = (shopId: string, phone: string) => `otp-send:${shopId}:${phone}`;
const dailyKey = (shopId: string) => `otp-daily:${shopId}:${clock.now().toISOString().slice(0, 10)}`;

describe("send-otp's one-step decision", () => {
  it("sends exactly the shop's daily cap of 20 concurrent sends to 20 numbers, and gives every refused number its hit back", async () => {
    const shop = await installShop({ dailySendCap: 5, otpResendCooldownSeconds: 0 });
    const phones = numbers(20);
    const responses = await Promise.all(phones.map((phone) => send({ phone })));
    const bodies = await Promise.all(responses.map((r) => jsonOf(r)));
    const sent = phones.filter((_, i) => responses[i].status === 200);
    expect(sent).toHaveLength(5);
    expect(bodies.filter((b) => b.code === "shop_daily_cap")).toHaveLength(15);
    expect(fake.twilio.messages).toHaveLength(5);
    expect(await prisma.otpChallenge.count()).toBe(5);
    // The daily counter took 20 hits and gave 15 back; each refused number's own hit was given back.
    expect(await peekRateLimit(dailyKey(shop.id), 86_400)).toBe(5);
    for (const phone of phones) expect(await peekRateLimit(sendKey(shop.id, phone), 600), phone).toBe(sent.includes(phone) ? 1 : 0);
  });

  it("counts each of 20 concurrent sends for one number once: exactly the limit are sent, the daily counter counts only those", async () => {
    const shop = await installShop({ otpResendCooldownSeconds: 0 });
    const [phone] = numbers(1);
    const responses = await Promise.all(Array.from({ length: 20 }, () => send({ phone })));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(3);
    expect(await peekRateLimit(sendKey(shop.id, phone), 600)).toBe(20);
    // A send over the number's limit never reaches the daily counter.
    expect(await peekRateLimit(dailyKey(shop.id), 86_400)).toBe(3);
    expect(await peekRateLimit(riskCodesKey(shop.id, phone), 86_400)).toBe(20);
  });

  it("counts nothing for a blocked number", async () => {
    const shop = await installShop();
    const [phone] = numbers(1);
    await blockPhone(shop, phone);
    const responses = await Promise.all(Array.from({ length: 5 }, () => send({ phone })));
    expect(responses.map((r) => r.status)).toEqual([403, 403, 403, 403, 403]);
    expect(await prisma.rateCounter.count()).toBe(0);
    expect(await prisma.otpChallenge.count()).toBe(0);
  });

  it("skips a returning customer's browser without counting the number's limit (the risk counter counts the request)", async () => {
    const shop = await installShop();
    const [phone] = numbers(1);
    const verifiedAt = new Date(Date.now() - 86_400_000);
    await markPhoneVerified(shop.id, phone, verifiedAt);
    const deviceToken = issueDeviceToken(shop.domain, phone, 90, verifiedAt);
    const responses = await Promise.all(Array.from({ length: 5 }, () => send({ phone, deviceToken })));
    for (const r of responses) expect(await jsonOf(r)).toMatchObject({ success: true, skipped: true, reason: "returning_customer" });
    expect(await peekRateLimit(sendKey(shop.id, phone), 600)).toBe(0);
    expect(await peekRateLimit(dailyKey(shop.id), 86_400)).toBe(0);
    expect(await peekRateLimit(riskCodesKey(shop.id, phone), 86_400)).toBe(5);
    // Without the token the same number gets a code.
    expect((await send({ phone })).status).toBe(200);
    expect(await peekRateLimit(sendKey(shop.id, phone), 600)).toBe(1);
  });

  it("with the month's allowance used, sends nothing, never counts the daily cap and gives every number its hit back", async () => {
    const shop = await installShop({ subscriptionPlan: FREE_PLAN.name, otpResendCooldownSeconds: 0 });
    await prisma.dailyStat.create({
      data: { shopId: shop.id, metric: "otp_verified", day: clock.now().toISOString().slice(0, 10), dimension: "", count: FREE_PLAN.monthlyVerifications },
    });
    const phones = numbers(6);
    const responses = await Promise.all(phones.map((phone) => send({ phone })));
    for (const r of responses) expect(await jsonOf(r)).toMatchObject({ code: "plan_limit_reached" });
    expect(fake.twilio.attempts).toHaveLength(0);
    expect(await peekRateLimit(dailyKey(shop.id), 86_400)).toBe(0);
    for (const phone of phones) expect(await peekRateLimit(sendKey(shop.id, phone), 600)).toBe(0);
    expect(await prisma.otpChallenge.count()).toBe(0);
  });
});

describe("verify-otp's one-step completion", () => {
  it("lets one of 10 concurrent right answers consume the code, and counts, marks and records it once", async () => {
    const shop = await installShop();
    const [phone] = numbers(1);
    expect((await send({ phone })).status).toBe(200);
    const otp = fake.twilio.codeFor(phone);
    const responses = await Promise.all(Array.from({ length: 10 }, () => verify({ phone, otp, selectedMode: "prepaid", cartToken: "cart-1" })));
    const bodies = await Promise.all(responses.map((r) => jsonOf(r)));
    const won = bodies.filter((b) => b.success === true);
    expect(won).toHaveLength(1);
    // The others found the code used by the first: already verified (the right code costs no attempt, so none is locked out).
    expect(bodies.filter((b) => b.code === "already_verified")).toHaveLength(9);
    const stats = await prisma.dailyStat.findMany({ where: { shopId: shop.id, metric: "otp_verified" } });
    expect(stats.reduce((n, s) => n + s.count, 0)).toBe(1);
    expect(await prisma.verifiedCustomer.count({ where: { shopId: shop.id, phone } })).toBe(1);
    const selections = await prisma.selection.findMany({ where: { shopId: shop.id, phone } });
    expect(selections).toHaveLength(1);
    expect(selections[0]).toMatchObject({ mode: "prepaid", cartToken: "cart-1", verified: true });
    // Used, and kept until it expires (a later answer of it is told already_verified).
    expect(await prisma.otpChallenge.findMany({ select: { usedAt: true } })).toEqual([{ usedAt: expect.any(BigInt) }]);
  });

  it("updates the shopper's open selection instead of making a second one, and a linked selection is never taken over", async () => {
    const shop = await installShop({ otpResendCooldownSeconds: 0 });
    const [phone] = numbers(1);
    const open = await prisma.selection.create({ data: { shopId: shop.id, phone, mode: "cod", source: "create-checkout" } });
    expect((await send({ phone })).status).toBe(200);
    expect((await verify({ phone, otp: fake.twilio.codeFor(phone), selectedMode: "partial" })).status).toBe(200);
    expect(await prisma.selection.findUniqueOrThrow({ where: { id: open.id } })).toMatchObject({ mode: "partial", verified: true, source: "verify-otp" });
    await prisma.selection.update({ where: { id: open.id }, data: { orderGid: "gid://shopify/Order/1" } });
    expect((await send({ phone })).status).toBe(200);
    expect((await verify({ phone, otp: fake.twilio.codeFor(phone), selectedMode: "cod" })).status).toBe(200);
    expect(await prisma.selection.count({ where: { shopId: shop.id, phone } })).toBe(2);
    expect((await prisma.selection.findUniqueOrThrow({ where: { id: open.id } })).mode).toBe("partial");
  });
});
