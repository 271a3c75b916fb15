import * as sendOtp from "~/routes/proxy.send-otp";
import { clock } from "~/core/utils/clock.server";
import { PHONE_TEXTS_CEILING, PHONE_TEXTS_PER_NETWORK } from "~/otp/send-limits.server";
import { PHONE_TEXTS_PER_DAY, phoneTextsKey } from "~/sms/phone-cap.server";
import { peekRateLimit } from "~/core/rate-limit/rate-limit.server";
import { prisma } from "~/core/db.server";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";

/**
 * A number's own limits, spent by strangers, do not stop its owner (docs/security.md, "Nobody locks others
 * out"): each network gets a slice of the number's texts (5 a day), and past the number's 10 a day a network
 * that has not asked for it yet still gets its first code, up to a ceiling of 30 texts a day that nobody passes.
 * Every request is 4 minutes after the one before, so the number's own 3 codes per 10 minutes are never
 * what refuses (that limit does not hold a network's first ask either).
 */
const fake = useFakeTwilio();
const VICTIM = "+14155550123";
/** A /24 network of its own per index (each stranger's, and the owner's). */
const network = (n: number) => `198.${18 + Math.floor(n / 250)}.${n % 250}.7`;
const OWNER = network(400);

let step = 0;
const start = new Date("2026-03-02T08:00:00Z");
function send(ip: string) {
  vi.spyOn(clock, "now").mockReturnValue(new Date(start.getTime() + step++ * 4 * 60_000));
  return callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: VICTIM }, headers: { "x-forwarded-for": ip } }));
}
const texted = () => fake.twilio.messages.filter((m) => m.to === VICTIM).length;

/**
 * Strangers on `networks` networks ask for the victim's number until refused (at most once more than a
 * network's slice), one network after the other: the order that texts the victim most.
 */
async function strangers(networks: number[]) {
  const statuses: number[] = [];
  for (const n of networks) {
    for (let ask = 0; ask <= PHONE_TEXTS_PER_NETWORK; ask++) {
      statuses.push((await send(network(n))).status);
      if (statuses[statuses.length - 1] !== 200) break;
    }
  }
  return statuses;
}

// Up to 60 signed requests a test, each its own decision: give a loaded machine time (no timing is asserted).
vi.setConfig({ testTimeout: 120_000 });

beforeEach(async () => {
  step = 0;
  await installShop({ dailySendCap: 1000, otpResendCooldownSeconds: 0 });
});
afterEach(() => vi.restoreAllMocks());

describe("a number's texts split by network", () => {
  it("strangers on one network get 5 of the number's texts; the owner on their own network gets a code and two resends", async () => {
    expect(await strangers([1])).toEqual([200, 200, 200, 200, 200, 429]);
    const owner = [await send(OWNER), await send(OWNER), await send(OWNER)];
    expect(owner.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(texted()).toBe(8);
  });

  it("strangers on 2 networks spend the number's 10: the owner's first code still goes at once; a resend waits for the number's day", async () => {
    const statuses = await strangers([1, 2]);
    expect(statuses.filter((s) => s === 200)).toHaveLength(2 * PHONE_TEXTS_PER_NETWORK);
    expect(texted()).toBe(PHONE_TEXTS_PER_DAY);
    expect((await send(OWNER)).status).toBe(200);
    expect(texted()).toBe(PHONE_TEXTS_PER_DAY + 1);
    await expectResendWaitsForTheDay();
  });

  it("strangers on 20 networks: the victim gets 28 texts in the day, the owner's first code still goes at once; a resend waits for the number's day", async () => {
    await strangers(Array.from({ length: 20 }, (_, i) => i + 1));
    // 2 networks spend the number's 10 (5 + 5), then each of the other 18 gets its first code only.
    expect(texted()).toBe(PHONE_TEXTS_PER_DAY + 18);
    expect((await send(OWNER)).status).toBe(200);
    expect(texted()).toBe(PHONE_TEXTS_PER_DAY + 19);
    await expectResendWaitsForTheDay();
  });

  it("no number is ever texted past the ceiling, however many networks ask: then even a new network waits for the number's day", async () => {
    await strangers(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(texted()).toBe(PHONE_TEXTS_CEILING);
    const owner = await send(OWNER);
    expect(owner.status).toBe(429);
    expect(texted()).toBe(PHONE_TEXTS_CEILING);
    // The number's 24-hour window over, the owner gets their code.
    vi.spyOn(clock, "now").mockReturnValue(new Date(start.getTime() + 86_400_000 + 60_000));
    const next = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: VICTIM }, headers: { "x-forwarded-for": OWNER } }));
    expect(next.status).toBe(200);
  });

  it("40 networks asking at once: exactly the ceiling of 30 texts goes, and no refused ask spends the number's count (both engines)", async () => {
    vi.spyOn(clock, "now").mockReturnValue(start);
    const asks = Array.from({ length: 40 }, (_, i) =>
      callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: VICTIM }, headers: { "x-forwarded-for": network(i + 1) } })),
    );
    const statuses = (await Promise.all(asks)).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(PHONE_TEXTS_CEILING);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - PHONE_TEXTS_CEILING);
    expect(texted()).toBe(PHONE_TEXTS_CEILING);
    expect(await peekRateLimit(phoneTextsKey((await prisma.shop.findFirstOrThrow()).id, VICTIM), 86_400)).toBe(PHONE_TEXTS_CEILING);
  });
});

/** Past the number's 10, a network that asked already waits for the number's 24-hour window, begun with the strangers' first text. */
async function expectResendWaitsForTheDay() {
  const resend = await send(OWNER);
  expect(resend.status).toBe(429);
  const body = await jsonOf(resend);
  expect(body).toMatchObject({ code: "rate_limited" });
  expect(Number(body.retryAfter)).toBe(86_400 - (clock.now().getTime() - start.getTime()) / 1000);
}
