import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import type { StorefrontRoute } from "~/http/storefront.server";
import { callRoute, jsonOf, signedRequest, unsignedRequest } from "../helpers/proxy";
import { describeProxyEdge } from "../helpers/proxy-edge";
import { installShop } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";
import { asServerReads, bothWays } from "../helpers/wire";

/**
 * send-otp and verify-otp have two ways in: Remix's (a web Request to `action`, a Response back) and
 * the production server's (`storefront.wire`: what server.mjs read, what it writes). The route tests go
 * Remix's way; here the app-proxy edge runs again the server's way, and the same requests get the same
 * status, headers and body both ways.
 */

const PHONE = "+919876543210";
const fake = useFakeTwilio();

/** The route the server's way, as a Response again so the shared edge suite can read it. */
function viaServer(route: { storefront: StorefrontRoute }) {
  return {
    action: async ({ request }: { request: Request }) => {
      const answer = await route.storefront.wire(await asServerReads(request));
      return new Response(answer.text, { status: answer.status, headers: answer.headers });
    },
  };
}

describeProxyEdge("POST /send-otp, the server's way", viaServer(sendOtp), { path: "/send-otp", method: "POST", validBody: { phone: PHONE }, requiredFields: ["phone"] });
describeProxyEdge("POST /verify-otp, the server's way", viaServer(verifyOtp), {
  path: "/verify-otp",
  method: "POST",
  validBody: { phone: PHONE, otp: "123456" },
  requiredFields: ["phone", "otp"],
});

describe("the storefront's two ways in", () => {
  beforeEach(async () => {
    await installShop();
  });

  it("refuse alike: no signature, a wrong method, malformed JSON, a body over 16 KiB, an ill-typed field, a stranger shop", async () => {
    for (const route of [sendOtp, verifyOtp]) {
      const path = route === sendOtp ? "/send-otp" : "/verify-otp";
      const answers = [
        await bothWays(route, route.storefront.wire, () => unsignedRequest(path, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })),
        await bothWays(route, route.storefront.wire, () => signedRequest(path, { method: "PUT", body: { phone: PHONE } })),
        await bothWays(route, route.storefront.wire, () => signedRequest(path, { method: "POST", body: "{not json" })),
        await bothWays(route, route.storefront.wire, () => signedRequest(path, { method: "POST", body: { phone: PHONE, pad: "x".repeat(17 * 1024) } })),
        await bothWays(route, route.storefront.wire, () => signedRequest(path, { method: "POST", body: { phone: 42, otp: "123456" } })),
        await bothWays(route, route.storefront.wire, () => signedRequest(path, { method: "POST", body: { phone: PHONE, otp: "123456" }, shop: "stranger.myshopify.com" })),
      ];
      expect(answers.map((a) => [a.status, JSON.parse(a.text).code])).toEqual([
        [401, "invalid_signature"],
        [405, "method_not_allowed"],
        [400, "invalid_request"],
        [413, "payload_too_large"],
        [400, "invalid_request"],
        [403, "app_not_installed"],
      ]);
      expect(answers[1].headers.allow).toBe("POST");
    }
  });

  it("name each refused field in words, the same both ways", async () => {
    const fieldsOf = async (route: typeof sendOtp | typeof verifyOtp, path: string, body: unknown) =>
      JSON.parse((await bothWays(route, route.storefront.wire, () => signedRequest(path, { method: "POST", body }))).text).fields;
    expect(await fieldsOf(sendOtp, "/send-otp", {})).toEqual({ phone: "required" });
    expect(await fieldsOf(sendOtp, "/send-otp", { phone: 42 })).toEqual({ phone: "expected a string" });
    expect(await fieldsOf(sendOtp, "/send-otp", { phone: "+1".padEnd(41, "5") })).toEqual({ phone: "too long" });
    expect(await fieldsOf(sendOtp, "/send-otp", { phone: PHONE, channel: 42 })).toEqual({ channel: 'expected "sms" or "whatsapp"' });
    expect(await fieldsOf(verifyOtp, "/verify-otp", { phone: PHONE })).toEqual({ otp: "required" });
    expect(await fieldsOf(verifyOtp, "/verify-otp", { phone: PHONE, otp: true })).toEqual({ otp: "expected a string of digits" });
    expect(await fieldsOf(verifyOtp, "/verify-otp", { phone: PHONE, otp: "12" })).toEqual({ otp: "expected the 6-digit code" });
  });

  it("send, a wrong code and the right one, the server's way: the same answers the route tests hold Remix's way to", async () => {
    const post = (route: { storefront: StorefrontRoute }, path: string, body: unknown) =>
      asServerReads(signedRequest(path, { method: "POST", body, headers: { "x-forwarded-for": "203.0.113.7" } })).then((r) => route.storefront.wire(r));

    const sent = await post(sendOtp, "/send-otp", { phone: PHONE });
    expect(sent.status).toBe(200);
    expect(sent.headers).toEqual({ "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
    expect(JSON.parse(sent.text)).toMatchObject({ success: true, expiresIn: 600, resendAfter: 30, channel: "sms" });

    const code = fake.twilio.codeFor(PHONE);
    const wrong = await post(verifyOtp, "/verify-otp", { phone: PHONE, otp: code === "000000" ? "111111" : "000000" });
    expect(wrong.status).toBe(400);
    expect(JSON.parse(wrong.text)).toEqual({ error: "That code is not right.", code: "invalid_code", success: false, attemptsRemaining: 4 });

    const right = await post(verifyOtp, "/verify-otp", { phone: PHONE, otp: code });
    expect(right.status).toBe(200);
    expect(JSON.parse(right.text)).toMatchObject({ success: true, proof: expect.stringMatching(/^v1\./), proofExpiresIn: 7200 });
  });

  it("a limit's Retry-After goes out as a header both ways", async () => {
    // The number's fourth code within the window is refused with a Retry-After; same number both ways.
    const phone = "+14155550109";
    for (let i = 0; i < 3; i++) await sendOtp.storefront.wire(await asServerReads(signedRequest("/send-otp", { method: "POST", body: { phone } })));
    const limited = await bothWays(sendOtp, sendOtp.storefront.wire, () => signedRequest("/send-otp", { method: "POST", body: { phone } }));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(JSON.parse(limited.text)).toMatchObject({ code: "rate_limited", success: false, retryAfter: Number(limited.headers["retry-after"]) });
    expect(await jsonOf(await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone } })))).toMatchObject({ code: "rate_limited" });
  });
});
