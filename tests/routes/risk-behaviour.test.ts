import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import { BEHAVIOUR_CAP } from "~/risk/score";
import * as handlers from "../mocks/shopify/handlers";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";

/**
 * The modal's behaviour fields at the door (docs/risk.md, "Behaviour"): parsed with zod, a malformed set
 * dropped, never refused; each a reason in its own words; together at most BEHAVIOUR_CAP points, never a
 * discount. The shopper's own browser writes them, so an attacker controls them: these tests play that.
 */
const PHONE = "+919812345678";
const twilio = useFakeTwilio();
const shopify = useFakeShopify((f) => handlers.installDefaultHandlers(f));
beforeEach(() => handlers.installDefaultHandlers(shopify));
const send = async (body: Record<string, unknown>, phone = PHONE) => callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone, ...body } }));
type Answer = { risk: { band: string; reasons: { code: string; text: string }[] }; allowedModes: string[] };
const answerOf = async (res: Response): Promise<Answer> => (await jsonOf(res)) as unknown as Answer;
const codes = (answer: Answer) => answer.risk.reasons.map((r) => r.code);

describe("behaviour fields at send-otp and verify-otp", () => {
  it("each behaviour is a reason with its own words", async () => {
    await installShop({ otpResendCooldownSeconds: 0, otpSendLimit: 10 });
    const answer = await answerOf(await send({ behaviour: { numbersTried: 3, msToRequest: 1_500, codesAbandoned: 0 } }));
    expect(codes(answer)).toEqual(["behaviour_numbers_tried", "behaviour_rushed"]);
    expect(answer.risk.reasons[0].text).toBe("3 other phone numbers were tried from this browser before this one.");
    expect(answer.risk.band).toBe("medium"); // 15 + 5 (the cap leaves the second 5 of its 10) = 20
    const verified = await answerOf(await callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body: { phone: PHONE, otp: twilio.twilio.codeFor(PHONE), behaviour: { msToType: 600_000 } } })));
    expect(codes(verified)).toContain("behaviour_slow_code");
  });

  it("an attacker's worst values add at most the cap, and the calmest take nothing off", async () => {
    await installShop({ otpResendCooldownSeconds: 0, otpSendLimit: 10 });
    const worst = await answerOf(await send({ behaviour: { numbersTried: 1000, msToRequest: 0, codesAbandoned: 1000 } }, "+919812345601"));
    const calm = await answerOf(await send({ behaviour: { numbersTried: 0, msToRequest: 86_400_000, codesAbandoned: 0 } }, "+919812345602"));
    const none = await answerOf(await send({}, "+919812345603"));
    expect(worst.risk.band).toBe("medium"); // never high from behaviour alone
    expect(BEHAVIOUR_CAP).toBe(20);
    expect(calm.risk).toEqual(none.risk);
    expect(calm.allowedModes).toEqual(none.allowedModes);
  });

  it("drops a malformed set at the door and answers as without it", async () => {
    await installShop({ otpResendCooldownSeconds: 0, otpSendLimit: 10 });
    for (const [i, behaviour] of [{ numbersTried: -1 }, { msToRequest: "fast" }, { codesAbandoned: 1e9 }, "x", [1], { numbersTried: 2.5 }].entries()) {
      const res = await send({ behaviour }, `+9198123456${10 + i}`);
      expect(res.status).toBe(200);
      expect(codes(await answerOf(res))).toEqual([]);
    }
  });
});
