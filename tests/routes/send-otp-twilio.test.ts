import { env } from "~/core/env.server";
import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import { prisma } from "~/core/db.server";
import { sendSms } from "~/sms/sms.server";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { CONTENT_SID, useFakeTwilio } from "../helpers/twilio";

const PHONE = "+14155550123";
const fake = useFakeTwilio();

/** The dashboard's count of codes sent (DailyStat otp_sent), every day and country. */
async function codesSent(shopId: string) {
  const rows = await prisma.dailyStat.findMany({ where: { shopId, metric: "otp_sent" } });
  return rows.reduce((n, r) => n + r.count, 0);
}

function send(phone = PHONE) {
  return callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone } }));
}

describe("send-otp through Twilio (the real client against a fake Twilio)", () => {
  it.each([
    ["invalid_number", 21211],
    ["landline", 21614],
  ] as const)("maps Twilio's %s answer (%i) to 400 phone_unreachable, counted against the number", async (failure, _code) => {
    const shop = await installShop({ otpResendCooldownSeconds: 0 });
    fake.twilio.fail(failure);
    const res = await send();
    expect(res.status).toBe(400);
    expect(await jsonOf(res)).toMatchObject({ success: false, code: "phone_unreachable" });
    expect(await prisma.otpChallenge.count()).toBe(0);
    const counter = await prisma.rateCounter.findUnique({ where: { key: `otp-send:${shop.id}:${PHONE}` } });
    expect(counter?.count).toBe(1);
    // Counted with the code's reservation, taken back with it: no text went.
    expect(await codesSent(shop.id)).toBe(0);
  });

  it.each(["server_error", "rate_limited_by_twilio"] as const)(
    "maps Twilio's %s to 502 sms_unavailable, not counted against the shopper's limit",
    async (failure) => {
      const shop = await installShop({ otpResendCooldownSeconds: 0, otpSendLimit: 1 });
      fake.twilio.fail(failure, { times: 3 });
      for (let i = 0; i < 3; i++) {
        const res = await send();
        expect(res.status).toBe(502);
        expect(await jsonOf(res)).toMatchObject({ code: "sms_unavailable" });
      }
      expect(await prisma.otpChallenge.count()).toBe(0);
      expect(await codesSent(shop.id)).toBe(0);
      expect((await send()).status).toBe(200);
      expect(fake.twilio.messages).toHaveLength(1);
      expect(await codesSent(shop.id)).toBe(1);
    },
  );

  it("gives up on a Twilio that does not answer within SMS_TIMEOUT_MS: 502 in time, and the send counts (the text may have gone)", async () => {
    fake.configure({ SMS_TIMEOUT_MS: 300 });
    const shop = await installShop({ otpSendLimit: 1, otpResendCooldownSeconds: 0 });
    fake.twilio.fail("hang", { times: 1 });
    const started = Date.now();
    const res = await send();
    expect(res.status).toBe(502);
    expect(await jsonOf(res)).toMatchObject({ code: "sms_unavailable" });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await prisma.otpChallenge.count()).toBe(1);
    expect((await prisma.rateCounter.findUnique({ where: { key: `otp-send:${shop.id}:${PHONE}` } }))?.count).toBe(1);
    expect(await codesSent(shop.id)).toBe(1);
    const again = await send();
    expect(again.status).toBe(429);
    expect(await jsonOf(again)).toMatchObject({ code: "rate_limited" });
  });

  it("gives the send back when Twilio cannot be reached at all (connection refused): nothing went", async () => {
    await installShop({ otpSendLimit: 1, otpResendCooldownSeconds: 0 });
    fake.configure({ TWILIO_API_BASE: "http://127.0.0.1:9" } as never);
    const res = await send();
    expect(res.status).toBe(502);
    expect(await prisma.otpChallenge.count()).toBe(0);
    fake.configure({ TWILIO_API_BASE: fake.twilio.url } as never);
    expect((await send()).status).toBe(200);
  });

  it("treats wrong credentials as sms_unavailable (our problem, not the shopper's number)", async () => {
    fake.configure({ TWILIO_AUTH_TOKEN: "wrong" } as never);
    await installShop();
    const res = await send();
    expect(res.status).toBe(502);
  });

  it("sends from a From number when no Messaging Service is configured", async () => {
    fake.configure({ TWILIO_MESSAGING_SERVICE_SID: undefined, TWILIO_FROM_NUMBER: "+15005550006" });
    await installShop();
    expect((await send()).status).toBe(200);
    expect(fake.twilio.messages[0]).toMatchObject({ from: "+15005550006", messagingServiceSid: null, channel: "sms" });
  });

  it("sends on WhatsApp for a shop that chose it, as the approved template with the code as its variable", async () => {
    fake.configure({ TWILIO_WHATSAPP_FROM: "+15005550007", TWILIO_WHATSAPP_CONTENT_SID: CONTENT_SID });
    await installShop({ smsChannel: "whatsapp" });
    expect((await send()).status).toBe(200);
    expect(fake.twilio.messages).toHaveLength(1);
    const [message] = fake.twilio.messages;
    expect(message).toMatchObject({ channel: "whatsapp", from: "whatsapp:+15005550007", to: PHONE, contentSid: CONTENT_SID });
    expect(message.contentVariables).toEqual({ "1": expect.stringMatching(/^\d{6}$/) });
    expect(message.statusCallback).toBe(`${env.SHOPIFY_APP_URL}/twilio/status`);
    expect(await prisma.messageDelivery.findMany({ select: { channel: true, status: true, providerId: true, purpose: true } })).toEqual([
      { channel: "whatsapp", status: "queued", providerId: message.sid, purpose: "otp" },
    ]);
  });

  it("sends where the shopper chose when the shop lets them choose, and says where the code went", async () => {
    fake.configure({ TWILIO_WHATSAPP_FROM: "+15005550007", TWILIO_WHATSAPP_CONTENT_SID: CONTENT_SID });
    await installShop({ smsChannel: "whatsapp", otpChannelChoice: true, otpResendCooldownSeconds: 0 });
    const viaSms = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE, channel: "sms" } }));
    expect(await jsonOf(viaSms)).toMatchObject({ success: true, channel: "sms" });
    const viaWhatsapp = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE, channel: "whatsapp" } }));
    expect(await jsonOf(viaWhatsapp)).toMatchObject({ success: true, channel: "whatsapp" });
    expect(fake.twilio.messages.map((m) => m.channel)).toEqual(["sms", "whatsapp"]);
    // WhatsApp refused at once: the SMS took over, and the answer says so.
    fake.twilio.fail("invalid_number", { when: (m) => m.channel === "whatsapp" });
    const refused = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE, channel: "whatsapp" } }));
    expect(await jsonOf(refused)).toMatchObject({ success: true, channel: "sms" });
  });

  it("keeps the shop's channel when the shop does not let the shopper choose", async () => {
    fake.configure({ TWILIO_WHATSAPP_FROM: "+15005550007", TWILIO_WHATSAPP_CONTENT_SID: CONTENT_SID });
    await installShop({ smsChannel: "whatsapp" });
    const res = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE, channel: "sms" } }));
    expect(await jsonOf(res)).toMatchObject({ success: true, channel: "whatsapp" });
  });

  it("does not send free text on WhatsApp: with no approved template the code goes by SMS", async () => {
    fake.configure({ TWILIO_WHATSAPP_FROM: "+15005550007" });
    await installShop({ smsChannel: "whatsapp" });
    expect((await send()).status).toBe(200);
    expect(fake.twilio.attempts.map((m) => m.channel)).toEqual(["sms"]);
  });

  it("falls back to SMS when WhatsApp fails", async () => {
    fake.configure({ TWILIO_WHATSAPP_FROM: "whatsapp:+15005550007", TWILIO_WHATSAPP_CONTENT_SID: CONTENT_SID });
    await installShop({ smsChannel: "whatsapp" });
    fake.twilio.fail("invalid_number", { when: (m) => m.channel === "whatsapp" });
    expect((await send()).status).toBe(200);
    expect(fake.twilio.attempts.map((m) => m.channel)).toEqual(["whatsapp", "sms"]);
    expect(fake.twilio.messages[0].channel).toBe("sms");
    const rows = await prisma.messageDelivery.findMany({ orderBy: { createdAt: "asc" } });
    expect(rows.map((r) => [r.channel, r.status, r.errorCode])).toEqual([
      ["whatsapp", "failed", 21211],
      ["sms", "queued", null],
    ]);
    expect(rows[1].fallbackOf).toBe(rows[0].id);
  });

  it("sends by WhatsApp when the shopper asks for it after a failed text, within the same per-number limit", async () => {
    fake.configure({ TWILIO_WHATSAPP_FROM: "+15005550007", TWILIO_WHATSAPP_CONTENT_SID: CONTENT_SID });
    await installShop({ smsChannel: "sms", otpResendCooldownSeconds: 0, otpSendLimit: 2 });
    const ask = (channel?: string) => callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE, channel } }));
    fake.twilio.fail("landline", { times: 1 });
    expect((await ask()).status).toBe(400); // the text was refused: phone_unreachable
    expect((await ask("whatsapp")).status).toBe(200);
    expect(fake.twilio.messages.map((m) => m.channel)).toEqual(["whatsapp"]);
    // Two sends of this number, whatever the channel: the limit holds across them.
    const third = await ask("whatsapp");
    expect(third.status).toBe(429);
    expect(await jsonOf(third)).toMatchObject({ code: "rate_limited" });
  });

  it("uses SMS for a WhatsApp shop when no WhatsApp sender is configured", async () => {
    await installShop({ smsChannel: "whatsapp" });
    expect((await send()).status).toBe(200);
    expect(fake.twilio.attempts.map((m) => m.channel)).toEqual(["sms"]);
  });

  it("sendSms is usable on its own (address correction sends its link through it)", async () => {
    const shop = await installShop();
    const result = await sendSms({ shop: { id: shop.id, name: "Acme", domain: shop.domain }, to: PHONE, body: "Fix your address: https://x", purpose: "address_correction" });
    expect(result).toEqual({ ok: true, id: fake.twilio.messages[0].sid, channel: "sms" });
    fake.twilio.fail("landline", { times: 1 });
    expect(await sendSms({ shop: { id: shop.id, name: null, domain: shop.domain }, to: PHONE, body: "x", purpose: "address_correction" })).toMatchObject({
      ok: false,
      code: "phone_unreachable",
    });
  });
});

