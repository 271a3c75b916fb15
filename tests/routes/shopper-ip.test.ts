import * as sendOtp from "~/routes/proxy.send-otp";
import * as createCheckout from "~/routes/proxy.create-checkout";
import { shopperIp } from "~/http/shopper-ip.server";
import { issueProof } from "~/otp/proof.server";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { useFakeShopify } from "../helpers/fake-shopify";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";

/**
 * The shopper's IP is the address Shopify's proxy saw: the right-most X-Forwarded-For entry (or the one
 * TRUSTED_PROXY_HOPS before it). Entries the browser wrote to the left neither dodge a per-IP limit nor
 * pin one on someone else (docs/security.md).
 */
useFakeTwilio();
const shopify = useFakeShopify((f) => handlers.installDefaultHandlers(f));
beforeEach(() => handlers.installDefaultHandlers(shopify));

const send = (phone: string, forwardedFor: string) =>
  callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone }, headers: { "x-forwarded-for": forwardedFor } }));

describe("the shopper's IP on storefront requests", () => {
  it("reads the entry Shopify added (right-most), or the one before the app's own proxies", () => {
    const req = (xff?: string) => new Request("https://app.test/proxy/send-otp", { headers: xff === undefined ? {} : { "x-forwarded-for": xff } });
    expect(shopperIp(req("203.0.113.9"), 0)).toBe("203.0.113.9");
    expect(shopperIp(req("1.2.3.4, 203.0.113.9"), 0)).toBe("203.0.113.9");
    expect(shopperIp(req("1.2.3.4, 203.0.113.9, 10.0.0.2"), 1)).toBe("203.0.113.9");
    expect(shopperIp(req(" ::FFFF:203.0.113.9 "), 0)).toBe("203.0.113.9");
    expect(shopperIp(req("203.0.113.9"), 1)).toBeNull(); // fewer entries than the app's own hops
    expect(shopperIp(req("1.2.3.4, not-an-ip"), 0)).toBeNull();
    expect(shopperIp(req(), 0)).toBeNull();
  });

  it("GIVEN a per-IP attempt limit WHEN one IP forges a new left-most X-Forwarded-For each time THEN its attempts still count against the IP Shopify saw", async () => {
    await installShop({ riskIpAttemptLimit: 2, otpSendLimit: 10, otpResendCooldownSeconds: 0 });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await jsonOf(await send(`+91981234570${i}`, `198.51.100.${i + 1}, 203.0.113.9`)));
    expect(answers[1].allowedModes).toContain("cod");
    expect(answers[2]).toMatchObject({ allowedModes: ["prepaid", "partial"], risk: { band: "high", reasons: [{ code: "ip_attempt_limit" }] } });
  });

  it("GIVEN a per-IP attempt limit WHEN an attacker writes a victim's IP as the left-most entry THEN the victim's IP is not charged", async () => {
    await installShop({ riskIpAttemptLimit: 2, otpSendLimit: 10, otpResendCooldownSeconds: 0 });
    const victim = "192.0.2.44";
    for (let i = 0; i < 3; i++) await send(`+91981234571${i}`, `${victim}, 198.51.100.${i + 1}`);
    const answer = await jsonOf(await send("+919812345720", victim));
    expect(answer.allowedModes).toContain("cod");
    expect(answer.risk).toMatchObject({ band: "low" });
  });

  it("create-checkout hands Shopify the IP its proxy saw as the buyer's IP, not the forged one", async () => {
    await installShop();
    const phone = "+919812345730";
    const proof = issueProof(SHOP, { phone, mode: "prepaid", selectionId: "fromverifyotp" }).token;
    const res = await callRoute(
      createCheckout,
      signedRequest("/create-checkout", { method: "POST", body: { phone, selectedMode: "prepaid", variantId: "1", proof }, headers: { "x-forwarded-for": "1.2.3.4, 203.0.113.7" } }),
    );
    expect(res.status).toBe(200);
    const [call] = shopify.callsTo(OPERATIONS.cartCreate);
    expect(call.headers["shopify-storefront-buyer-ip"]).toBe("203.0.113.7");
  });
});
