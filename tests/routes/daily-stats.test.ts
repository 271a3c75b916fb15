import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import { prisma } from "~/core/db.server";
import { markPhoneVerified } from "~/otp/verified-phones.server";
import { issueDeviceToken } from "~/otp/proof.server";
import { clock } from "~/core/utils/clock.server";
import { updateShop } from "~/core/settings/shop.server";
import { FREE_PLAN, PLANS } from "~/shared/plans";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";

const fake = useFakeTwilio();

function send(phone: string, extra: Record<string, unknown> = {}) {
  return callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone, ...extra } }));
}

function verify(phone: string, otp: string) {
  return callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body: { phone, otp } }));
}

/** The rollup as stored: "metric/dimension" -> count, for the shop and day. */
async function rollup(shopId: string) {
  const rows = await prisma.dailyStat.findMany({ where: { shopId } });
  return Object.fromEntries(rows.map((r) => [`${r.metric}/${r.dimension}`, r.count]));
}

const today = () => clock.now().toISOString().slice(0, 10);

describe("the daily rollup is kept by the storefront's own requests", () => {
  it("a sent code counts under its number's country, on today's UTC row", async () => {
    const shop = await installShop();
    expect((await send("+919876543210")).status).toBe(200);
    expect((await send("+919876543211")).status).toBe(200);
    expect((await send("+14155550123")).status).toBe(200);
    expect(await rollup(shop.id)).toEqual({ "otp_sent/IN": 2, "otp_sent/US": 1 });
    expect((await prisma.dailyStat.findFirstOrThrow({ where: { shopId: shop.id } })).day).toBe(today());
  });

  it("a refused send counts nothing: blocked, foreign, over the limit", async () => {
    const shop = await installShop({ allowedCountries: "IN" });
    expect((await send("+14155550123")).status).toBe(403);
    expect(await rollup(shop.id)).toEqual({});
  });

  it("a right code counts as verified; wrong, expired and locked codes count as failed by reason", async () => {
    const shop = await installShop({ otpMaxAttempts: 2, otpResendCooldownSeconds: 0 });
    const phone = "+971501234567";
    expect((await send(phone)).status).toBe(200);
    const code = fake.twilio.codeFor(phone);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    expect((await verify(phone, wrong)).status).toBe(400); // wrong, 1 left
    expect((await verify(phone, wrong)).status).toBe(429); // the last try: locked
    expect((await verify(phone, code)).status).toBe(429); // locked stays locked
    expect((await send(phone)).status).toBe(200);
    expect((await verify(phone, fake.twilio.codeFor(phone))).status).toBe(200);
    expect((await verify(phone, "123456")).status).toBe(400); // no code pending any more: expired
    expect(await rollup(shop.id)).toEqual({
      "otp_sent/AE": 2,
      "otp_failed/wrong": 1,
      "otp_failed/locked": 2,
      "otp_verified/": 1,
      "otp_failed/expired": 1,
    });
  });

  it("skips count by reason: codes turned off, and a returning customer's browser", async () => {
    const off = await installShop({ otpEnabled: false });
    expect(await jsonOf(await send("+919876543210"))).toMatchObject({ skipped: true, reason: "otp_disabled" });
    expect(await rollup(off.id)).toEqual({ "otp_skipped/disabled": 1 });

    await updateShop(SHOP, { otpEnabled: true });
    await markPhoneVerified(off.id, "+919876543210");
    const deviceToken = issueDeviceToken(SHOP, "+919876543210", 90, clock.now());
    expect(await jsonOf(await send("+919876543210", { deviceToken }))).toMatchObject({ skipped: true, reason: "returning_customer" });
    expect(await rollup(off.id)).toMatchObject({ "otp_skipped/returning": 1 });
  });
});