describe("WhatsApp that hangs", () => {
  const fake2 = useFakeTwilio({ SMS_TIMEOUT_MS: 1000, TWILIO_WHATSAPP_FROM: "+15005550007", TWILIO_WHATSAPP_CONTENT_SID: CONTENT_SID });

  it("still leaves time for the SMS fallback within SMS_TIMEOUT_MS", async () => {
    await installShop({ smsChannel: "whatsapp" });
    fake2.twilio.fail("hang", { when: (m) => m.channel === "whatsapp" });
    const res = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE } }));
    expect(res.status).toBe(200);
    expect(fake2.twilio.messages.map((m) => m.channel)).toEqual(["sms"]);
  });
});

describe("a slow Twilio that delivers after SMS_TIMEOUT_MS", () => {
  const slow = useFakeTwilio({ SMS_TIMEOUT_MS: 300 });
  const verify = (otp: string) => callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body: { phone: PHONE, otp } }));

  it("GIVEN every text answered late WHEN 6 sends in a row THEN 3 texts (the limit), the rest 429, and the last late code verifies", async () => {
    const shop = await installShop({ otpResendCooldownSeconds: 0 });
    slow.twilio.fail("late", { delayMs: 800 });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await send()).status);
    expect(statuses).toEqual([502, 502, 502, 429, 429, 429]);
    expect(slow.twilio.messages).toHaveLength(3);
    const daily = await prisma.rateCounter.findFirst({ where: { key: { startsWith: `otp-daily:${shop.id}:` } } });
    expect(daily?.count).toBe(3);
    const res = await verify(slow.twilio.codeFor(PHONE));
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toMatchObject({ success: true });
  });

  it("the same on WhatsApp: a template answered late keeps the code and the count, though the SMS fallback was refused", async () => {
    slow.configure({ TWILIO_WHATSAPP_FROM: "+15005550007", TWILIO_WHATSAPP_CONTENT_SID: CONTENT_SID });
    await installShop({ smsChannel: "whatsapp", otpResendCooldownSeconds: 0 });
    slow.twilio.fail("late", { delayMs: 800, when: (m) => m.channel === "whatsapp" });
    slow.twilio.fail("server_error", { when: (m) => m.channel === "sms" });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await send()).status);
    expect(statuses).toEqual([502, 502, 502, 429, 429, 429]);
    expect(slow.twilio.messages.map((m) => m.channel)).toEqual(["whatsapp", "whatsapp", "whatsapp"]);
    expect((await verify(slow.twilio.codeFor(PHONE))).status).toBe(200);
  });

  it("still gives the send back on a definite refusal answered in time (Twilio 503)", async () => {
    await installShop({ otpSendLimit: 1, otpResendCooldownSeconds: 0 });
    slow.twilio.fail("server_error", { times: 1 });
    expect((await send()).status).toBe(502);
    expect(await prisma.otpChallenge.count()).toBe(0);
    expect((await send()).status).toBe(200);
  });
});
