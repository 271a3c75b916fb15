import * as sendOtp from "~/routes/proxy.send-otp";
import { prisma, watchQueries } from "~/core/db.server";
import { watchDirectStatements } from "~/core/db/sql.server";
import { markPhoneVerified } from "~/otp/verified-phones.server";
import { issueDeviceToken } from "~/otp/proof.server";
import { blockPhone } from "~/otp/blocklist.server";
import { purgeExpiredChallenges } from "~/otp/otp.server";
import { clock } from "~/core/utils/clock.server";
import { peekRateLimit } from "~/core/rate-limit/rate-limit.server";
import { updateShop } from "~/core/settings/shop.server";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { describeProxyEdge } from "../helpers/proxy-edge";
import { installShop } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";

const PHONE = "+919876543210";
const fake = useFakeTwilio();

function send(body: Record<string, unknown> = { phone: PHONE }, shop?: string) {
  return callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body, shop }));
}

describeProxyEdge("POST /send-otp", sendOtp, {
  path: "/send-otp",
  method: "POST",
  validBody: { phone: PHONE },
  requiredFields: ["phone"],
});

describe("POST /send-otp", () => {
  it("sends a 6-digit code and answers 200 { success, expiresIn, resendAfter }", async () => {
    await installShop();
    const res = await send();
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toEqual({ success: true, expiresIn: 600, resendAfter: 30, channel: "sms", allowedModes: ["cod", "prepaid", "partial"], risk: { band: "low", reasons: [] } });
    expect(fake.twilio.messages).toHaveLength(1);
    const [message] = fake.twilio.messages;
    expect(message).toMatchObject({ to: PHONE, channel: "sms", messagingServiceSid: "MGfake0000000000000000000000000000" });
    expect(message.body).toMatch(/^\d{6} is your Test Shop verification code/);
  });

  it("stores only a keyed hash of the code, bound to the shop and number", async () => {
    const shop = await installShop();
    await send();
    const code = fake.twilio.codeFor(PHONE);
    const [row] = await prisma.otpChallenge.findMany();
    expect(row).toMatchObject({ shopId: shop.id, phone: PHONE, attempts: 0, maxAttempts: 5 });
    expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row, (_, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain(code);
  });

  it("takes the number exactly as the API defines it: + and 10 to 15 digits, nothing else (the modal tidies what a shopper types)", async () => {
    await installShop();
    for (const phone of ["+1 415 555 0123", "+14155550123\n", " +14155550123", "0091 98765-43210", "+91-98765-43210", "+(91)9876543210", "+919876543210\u0000"]) {
      const res = await send({ phone });
      expect(res.status, JSON.stringify(phone)).toBe(400);
      expect((await jsonOf(res)).code).toBe("invalid_phone");
    }
    expect(fake.twilio.messages).toHaveLength(0);
    expect(await prisma.otpChallenge.count()).toBe(0);
  });

  it("refuses, before any SMS is paid for, a number that cannot exist in its country's numbering plan", async () => {
    await installShop();
    // Right shape, impossible numbers: no country code 123, a US area code starting with 1, a UK number too short.
    for (const phone of ["+1234567890", "+11235550123", "+4420794609", "+999123456789"]) {
      const res = await send({ phone });
      expect(res.status, phone).toBe(400);
      expect((await jsonOf(res)).code).toBe("invalid_phone");
    }
    expect(fake.twilio.messages).toHaveLength(0);
    expect((await send({ phone: "+442079460958" })).status).toBe(200);
    expect(fake.twilio.messages).toHaveLength(1);
  });

  it.each(["9876543210", "+12345", "+1234567890123456", "+91 98x7654321"])("answers 400 invalid_phone to %s", async (phone) => {
    await installShop();
    const res = await send({ phone });
    expect(res.status).toBe(400);
    expect(await jsonOf(res)).toMatchObject({ code: "invalid_phone", error: expect.any(String) });
    expect(fake.twilio.attempts).toHaveLength(0);
  });

  it("answers 400 invalid_request when phone is not a string", async () => {
    await installShop();
    const res = await send({ phone: 919876543210 });
    expect(res.status).toBe(400);
    expect(await jsonOf(res)).toMatchObject({ code: "invalid_request", fields: { phone: expect.any(String) } });
  });

  it.each([42, "telegram", true, ""])("answers 400 invalid_request to the channel %j and sends nothing", async (channel) => {
    await installShop();
    const res = await send({ phone: PHONE, channel });
    expect(res.status).toBe(400);
    expect(await jsonOf(res)).toMatchObject({ code: "invalid_request", fields: { channel: expect.any(String) } });
    expect(fake.twilio.attempts).toHaveLength(0);
  });

  it("answers 405 to GET", async () => {
    await installShop();
    const res = await callRoute(sendOtp, signedRequest("/send-otp"));
    expect(res.status).toBe(405);
  });

  describe("check order: otpEnabled, returning customer, per-number limit, billing", () => {
    it("skips with otp_disabled when the shop turned OTP off, even without a subscription", async () => {
      await installShop({ otpEnabled: false, subscriptionStatus: "none" });
      const res = await send();
      expect(res.status).toBe(200);
      expect(await jsonOf(res)).toEqual({ success: true, skipped: true, reason: "otp_disabled" });
      expect(fake.twilio.attempts).toHaveLength(0);
    });

    it("skips a customer verified within the shop's window (default 90 days) on the device that verified, even without a subscription", async () => {
      const shop = await installShop({ subscriptionStatus: "cancelled" });
      const verifiedAt = new Date(Date.now() - 89 * 86_400_000);
      await markPhoneVerified(shop.id, PHONE, verifiedAt);
      const res = await send({ phone: PHONE, deviceToken: issueDeviceToken(shop.domain, PHONE, 90, verifiedAt) });
      expect(res.status).toBe(200);
      expect(await jsonOf(res)).toEqual({ success: true, skipped: true, reason: "returning_customer", allowedModes: ["cod", "prepaid", "partial"], risk: { band: "low", reasons: [] } });
      expect(fake.twilio.attempts).toHaveLength(0);
    });

    it("treats a verified number like any other for a caller without its device token (no skip, nothing revealed)", async () => {
      const shop = await installShop({ otpSendLimit: 10 });
      await markPhoneVerified(shop.id, PHONE);
      for (const deviceToken of [undefined, "d1.9999999999.00000000000000000000000000000000", 42, issueDeviceToken(shop.domain, "+919876500000", 90)]) {
        await prisma.otpChallenge.deleteMany();
        const res = await send({ phone: PHONE, deviceToken });
        expect(await jsonOf(res)).toMatchObject({ success: true, expiresIn: 600 });
      }
    });

    it("sends again to a customer verified longer ago than the window, and never skips when the window is 0", async () => {
      const shop = await installShop();
      await markPhoneVerified(shop.id, PHONE, new Date(Date.now() - 91 * 86_400_000));
      expect(await jsonOf(await send())).toMatchObject({ success: true, expiresIn: 600 });
      await updateShop(shop.domain, { returningSkipDays: 0 });
      await markPhoneVerified(shop.id, "+919876500000");
      expect(await jsonOf(await send({ phone: "+919876500000" }))).toMatchObject({ success: true, expiresIn: 600 });
    });

    it("answers 429 rate_limited once the number used its 3 sends in 10 minutes, before the billing gate", async () => {
      await installShop({ otpResendCooldownSeconds: 0, subscriptionStatus: "frozen" });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await send()).status);
      expect(statuses).toEqual([402, 402, 402, 429]);
    });

    it("answers 402 subscription_required when the shop has no active subscription (from our database)", async () => {
      await installShop({ subscriptionStatus: "pending" });
      const res = await send();
      expect(res.status).toBe(402);
      expect(await jsonOf(res)).toMatchObject({ code: "subscription_required", error: expect.any(String) });
      expect(fake.twilio.attempts).toHaveLength(0);
    });
  });

  describe("the per-number rate limit", () => {
    it("allows 3 sends per number per 10 minutes, then 429 with retryAfter and Retry-After, then again after the window", async () => {
      await installShop({ otpResendCooldownSeconds: 0 });
      const t0 = new Date("2026-03-01T10:00:00Z");
      vi.spyOn(clock, "now").mockReturnValue(t0);
      for (let i = 0; i < 3; i++) expect((await send()).status).toBe(200);
      vi.spyOn(clock, "now").mockReturnValue(new Date(t0.getTime() + 60_000));
      const res = await send();
      expect(res.status).toBe(429);
      expect(await jsonOf(res)).toMatchObject({ code: "rate_limited", retryAfter: 540 });
      expect(res.headers.get("retry-after")).toBe("540");
      expect(fake.twilio.messages).toHaveLength(3);
      expect((await send({ phone: "+919876500001" })).status).toBe(200);
      vi.spyOn(clock, "now").mockReturnValue(new Date(t0.getTime() + 600_000));
      expect((await send()).status).toBe(200);
    });

    it("follows the shop's own limit and window", async () => {
      await installShop({ otpResendCooldownSeconds: 0, otpSendLimit: 1, otpSendWindowSeconds: 60 });
      expect((await send()).status).toBe(200);
      const res = await send();
      expect(res.status).toBe(429);
      expect((await jsonOf(res)).retryAfter).toBeLessThanOrEqual(60);
    });

    it("is per shop: another shop's sends do not count", async () => {
      await installShop({ otpResendCooldownSeconds: 0 });
      await installShop({ domain: "other-shop.myshopify.com", otpResendCooldownSeconds: 0 });
      for (let i = 0; i < 3; i++) expect((await send()).status).toBe(200);
      expect((await send(undefined, "other-shop.myshopify.com")).status).toBe(200);
    });

    it("accepts exactly 3 of 20 concurrent sends for one number", async () => {
      await installShop({ otpResendCooldownSeconds: 0 });
      const responses = await Promise.all(Array.from({ length: 20 }, () => send()));
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(3);
      expect(statuses.filter((s) => s === 429)).toHaveLength(17);
      expect(fake.twilio.messages).toHaveLength(3);
      expect(await prisma.otpChallenge.count()).toBe(1);
    });

    it("with the default 30 s cooldown, a burst of 20 sends exactly one code", async () => {
      await installShop();
      const responses = await Promise.all(Array.from({ length: 20 }, () => send()));
      expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
      expect(responses.filter((r) => r.status === 429)).toHaveLength(19);
      expect(fake.twilio.messages).toHaveLength(1);
    });
  });

  describe("codes", () => {
    it("holds a resend for 30 s (429 rate_limited with the time left), without using up the number's sends", async () => {
      await installShop();
      const t0 = new Date("2026-03-01T10:00:00Z");
      vi.spyOn(clock, "now").mockReturnValue(t0);
      expect((await send()).status).toBe(200);
      vi.spyOn(clock, "now").mockReturnValue(new Date(t0.getTime() + 20_000));
      const res = await send();
      expect(res.status).toBe(429);
      expect(await jsonOf(res)).toMatchObject({ code: "rate_limited", retryAfter: 10 });
      expect(res.headers.get("retry-after")).toBe("10");
      expect(await peekRateLimit(`otp-send:${(await prisma.shop.findFirstOrThrow()).id}:${PHONE}`, 600)).toBe(1);
      vi.spyOn(clock, "now").mockReturnValue(new Date(t0.getTime() + 30_000));
      expect((await send()).status).toBe(200);
      expect(fake.twilio.messages).toHaveLength(2);
    });

    it("replaces the pending code with a new one on resend", async () => {
      await installShop();
      const t0 = new Date("2026-03-01T10:00:00Z");
      vi.spyOn(clock, "now").mockReturnValue(t0);
      await send();
      const first = await prisma.otpChallenge.findFirstOrThrow();
      vi.spyOn(clock, "now").mockReturnValue(new Date(t0.getTime() + 31_000));
      await send();
      const rows = await prisma.otpChallenge.findMany();
      expect(rows).toHaveLength(1);
      expect(rows[0].id).not.toBe(first.id);
      expect(rows[0].codeHash).not.toBe(first.codeHash);
      expect(Number(rows[0].expiresAt)).toBe(t0.getTime() + 31_000 + 600_000);
    });

    it("uses the shop's lifetime and cooldown settings in the answer", async () => {
      await installShop({ otpTtlSeconds: 300, otpResendCooldownSeconds: 45 });
      expect(await jsonOf(await send())).toEqual({ success: true, expiresIn: 300, resendAfter: 45, channel: "sms", allowedModes: ["cod", "prepaid", "partial"], risk: { band: "low", reasons: [] } });
      expect(fake.twilio.messages[0].body).toContain("5 minutes");
    });

    it("purges expired challenges", async () => {
      await installShop();
      const t0 = new Date("2026-03-01T10:00:00Z");
      vi.spyOn(clock, "now").mockReturnValue(t0);
      await send();
      await send({ phone: "+919876500002" });
      vi.spyOn(clock, "now").mockReturnValue(new Date(t0.getTime() + 599_000));
      expect(await purgeExpiredChallenges()).toBe(0);
      vi.spyOn(clock, "now").mockReturnValue(new Date(t0.getTime() + 600_000));
      expect(await purgeExpiredChallenges()).toBe(2);
      expect(await prisma.otpChallenge.count()).toBe(0);
    });
  });

  describe("messages", () => {
    it.each([
      ["hi", "सत्यापन कोड"],
      ["ar", "رمز التحقق"],
      ["fr", "code de vérification"],
      ["es", "código de verificación"],
      ["en-GB", "verification code"],
    ])("speaks the shopper's language (%s)", async (locale, phrase) => {
      await installShop();
      expect((await send({ phone: PHONE, locale })).status).toBe(200);
      expect(fake.twilio.messages[0].body).toContain(phrase);
      expect(fake.twilio.messages[0].body).toContain("Test Shop");
    });

    it("uses the shop's language when the modal sends none, and the shop's template when it has one", async () => {
      await installShop({ locale: "fr" });
      await send();
      expect(fake.twilio.messages[0].body).toMatch(/^\d{6} est votre code/);
      await installShop({ domain: "tpl.myshopify.com", smsTemplate: "{shop}: ton code {code}" });
      await send(undefined, "tpl.myshopify.com");
      // The merchant's template, then the one-tap line the app always ends a code with (WebOTP, iOS autofill).
      expect(fake.twilio.messages[1].body).toMatch(/^Test Shop: ton code (\d{6})\n\n@tpl\.myshopify\.com #\1$/);
    });

    it("ignores a locale that is not a language tag", async () => {
      await installShop();
      expect((await send({ phone: PHONE, locale: "<script>" })).status).toBe(200);
      expect(fake.twilio.messages[0].body).toContain("verification code");
    });
  });

  describe("anti-abuse", () => {
    it("answers 403 country_not_allowed outside the shop's allow-list, and sends inside it", async () => {
      await installShop({ allowedCountries: "IN, AE" });
      const res = await send({ phone: "+14155550123" });
      expect(res.status).toBe(403);
      expect(await jsonOf(res)).toMatchObject({ code: "country_not_allowed" });
      expect((await send({ phone: "+971501234567" })).status).toBe(200);
      expect((await send()).status).toBe(200);
      expect(fake.twilio.messages.map((m) => m.to)).toEqual(["+971501234567", PHONE]);
    });

    it("answers 403 phone_blocked to a blocked number, without counting it", async () => {
      const shop = await installShop();
      await blockPhone(shop, "+91 98765 43210", "pumping");
      const res = await send();
      expect(res.status).toBe(403);
      expect(await jsonOf(res)).toMatchObject({ code: "phone_blocked" });
      expect(fake.twilio.attempts).toHaveLength(0);
      expect(await prisma.rateCounter.count()).toBe(0);
    });

    it("answers 429 shop_daily_cap once the shop sent its daily cap, counting only codes that went out (the shop's fallback: prepaid only)", async () => {
      await installShop({ dailySendCap: 2, otpResendCooldownSeconds: 0, capFallback: "prepaid_only" });
      fake.twilio.fail("landline", { times: 1 });
      expect((await send({ phone: "+919876500010" })).status).toBe(400);
      expect((await send({ phone: "+919876500011" })).status).toBe(200);
      expect((await send({ phone: "+919876500012" })).status).toBe(200);
      const res = await send({ phone: "+919876500013" });
      expect(res.status).toBe(429);
      const body = await jsonOf(res);
      expect(body).toMatchObject({ code: "shop_daily_cap", retryAfter: expect.any(Number) });
      expect(res.headers.get("retry-after")).toBe(String(body.retryAfter));
      expect(fake.twilio.messages).toHaveLength(2);
    });

    it("the daily cap resets at midnight UTC", async () => {
      await installShop({ dailySendCap: 1, capFallback: "prepaid_only" });
      vi.spyOn(clock, "now").mockReturnValue(new Date("2026-03-01T23:59:00Z"));
      expect((await send()).status).toBe(200);
      const res = await send({ phone: "+919876500020" });
      expect(await jsonOf(res)).toMatchObject({ code: "shop_daily_cap", retryAfter: 60 });
      vi.spyOn(clock, "now").mockReturnValue(new Date("2026-03-02T00:00:01Z"));
      expect((await send({ phone: "+919876500020" })).status).toBe(200);
    });
  });
});