describe("the plan's monthly allowance at the storefront gate", () => {
  const monthStart = () => `${clock.now().toISOString().slice(0, 7)}-01`;
  const lastMonth = () => {
    const d = clock.now();
    return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 15)).toISOString().slice(0, 10);
  };

  async function verifiedOn(shopId: string, day: string, count: number) {
    await prisma.dailyStat.create({ data: { shopId, metric: "otp_verified", day, dimension: "", count } });
  }

  it("answers 402 plan_limit_reached once this month's verifications reach the plan's allowance, and sends nothing", async () => {
    const shop = await installShop({ subscriptionPlan: FREE_PLAN.name });
    await verifiedOn(shop.id, monthStart(), FREE_PLAN.monthlyVerifications);
    const res = await send("+919876543210");
    expect(res.status).toBe(402);
    expect(await jsonOf(res)).toEqual({ error: expect.stringContaining("this month"), code: "plan_limit_reached", success: false });
    expect(fake.twilio.messages).toHaveLength(0);
    // The shopper's own send limit was given back: the refusal is the shop's, not theirs.
    const counter = await prisma.rateCounter.findMany({ where: { key: { startsWith: "otp-send:" } } });
    expect(counter.every((c) => c.count === 0)).toBe(true);
  });

  it("sends while one verification is left, and last month's verifications do not count", async () => {
    const shop = await installShop({ subscriptionPlan: FREE_PLAN.name });
    await verifiedOn(shop.id, monthStart(), FREE_PLAN.monthlyVerifications - 1);
    await verifiedOn(shop.id, lastMonth(), 10_000);
    expect((await send("+919876543210")).status).toBe(200);
  });

  it("a larger plan has a larger allowance", async () => {
    const starter = PLANS.find((p) => p.id === "starter")!;
    const shop = await installShop({ subscriptionPlan: starter.name });
    await verifiedOn(shop.id, monthStart(), FREE_PLAN.monthlyVerifications + 10);
    expect((await send("+919876543210")).status).toBe(200);
    await prisma.dailyStat.updateMany({ where: { shopId: shop.id }, data: { count: starter.monthlyVerifications } });
    expect((await send("+919876543211")).status).toBe(402);
  });

  it("the verification that reaches the allowance is counted, and the next send is refused", async () => {
    // Mid-month, the month's use spread over the days before (all of it today would be an abnormal burn: app/enforcement/burn.server.ts).
    vi.spyOn(clock, "now").mockReturnValue(new Date("2026-11-20T10:00:00Z"));
    const shop = await installShop({ subscriptionPlan: FREE_PLAN.name });
    await verifiedOn(shop.id, monthStart(), FREE_PLAN.monthlyVerifications - 1);
    await verifiedOn(shop.id, "2026-10-25", FREE_PLAN.monthlyVerifications); // its usual pace uses the plan
    expect((await send("+919876543210")).status).toBe(200);
    expect((await verify("+919876543210", fake.twilio.codeFor("+919876543210"))).status).toBe(200);
    const counted = await prisma.dailyStat.aggregate({ where: { shopId: shop.id, metric: "otp_verified", day: { gte: monthStart() } }, _sum: { count: true } });
    expect(counted._sum.count).toBe(FREE_PLAN.monthlyVerifications);
    expect(await jsonOf(await send("+919876543211"))).toMatchObject({ code: "plan_limit_reached" });
  });

  it("a number counts once a month: verifying it again costs nothing, and next month it counts again", async () => {
    vi.spyOn(clock, "now").mockReturnValue(new Date("2026-11-20T10:00:00Z"));
    const shop = await installShop({ subscriptionPlan: FREE_PLAN.name, otpResendCooldownSeconds: 0 });
    await verifiedOn(shop.id, monthStart(), FREE_PLAN.monthlyVerifications - 1);
    await verifiedOn(shop.id, "2026-10-25", FREE_PLAN.monthlyVerifications); // its usual pace uses the plan
    const phone = "+919876543210";
    for (let i = 0; i < 3; i++) {
      expect((await send(phone)).status).toBe(200);
      expect((await verify(phone, fake.twilio.codeFor(phone))).status).toBe(200);
      vi.spyOn(clock, "now").mockReturnValue(new Date(`2026-11-2${i + 1}T10:00:00Z`));
    }
    const sum = async (metric: "otp_verified" | "otp_reverified") =>
      (await prisma.dailyStat.aggregate({ where: { shopId: shop.id, metric, day: { gte: monthStart() } }, _sum: { count: true } }))._sum.count ?? 0;
    // One counted against the allowance (which it reached), two more confirmed and shown on the dashboard.
    expect(await sum("otp_verified")).toBe(FREE_PLAN.monthlyVerifications);
    expect(await sum("otp_reverified")).toBe(2);
    // The allowance is used up for new numbers.
    expect(await jsonOf(await send("+919876543299"))).toMatchObject({ code: "plan_limit_reached" });
    // December: the same number is counted again, once.
    vi.spyOn(clock, "now").mockReturnValue(new Date("2026-12-03T10:00:00Z"));
    expect((await send(phone)).status).toBe(200);
    expect((await verify(phone, fake.twilio.codeFor(phone))).status).toBe(200);
    expect((await prisma.dailyStat.findFirstOrThrow({ where: { shopId: shop.id, metric: "otp_verified", day: "2026-12-03" } })).count).toBe(1);
  });

  it("a shop with no plan chosen still answers 402 subscription_required", async () => {
    await installShop({ subscriptionStatus: "none" });
    expect(await jsonOf(await send("+919876543210"))).toMatchObject({ code: "subscription_required" });
  });
});
