import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import { prisma } from "~/core/db.server";
import { lastVerifiedAt } from "~/otp/verified-phones.server";
import { clock } from "~/core/utils/clock.server";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { describeProxyEdge } from "../helpers/proxy-edge";
import { installShop, SHOP } from "../helpers/shops";
import { checkProof } from "~/otp/proof.server";
import { useFakeTwilio } from "../helpers/twilio";

const PHONE = "+971501234567";
const fake = useFakeTwilio();

async function sendCode(phone = PHONE, shop?: string) {
  const res = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone }, shop }));
  expect(res.status).toBe(200);
  return fake.twilio.codeFor(phone);
}

function verify(body: Record<string, unknown>, shop?: string) {
  return callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body, shop }));
}

/** A 6-digit code that is not `code`. */
const wrong = (code: string, n = 1) => String((Number(code) + n) % 1_000_000).padStart(6, "0");

describeProxyEdge("POST /verify-otp", verifyOtp, {
  path: "/verify-otp",
  method: "POST",
  validBody: { phone: PHONE, otp: "123456", selectedMode: "cod" },
  requiredFields: ["phone", "otp"],
});

describe("POST /verify-otp", () => {
  it("accepts the code that was sent: 200 { success: true }, marks the phone verified, stores the selection", async () => {
    const shop = await installShop();
    const code = await sendCode();
    const res = await verify({ phone: PHONE, otp: code, selectedMode: "prepaid", cartToken: "c1-abc" });
    expect(res.status).toBe(200);
    const body = await jsonOf(res);
    expect(body).toEqual({
      success: true,
      proof: expect.stringMatching(/^v1\.971501234567\.prepaid\.\d+\.[a-z0-9]+\.[0-9a-f]{32}$/),
      proofExpiresIn: 7200,
      deviceToken: expect.stringMatching(/^d1\.\d+\.[0-9a-f]{32}$/),
      // Additive (docs/risk.md): the number is proven, so its history counts; a first verification is low.
      allowedModes: ["cod", "prepaid", "partial"], risk: { band: "low", reasons: [] },
    });
    expect(await lastVerifiedAt(shop.id, PHONE)).toBeInstanceOf(Date);
    const selections = await prisma.selection.findMany();
    expect(selections).toHaveLength(1);
    expect(selections[0]).toMatchObject({ shopId: shop.id, phone: PHONE, mode: "prepaid", cartToken: "c1-abc", verified: true, source: "verify-otp" });
    // The proof is bound to this shop, number, mode and selection.
    expect(checkProof(SHOP, body.proof as string)).toMatchObject({ ok: true, proof: { phone: PHONE, mode: "prepaid", selectionId: selections[0].id } });
    expect(checkProof("other-shop.myshopify.com", body.proof as string).ok).toBe(false);
  });

  it("the verified mark makes the next send-otp skip only for the browser holding the device token", async () => {
    await installShop();
    const { deviceToken } = await jsonOf(await verify({ phone: PHONE, otp: await sendCode() }));
    const sendWith = (body: Record<string, unknown>) => callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body }));
    expect(await jsonOf(await sendWith({ phone: PHONE, deviceToken }))).toEqual({ success: true, skipped: true, reason: "returning_customer", allowedModes: ["cod", "prepaid", "partial"], risk: { band: "low", reasons: [] } });
    // Anyone else (no token, a token for another number, garbage) gets a code like for any number:
    // the answer does not say the number was ever verified.
    const sendsBefore = fake.twilio.attempts.length;
    const other = await jsonOf(await sendWith({ phone: PHONE }));
    expect(other).toEqual({ success: true, expiresIn: 600, resendAfter: 30, channel: "sms", allowedModes: ["cod", "prepaid", "partial"], risk: { band: "low", reasons: [] } });
    expect(fake.twilio.attempts.length).toBe(sendsBefore + 1);
  });

  it("records cod when the modal did not say which mode", async () => {
    await installShop();
    await verify({ phone: PHONE, otp: await sendCode() });
    expect((await prisma.selection.findFirstOrThrow()).mode).toBe("cod");
  });

  it("accepts the code as a number", async () => {
    await installShop({ otpResendCooldownSeconds: 0, otpSendLimit: 50 });
    let code = await sendCode();
    // A JSON number cannot carry a leading zero: resend until the code has none (9 in 10 do).
    while (code.startsWith("0")) code = await sendCode();
    const res = await verify({ phone: PHONE, otp: Number(code) });
    expect(res.status).toBe(200);
  });

  it("is single use: the same code a second time is 409 already_verified with no proof; another code reads as expired; a new code can be sent at once", async () => {
    await installShop();
    const code = await sendCode();
    expect((await verify({ phone: PHONE, otp: code })).status).toBe(200);
    const again = await verify({ phone: PHONE, otp: code });
    expect(again.status).toBe(409);
    const body = await jsonOf(again);
    expect(body).toMatchObject({ success: false, code: "already_verified", error: expect.any(String) });
    expect(body).not.toHaveProperty("proof");
    const other = await verify({ phone: PHONE, otp: wrong(code) });
    expect(other.status).toBe(400);
    expect(await jsonOf(other)).toMatchObject({ code: "code_expired" });
    // The used code does not hold the resend cooldown: the next send replaces it, and its code verifies.
    const next = await sendCode();
    expect((await verify({ phone: PHONE, otp: next })).status).toBe(200);
  });

  it("answers 400 code_expired when no code was sent", async () => {
    await installShop();
    const res = await verify({ phone: PHONE, otp: "123456" });
    expect(res.status).toBe(400);
    expect(await jsonOf(res)).toMatchObject({ code: "code_expired", error: expect.any(String) });
  });

  it("expires a code after 10 minutes (business clock only; the signature stays fresh)", async () => {
    await installShop();
    const t0 = new Date(Date.now());
    vi.spyOn(clock, "now").mockReturnValue(t0);
    const code = await sendCode();
    vi.spyOn(clock, "now").mockReturnValue(new Date(t0.getTime() + 600_000));
    const res = await verify({ phone: PHONE, otp: code });
    expect(res.status).toBe(400);
    expect((await jsonOf(res)).code).toBe("code_expired");
    vi.spyOn(clock, "now").mockReturnValue(new Date(t0.getTime() + 599_000));
    expect((await verify({ phone: PHONE, otp: code })).status).toBe(200);
  });

  it("follows the shop's code lifetime", async () => {
    await installShop({ otpTtlSeconds: 120 });
    const t0 = new Date();
    vi.spyOn(clock, "now").mockReturnValue(t0);
    const code = await sendCode();
    vi.spyOn(clock, "now").mockReturnValue(new Date(t0.getTime() + 121_000));
    expect((await jsonOf(await verify({ phone: PHONE, otp: code }))).code).toBe("code_expired");
  });

  it("a new send replaces the pending code: the old one no longer works, the new one does", async () => {
    await installShop();
    const t0 = new Date();
    vi.spyOn(clock, "now").mockReturnValue(t0);
    const first = await sendCode();
    vi.spyOn(clock, "now").mockReturnValue(new Date(t0.getTime() + 30_000));
    const second = await sendCode();
    if (first !== second) {
      const old = await verify({ phone: PHONE, otp: first });
      expect(old.status).toBe(400);
      expect(await jsonOf(old)).toMatchObject({ code: "invalid_code", attemptsRemaining: 4 });
    }
    expect((await verify({ phone: PHONE, otp: second })).status).toBe(200);
  });

  it("counts wrong codes: 400 invalid_code with attemptsRemaining 4..1, then 429 attempts_exhausted, even for the right code", async () => {
    await installShop();
    const code = await sendCode();
    const remaining = [];
    for (let i = 1; i <= 4; i++) {
      const res = await verify({ phone: PHONE, otp: wrong(code, i) });
      expect(res.status).toBe(400);
      const body = await jsonOf(res);
      expect(body).toMatchObject({ success: false, code: "invalid_code", error: expect.any(String) });
      remaining.push(body.attemptsRemaining);
    }
    expect(remaining).toEqual([4, 3, 2, 1]);
    const fifth = await verify({ phone: PHONE, otp: wrong(code, 5) });
    expect(fifth.status).toBe(429);
    expect(await jsonOf(fifth)).toMatchObject({ code: "attempts_exhausted", attemptsRemaining: 0 });
    const right = await verify({ phone: PHONE, otp: code });
    expect(right.status).toBe(429);
    expect(await jsonOf(right)).toMatchObject({ code: "attempts_exhausted", attemptsRemaining: 0 });
    expect(await prisma.verifiedCustomer.count()).toBe(0);
  });

  it("the right code on the fifth attempt still verifies", async () => {
    await installShop();
    const code = await sendCode();
    for (let i = 1; i <= 4; i++) await verify({ phone: PHONE, otp: wrong(code, i) });
    expect((await verify({ phone: PHONE, otp: code })).status).toBe(200);
  });

  it("a new code after exhaustion gets a fresh 5 attempts", async () => {
    await installShop();
    const t0 = new Date();
    vi.spyOn(clock, "now").mockReturnValue(t0);
    const code = await sendCode();
    for (let i = 1; i <= 5; i++) await verify({ phone: PHONE, otp: wrong(code, i) });
    vi.spyOn(clock, "now").mockReturnValue(new Date(t0.getTime() + 30_000));
    const fresh = await sendCode();
    const res = await verify({ phone: PHONE, otp: wrong(fresh) });
    expect(await jsonOf(res)).toMatchObject({ code: "invalid_code", attemptsRemaining: 4 });
    expect((await verify({ phone: PHONE, otp: fresh })).status).toBe(200);
  });

  it("follows the shop's attempt limit", async () => {
    await installShop({ otpMaxAttempts: 2 });
    const code = await sendCode();
    expect(await jsonOf(await verify({ phone: PHONE, otp: wrong(code) }))).toMatchObject({ attemptsRemaining: 1 });
    expect((await verify({ phone: PHONE, otp: wrong(code, 2) })).status).toBe(429);
  });

  it("never counts more than 5 of 20 concurrent wrong guesses", async () => {
    await installShop();
    const code = await sendCode();
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => verify({ phone: PHONE, otp: wrong(code, i + 1) })));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(responses.filter((r) => r.status === 400)).toHaveLength(4);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(16);
    expect(bodies.filter((b) => b.code === "invalid_code").map((b) => b.attemptsRemaining).sort()).toEqual([1, 2, 3, 4]);
    const [challenge] = await prisma.otpChallenge.findMany();
    expect(challenge.attempts).toBe(5);
    expect((await verify({ phone: PHONE, otp: code })).status).toBe(429);
  });

  it("20 concurrent right answers: one 200 with the proof, 19 × 409 already_verified, never attempts_exhausted nor code_expired (both engines)", async () => {
    const shop = await installShop();
    const code = await sendCode();
    const responses = await Promise.all(Array.from({ length: 20 }, () => verify({ phone: PHONE, otp: code, selectedMode: "cod" })));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(responses.map((r) => r.status).sort()).toEqual([200, ...Array(19).fill(409)]);
    expect(bodies.filter((b) => b.proof)).toHaveLength(1);
    expect(bodies.filter((b) => b.code).map((b) => b.code)).toEqual(Array(19).fill("already_verified"));
    // Verified once: one selection, one mark, one verification counted, no failure counted.
    expect(await prisma.selection.count()).toBe(1);
    expect(await prisma.verifiedCustomer.count()).toBe(1);
    const stats = await prisma.dailyStat.findMany({ where: { shopId: shop.id, metric: { in: ["otp_verified", "otp_failed"] } } });
    expect(stats.map((s) => [s.metric, s.count])).toEqual([["otp_verified", 1]]);
  });

  it("the right code among concurrent wrong guesses: a wrong guess costs an attempt, the right one none", async () => {
    // Three wrong guesses cannot use up five attempts, whatever their order: the right answers are never refused.
    await installShop({ otpMaxAttempts: 5 });
    const code = await sendCode();
    const guesses = [wrong(code, 1), code, wrong(code, 2), code, code, wrong(code, 3)];
    const responses = await Promise.all(guesses.map((otp) => verify({ phone: PHONE, otp })));
    const codes = await Promise.all(responses.map(async (r) => (r.status === 200 ? "ok" : (await r.json()).code)));
    const right = codes.filter((_, i) => guesses[i] === code);
    expect(right.filter((c) => c === "ok")).toHaveLength(1);
    expect(right.filter((c) => c !== "ok").every((c) => c === "already_verified")).toBe(true);
    // A wrong guess before the code was used is counted; one after it finds the code gone.
    expect(codes.filter((_, i) => guesses[i] !== code).every((c) => c === "invalid_code" || c === "code_expired")).toBe(true);
    expect((await prisma.otpChallenge.findFirstOrThrow()).attempts).toBe(codes.filter((c) => c === "invalid_code").length);
  });

  it("binds a code to its shop and number", async () => {
    await installShop();
    await installShop({ domain: "other-shop.myshopify.com" });
    const code = await sendCode();
    expect((await jsonOf(await verify({ phone: PHONE, otp: code }, "other-shop.myshopify.com"))).code).toBe("code_expired");
    expect((await jsonOf(await verify({ phone: "+971501234568", otp: code }))).code).toBe("code_expired");
    expect((await verify({ phone: PHONE, otp: code })).status).toBe(200);
  });

  it.each([
    [{ phone: PHONE, otp: "12345" }, "otp"],
    [{ phone: PHONE, otp: "abcdef" }, "otp"],
    [{ phone: PHONE, otp: "123456", selectedMode: "card" }, "selectedMode"],
    [{ phone: PHONE, otp: "123456", cartToken: 42 }, "cartToken"],
  ])("answers 400 invalid_request to %j", async (body, field) => {
    await installShop();
    const res = await verify(body);
    expect(res.status).toBe(400);
    expect(await jsonOf(res)).toMatchObject({ code: "invalid_request", fields: { [field]: expect.any(String) } });
  });

  it("answers 400 invalid_phone to a number that is not E.164", async () => {
    await installShop();
    const res = await verify({ phone: "0501234567", otp: "123456" });
    expect(res.status).toBe(400);
    expect((await jsonOf(res)).code).toBe("invalid_phone");
    for (const phone of ["+1 415 555 0123", "+14155550123\n", "+1234567890"]) {
      const again = await verify({ phone, otp: "123456" });
      expect(again.status, JSON.stringify(phone)).toBe(400);
      expect((await jsonOf(again)).code).toBe("invalid_phone");
    }
  });

  it("accepts an optional locale", async () => {
    await installShop();
    const code = await sendCode();
    expect((await verify({ phone: PHONE, otp: code, locale: "ar" })).status).toBe(200);
  });
});
