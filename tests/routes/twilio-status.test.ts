import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import * as status from "~/routes/twilio.status";
import { env } from "~/core/env.server";
import { prisma } from "~/core/db.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import { whatsappFallbackJob } from "~/message-status/sms-fallback-job.server";
import { clock } from "~/core/utils/clock.server";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { CONTENT_SID, statusCallbackRequest, useFakeTwilio } from "../helpers/twilio";

const PHONE = "+919876543210";
const fake = useFakeTwilio({ TWILIO_WHATSAPP_FROM: "+15005550007", TWILIO_WHATSAPP_CONTENT_SID: CONTENT_SID });

async function sendWhatsappCode() {
  await installShop({ smsChannel: "whatsapp", primaryDomain: "shop.example.com", otpTtlSeconds: 600 });
  const res = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE } }));
  expect(res.status).toBe(200);
  const [message] = fake.twilio.messages;
  expect(message.channel).toBe("whatsapp");
  return { message, code: message.contentVariables!["1"] };
}

function report(sid: string, MessageStatus: string, extra: Record<string, string> = {}) {
  const url = `${env.SHOPIFY_APP_URL}/twilio/status`;
  return callRoute(status, statusCallbackRequest(url, { MessageSid: sid, MessageStatus, AccountSid: "ACfake", To: `whatsapp:${PHONE}`, ...extra }));
}