describe("what a send costs the database", () => {
  it("is two round trips once warm on SQLite (six statements) and three on PostgreSQL, none of them through Prisma", async () => {
    await installShop();
    expect((await send({ phone: "+14155550101" })).status).toBe(200); // warms the session and shop caches
    const viaPrisma = watchQueries();
    const direct = watchDirectStatements();
    expect((await send({ phone: "+14155550102" })).status).toBe(200);
    viaPrisma.stop();
    direct.stop();
    expect(viaPrisma.queries).toEqual([]);
    // The decision (one statement on PostgreSQL, one transaction on SQLite): the number's standing (with
    // the month's verifications for the plan's allowance), then every counter in one multi-row upsert: the
    // risk score's 24-hour count of codes for the number (one more with the shopper's IP), its rate counter,
    // the shares of the daily cap per place (app/otp/send-limits.server.ts: the number's texts of the day
    // and what one network may ask of them, the IP, the network, the block from that network, the
    // network's hour for the drain watch, the shop's day; with no IP one "unknown" place stands for the IP
    // and the network) and the shop's daily counter; then the pending code and, with it, the message's
    // delivery record, written before the text goes (so a text that went always has one): in the decision's
    // transaction on SQLite, in a commit of its own right after it on PostgreSQL (whose decision does not wait
    // for the disk: tests/routes/send-otp-durable.test.ts). After the text, the record completed.
    const pg = process.env.TEST_DB === "postgres";
    expect(direct.roundTrips).toBe(pg ? 3 : 2);
    expect(direct.statements).toHaveLength(pg ? 3 : 6);
    const all = direct.statements.join("\n");
    expect(all.match(/INSERT INTO "RateCounter"/g)).toHaveLength(1);
    expect(all.match(/INSERT INTO "OtpChallenge"/g)).toHaveLength(1);
    expect(all.match(/INSERT INTO "MessageDelivery"/g)).toHaveLength(1);
    expect(all.match(/UPDATE "MessageDelivery"/g)).toHaveLength(1);
    expect(all.match(/INSERT INTO "DailyStat"/g)).toHaveLength(1);
  });
});
