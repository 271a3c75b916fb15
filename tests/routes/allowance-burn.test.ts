import * as verifyOtp from "~/routes/proxy.verify-otp";
import * as sendOtp from "~/routes/proxy.send-otp";
import * as appLayout from "~/routes/app";
import * as home from "~/routes/app._index";
import { prisma } from "~/core/db.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import { syncPaymentCustomization } from "~/enforcement/payment-customization.server";
import { FREE_PLAN, PLANS } from "~/shared/plans";
import { JOB_KINDS } from "~/server-build";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { useFakeShopify } from "../helpers/fake-shopify";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import * as handlers from "../mocks/shopify/handlers";

/**
 * An abnormal burn of the allowance (app/enforcement/burn.server.ts) does not pause silently: the shop
 * gets the month's reserve (as many verifications again as its plan's allowance, never charged), so
 * protection continues, and the merchant is told at once on every admin page and in the log.
 */
const shopify = useFakeShopify();
const twilio = useFakeTwilio();
const NOW = new Date("2026-11-20T10:00:00Z");
const STARTER = PLANS.find((p) => p.id === "starter")!;

beforeEach(() => {
  vi.spyOn(clock, "now").mockReturnValue(NOW);
  handlers.installDefaultHandlers(shopify);
  new FakeEnforcementStore().install(shopify);
});

const row = () => prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
/** The shop's past: `perDay` counted verifications on each of the 19 days of the month before today. */
async function history(shopId: string, perDay: number) {
  for (let d = 1; d < 20; d++) {
    await prisma.dailyStat.create({ data: { shopId, metric: "otp_verified", day: `2026-11-${String(d).padStart(2, "0")}`, dimension: "", count: perDay } });
  }
}
async function verify(phone: string, ip: string) {
  const headers = { "x-forwarded-for": ip };
  const sent = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone }, headers }));
  if (sent.status !== 200) return sent.status;
  const res = await callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body: { phone, otp: twilio.twilio.codeFor(phone) }, headers }));
  return res.status;
}
/** The attacker's receiving numbers, each in a block of its own, from networks of their own. */
const attack = (n: number) => Array.from({ length: n }, (_, i) => ({ phone: `+447911${String(100_000 + i * 1000)}`, ip: `100.${64 + i}.${i}.9` }));

describe("an abnormal burn of the allowance", () => {
  it("on Free, numbers verified far above the usual day: the reserve keeps verification on past the allowance, uncharged, and the merchant is told at once", async () => {
    const shop = await installShop({ subscriptionPlan: FREE_PLAN.name, subscriptionId: "free" });
    await history(shop.id, 2); // 38 used, a usual 2 a day (over the 28 days before today)
    await syncPaymentCustomization(await row());
    const warn = vi.spyOn(log, "warn");
    const numbers = attack(30);
    const statuses: number[] = [];
    for (const { phone, ip } of numbers) statuses.push(await verify(phone, ip));
    // Without the reserve the 13th new number would have used up Free's 50 and every send after it answered 402.
    expect(statuses).toEqual(numbers.map(() => 200));
    const after = await row();
    expect(after.burnMonth).toBe("2026-11-01");
    expect(after.burnDetail).toMatch(/verifications today against a usual/);
    expect(warn.mock.calls.filter(([m]) => m.startsWith("allowance: abnormal burn"))).toHaveLength(1);
    const layout = await callAdminRoute<{ verificationNotice: Record<string, unknown> }>(appLayout, await adminRequest("/app"));
    expect(layout.data?.verificationNotice).toMatchObject({ kind: "burn", used: 68, allowance: 100, reserve: FREE_PLAN.monthlyVerifications, seenAt: NOW.toISOString() });
    // The reserve is the month's whole second allowance: past it, verification pauses as before (and the banner says both).
    await prisma.dailyStat.updateMany({ where: { shopId: shop.id, day: "2026-11-01" }, data: { count: 2 + 32 } });
    expect(await jsonOf(await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: "+447922990001" }, headers: { "x-forwarded-for": "192.0.2.1" } })))).toMatchObject({
      code: "plan_limit_reached",
    });
    await runDueJobs(JOB_KINDS);
    const paused = await callAdminRoute<{ verificationNotice: Record<string, unknown> }>(appLayout, await adminRequest("/app"));
    expect(paused.data?.verificationNotice).toMatchObject({ kind: "paused", why: "allowance_used", allowance: 100, burn: { reserve: 50 } });
  });

  it("numbers concentrated on one network are seen even on a busy shop's ordinary day", async () => {
    const shop = await installShop({ subscriptionPlan: STARTER.name, subscriptionId: "gid://shopify/AppSubscription/3" });
    await history(shop.id, 4); // a usual 2.7 a day: 11 today is not far above it

    const numbers = attack(12).map((n, i) => ({ ...n, ip: `203.0.113.${i + 1}` }));
    for (const { phone, ip } of numbers.slice(0, 10)) expect(await verify(phone, ip)).toBe(200);
    expect((await row()).burnMonth).toBeNull();
    expect(await verify(numbers[10].phone, numbers[10].ip)).toBe(200);
    // The 11th new number from 203.0.113.0/24 within a day: past max(10, the usual day).
    expect(await row()).toMatchObject({ burnMonth: "2026-11-01", burnDetail: "11 new numbers verified from one network within a day" });
  });

  const OWN = "+919876500001";
  /** Home's "Send a test code" to the merchant's own phone, then checkout tried with it and a dozen numbers from the office. */
  async function tryCheckout() {
    expect((await callAdminRoute(home, await adminRequest("/app", { form: { intent: "test_code", phone: OWN } }))).status).toBe(200);
    expect(await verify(OWN, "198.51.100.7")).toBe(200);
    for (const { phone } of attack(12)) expect(await verify(phone, "198.51.100.7")).toBe(200);
  }

  it.each([
    ["installed two days ago: the merchant's testing and the first shoppers, not a burn", 2, null],
    ["installed two months ago with no usual day: a dozen new numbers from one network in a day is unusual", 60, "2026-11-01"],
  ])("%s", async (_, days, burnMonth) => {
    await installShop({ subscriptionPlan: STARTER.name, subscriptionId: "gid://shopify/AppSubscription/3", installedAt: new Date(NOW.getTime() - days * 86_400_000) });
    await tryCheckout();
    expect((await row()).burnMonth).toBe(burnMonth);
    const layout = await callAdminRoute<{ verificationNotice?: { kind: string } | null }>(appLayout, await adminRequest("/app"));
    expect(layout.data?.verificationNotice?.kind === "burn").toBe(burnMonth !== null);
  });

  it("a number verifying again is not a new number: nine re-verifications of one number neither count nor look like a burn", async () => {
    const shop = await installShop({ subscriptionPlan: FREE_PLAN.name, subscriptionId: "free", otpResendCooldownSeconds: 0, otpSendLimit: 100 });
    await history(shop.id, 1);
    for (let i = 0; i < 9; i++) expect(await verify(attack(1)[0].phone, "198.51.100.4"), `verification ${i}`).toBe(200);
    expect(await row()).toMatchObject({ burnMonth: null });
    const counted = await prisma.dailyStat.findFirstOrThrow({ where: { shopId: shop.id, metric: "otp_verified", day: "2026-11-20" } });
    expect(counted.count).toBe(1);
  });
});