describe("POST /twilio/status: WhatsApp delivery states and the SMS fallback", () => {
  it("records each state Twilio reports, never going back, and sends no SMS for a delivered WhatsApp code", async () => {
    const { message } = await sendWhatsappCode();
    for (const state of ["sent", "delivered", "sent", "read"]) {
      const res = await report(message.sid, state);
      expect(res.status).toBe(200);
      expect(await jsonOf(res)).toMatchObject({ ok: true, known: true });
    }
    const row = await prisma.messageDelivery.findFirstOrThrow({ where: { providerId: message.sid } });
    expect(row).toMatchObject({ channel: "whatsapp", status: "read", errorCode: null, fallbackBody: null });
    expect(fake.twilio.messages.map((m) => m.channel)).toEqual(["whatsapp"]);
  });

  it("counts a message once in the dashboard's rollup, when it first reaches a final state", async () => {
    const { message } = await sendWhatsappCode();
    for (const state of ["sent", "delivered", "read", "delivered"]) expect((await report(message.sid, state)).status).toBe(200);
    const rows = await prisma.dailyStat.findMany({ where: { metric: { startsWith: "message_" } } });
    expect(rows.map((r) => [r.metric, r.dimension, r.count])).toEqual([["message_delivered", "whatsapp", 1]]);
  });

  it("counts a message once when Twilio's delivered and read callbacks arrive at the same time", async () => {
    const { message } = await sendWhatsappCode();
    expect((await report(message.sid, "sent")).status).toBe(200);
    const answers = await Promise.all([report(message.sid, "delivered"), report(message.sid, "read")]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const rows = await prisma.dailyStat.findMany({ where: { metric: { startsWith: "message_" } } });
    expect(rows.map((r) => [r.metric, r.dimension, r.count])).toEqual([["message_delivered", "whatsapp", 1]]);
    expect((await prisma.messageDelivery.findFirstOrThrow({ where: { providerId: message.sid } })).status).toBe("read");
  });

  it("resends the same code by SMS, once, when WhatsApp fails after Twilio accepted it, and the code still works", async () => {
    const { message, code } = await sendWhatsappCode();
    const stored = await prisma.messageDelivery.findFirstOrThrow({ where: { providerId: message.sid } });
    expect(stored.fallbackBody).toEqual(expect.any(String));
    expect(stored.fallbackBody).not.toContain(code); // sealed, not the text

    const res = await report(message.sid, "undelivered", { ErrorCode: "63016" });
    expect(await jsonOf(res)).toEqual({ ok: true, known: true, fallback: "queued" });
    // A second report before the job ran queues nothing more.
    expect(await jsonOf(await report(message.sid, "undelivered", { ErrorCode: "63016" }))).toMatchObject({ fallback: "queued" });
    expect(await runDueJobs([whatsappFallbackJob])).toMatchObject({ claimed: 1, done: 1 });
    // A later report (failed after undelivered) or a redelivery sends nothing more.
    expect(await jsonOf(await report(message.sid, "failed", { ErrorCode: "63016" }))).toMatchObject({ fallback: "already_sent" });
    expect(await jsonOf(await report(message.sid, "undelivered", { ErrorCode: "63016" }))).toMatchObject({ fallback: "already_sent" });

    const sms = fake.twilio.messages.filter((m) => m.channel === "sms");
    expect(sms).toHaveLength(1);
    expect(sms[0].to).toBe(PHONE);
    expect(sms[0].body).toContain(code);
    expect(sms[0].body.split("\n").at(-1)).toBe(`@shop.example.com #${code}`);
    expect(sms[0].statusCallback).toBe(`${env.SHOPIFY_APP_URL}/twilio/status`);

    const rows = await prisma.messageDelivery.findMany({ orderBy: { createdAt: "asc" } });
    expect(rows.map((r) => [r.channel, r.status, r.errorCode])).toEqual([
      ["whatsapp", "undelivered", 63016],
      ["sms", "queued", null],
    ]);
    expect(rows[1]).toMatchObject({ fallbackOf: rows[0].id, providerId: sms[0].sid });

    // The SMS's own states are recorded too.
    await report(sms[0].sid, "delivered");
    expect((await prisma.messageDelivery.findFirstOrThrow({ where: { providerId: sms[0].sid } })).status).toBe("delivered");

    const verified = await callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body: { phone: PHONE, otp: code } }));
    expect(verified.status).toBe(200);
  });

  it("sends no SMS for a code already used or expired", async () => {
    const { message, code } = await sendWhatsappCode();
    await callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body: { phone: PHONE, otp: code } }));
    expect(await jsonOf(await report(message.sid, "failed", { ErrorCode: "63003" }))).toMatchObject({ fallback: "queued" });
    expect(await runDueJobs([whatsappFallbackJob])).toMatchObject({ claimed: 1, done: 1 });
    expect(fake.twilio.messages.map((m) => m.channel)).toEqual(["whatsapp"]);
    expect(await prisma.messageDelivery.findFirstOrThrow({ where: { providerId: message.sid } })).toMatchObject({ status: "failed", errorCode: 63003, fallbackBody: null });
  });

  it("keeps the SMS fallback queued while Twilio is down and sends it once Twilio answers again", async () => {
    const { message, code } = await sendWhatsappCode();
    // GIVEN Twilio answering 503 to the next send
    fake.twilio.fail("server_error", { times: 1 });
    expect(await jsonOf(await report(message.sid, "undelivered", { ErrorCode: "63016" }))).toMatchObject({ fallback: "queued" });
    // WHEN the fallback runs, fails, and runs again after its backoff
    expect(await runDueJobs([whatsappFallbackJob])).toMatchObject({ claimed: 1, retried: 1 });
    expect(fake.twilio.messages.filter((m) => m.channel === "sms")).toEqual([]);
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 31_000));
    expect(await runDueJobs([whatsappFallbackJob])).toMatchObject({ claimed: 1, done: 1 });
    // THEN the code went out by SMS exactly once, and the sealed text is gone
    const sms = fake.twilio.messages.filter((m) => m.channel === "sms");
    expect(sms).toHaveLength(1);
    expect(sms[0].body).toContain(code);
    expect((await prisma.messageDelivery.findFirstOrThrow({ where: { providerId: message.sid } })).fallbackBody).toBeNull();
    expect(await runDueJobs([whatsappFallbackJob])).toMatchObject({ claimed: 0 });
  });

  it("refuses a callback whose signature is missing, wrong or made for other parameters (403), and loses nothing", async () => {
    const { message } = await sendWhatsappCode();
    const url = `${env.SHOPIFY_APP_URL}/twilio/status`;
    const params = { MessageSid: message.sid, MessageStatus: "failed", ErrorCode: "63016" };
    const unsigned = new Request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(params).toString() });
    const cases = [
      unsigned,
      statusCallbackRequest(url, params, { token: "another-token" }),
      statusCallbackRequest(url, params, { tamper: (p) => (p.MessageStatus = "delivered") }),
      statusCallbackRequest(`${url}?x=1`, params, { tamper: () => {} }),
    ];
    // The last one is signed for another URL than the one called.
    cases[3] = new Request(url, { method: "POST", headers: cases[3].headers, body: new URLSearchParams(params).toString() });
    for (const request of cases) {
      const res = await callRoute(status, request);
      expect(res.status).toBe(403);
      expect(await jsonOf(res)).toMatchObject({ code: "invalid_signature" });
    }
    expect(fake.twilio.messages).toHaveLength(1);
    expect((await prisma.messageDelivery.findFirstOrThrow({ where: { providerId: message.sid } })).status).toBe("queued");
  });

  it("answers 400 for fields Twilio would not send, 200 known:false for a message it does not know, 405 for GET", async () => {
    await installShop();
    const bad = await report("SMnot-a-sid", "delivered");
    expect(bad.status).toBe(400);
    expect(await jsonOf(bad)).toMatchObject({ code: "invalid_request", fields: { MessageSid: expect.any(String) } });
    const strange = await report(`SM${"a".repeat(32)}`, "teleported");
    expect(strange.status).toBe(400);
    const unknown = await report(`SM${"b".repeat(32)}`, "delivered");
    expect(unknown.status).toBe(200);
    expect(await jsonOf(unknown)).toEqual({ ok: true, known: false });
    const get = await callRoute(status, new Request(`${env.SHOPIFY_APP_URL}/twilio/status`));
    expect(get.status).toBe(405);
  });
});
