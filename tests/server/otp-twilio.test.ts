import { postSigned, startServer, type RunningServer } from "../helpers/server";
import { sendingThrough, startFakeTwilio, type FakeTwilio } from "../mocks/twilio";

/** The production build's Twilio sender (the real client, bundled as the server runs it) against the fake Twilio. */
describe("one-time codes through Twilio on the built server", () => {
  let twilio: FakeTwilio;
  let server: RunningServer;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
    server = await startServer({
      ...sendingThrough(twilio),
      SMS_TIMEOUT_MS: "1500",
    });
  });
  afterAll(async () => {
    await server?.stop();
    await twilio?.close();
  });

  const post = (path: string, body: unknown) => postSigned(server, path, body);

  it("sends through Twilio and verifies the code Twilio carried", async () => {
    const phone = "+919876543210";
    const sent = await post("/send-otp", { phone, locale: "hi" });
    expect(sent.status).toBe(200);
    expect(twilio.messages[0]).toMatchObject({ to: phone, from: "+15005550006", channel: "sms" });
    expect(twilio.messages[0].body).toContain("सत्यापन कोड");
    const verified = await post("/verify-otp", { phone, otp: twilio.codeFor(phone) });
    expect(await verified.json()).toMatchObject({ success: true, proof: expect.stringMatching(/^v1\./) });
  });

  it("answers 502 sms_unavailable when Twilio hangs past SMS_TIMEOUT_MS, and 400 phone_unreachable for a landline", async () => {
    twilio.fail("hang", { times: 1 });
    const hung = await post("/send-otp", { phone: "+14155550123" });
    expect(hung.status).toBe(502);
    expect((await hung.json()).code).toBe("sms_unavailable");
    twilio.fail("landline", { times: 1 });
    const landline = await post("/send-otp", { phone: "+14155550124" });
    expect(landline.status).toBe(400);
    expect((await landline.json()).code).toBe("phone_unreachable");
    expect(server.output()).not.toContain("+14155550124");
  });
});
