import * as verifyOtp from "~/routes/proxy.verify-otp";
import * as sendOtp from "~/routes/proxy.send-otp";
import * as plans from "~/routes/app.plans";
import * as appLayout from "~/routes/app";
import * as subscriptionsWebhook from "~/routes/webhooks.app_subscriptions.update";
import { prisma } from "~/core/db.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import { currentEnforcementState, syncPaymentCustomization } from "~/enforcement/payment-customization.server";
import { noteAllowanceUse } from "~/enforcement/enforcement-jobs.server";
import { PLANS } from "~/shared/plans";
import { getShop, updateShop } from "~/core/settings/shop.server";
import { clock } from "~/core/utils/clock.server";
import { cartPaymentMethodsTransformRun } from "../../extensions/cod-payment-customization/src/cart_payment_methods_transform_run";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { useFakeShopify } from "../helpers/fake-shopify";
import { callRoute, signedRequest } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";
import { signedWebhook } from "../helpers/webhooks";
import { FakeBillingStore } from "../mocks/shopify/billing";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import * as handlers from "../mocks/shopify/handlers";
import { JOB_KINDS } from "~/server-build";

/**
 * docs/contract.md, "When the app cannot verify": when the month's allowance is used up (or the plan ends,
 * or codes are off) checkout offers COD again within a minute, through a durable job, and hides it
 * again by itself when verification resumes; a merchant may keep it hidden instead.
 */
const shopify = useFakeShopify();
const twilio = useFakeTwilio();
const billing = new FakeBillingStore();
let store: FakeEnforcementStore;
const PHONE = "+971501234567";
const FREE = PLANS[0];
const PRO = PLANS.find((p) => p.id === "pro")!;

// Mid-month, so a month's use can be spread over the days before today, by a shop whose usual pace uses
// its plan: all of it today, or far ahead of its pace, would be an abnormal burn (app/enforcement/burn.server.ts,
// tested in tests/routes/allowance-burn.test.ts).
const MID_MONTH = new Date("2026-11-20T10:00:00Z");
/** Last month's use (`used` on one day in the 28 days before MID_MONTH): the shop's usual pace. */
const usualPace = (shopId: string, used: number) => prisma.dailyStat.create({ data: { shopId, metric: "otp_verified", day: "2026-10-25", dimension: "", count: used } });

beforeEach(() => {
  vi.spyOn(clock, "now").mockReturnValue(MID_MONTH);
  store = new FakeEnforcementStore();
  handlers.installDefaultHandlers(shopify);
  store.install(shopify);
  billing.subscriptions.clear();
  billing.install(shopify);
  shopify.on("appSubscriptionCancel", billing.cancel(), "admin");
});

const row = () => prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
const customization = () => {
  expect(store.customizations.size).toBe(1);
  return [...store.customizations.values()][0];
};
const configuration = () => JSON.parse(customization().metafields.find((m) => m.key === "function-configuration")!.value);
/** What Shopify's checkout would do for a shopper without a proof: COD hidden or offered. */
const codHiddenAtCheckout = () => {
  const c = customization();
  if (!c.enabled) return false;
  const out = cartPaymentMethodsTransformRun({
    cart: { proof: null, buyerIdentity: null, deliveryGroups: [] },
    paymentMethods: [{ id: "gid://shopify/PaymentCustomizationPaymentMethod/1", name: "Cash on Delivery (COD)" }],
    paymentCustomization: { metafield: { jsonValue: configuration() } },
    shop: { localTime: { date: clock.now().toISOString().slice(0, 10) } },
  });
  return out.operations.length > 0;
};

/** A shop on Free with enforcement set up (COD hidden) and `used` verifications this month. */
async function shopOnFree(used: number, overrides: Parameters<typeof installShop>[0] = {}) {
  const shop = await installShop({ subscriptionPlan: FREE.name, subscriptionId: "free", ...overrides });
  if (used) await prisma.dailyStat.create({ data: { shopId: shop.id, metric: "otp_verified", day: `${clock.now().toISOString().slice(0, 7)}-01`, dimension: "", count: used } });
  if (used) await usualPace(shop.id, used);
  await syncPaymentCustomization(await row());
  return shop;
}

async function verifyOnce() {
  const sent = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE } }));
  expect(sent.status).toBe(200);
  const res = await callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body: { phone: PHONE, otp: twilio.twilio.codeFor(PHONE) } }));
  expect(res.status).toBe(200);
}

afterEach(() => vi.restoreAllMocks());

describe("the allowance used up", () => {
  it("the verification that uses the last of it queues a job; once it runs, checkout offers COD to everyone (enforce: false)", async () => {
    await shopOnFree(FREE.monthlyVerifications - 1);
    expect(codHiddenAtCheckout()).toBe(true);
    await verifyOnce();
    // Durable: nothing changed in Shopify before the job ran.
    expect(codHiddenAtCheckout()).toBe(true);
    expect(await prisma.job.count({ where: { kind: "enforcement-sync" } })).toBe(1);
    expect(await runDueJobs(JOB_KINDS)).toMatchObject({ done: 1, failed: 0 });
    expect(configuration()).toMatchObject({ enforce: false });
    expect(customization().enabled).toBe(false);
    expect(codHiddenAtCheckout()).toBe(false);
    expect(await currentEnforcementState(await row())).toEqual({ state: "paused", why: "allowance_used", codHidden: false, updating: false });
    // send-otp refusals (402) after that queue nothing more: one job per month and plan.
    const refused = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: "+971501234568" } }));
    expect(refused.status).toBe(402);
    expect(await runDueJobs(JOB_KINDS)).toMatchObject({ claimed: 0 });
    expect(shopify.callsTo(handlers.OPERATIONS.paymentCustomizationUpdate)).toHaveLength(1);
  });

  it("a shop already over its allowance pauses on the first refused send too (the 402 path)", async () => {
    const shop = await shopOnFree(0);
    // Used up without a storefront verification crossing the line (codes confirmed after purchase, say).
    await prisma.dailyStat.create({ data: { shopId: shop.id, metric: "otp_verified", day: clock.now().toISOString().slice(0, 10), dimension: "", count: FREE.monthlyVerifications + 10 } });
    expect(codHiddenAtCheckout()).toBe(true);
    const refused = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE } }));
    expect(refused.status).toBe(402);
    await runDueJobs(JOB_KINDS);
    expect(codHiddenAtCheckout()).toBe(false);
  });

  it("the month's first instant brings enforcement back by itself (a job scheduled by the pause)", async () => {
    const now = new Date("2026-11-20T10:00:00Z");
    vi.spyOn(clock, "now").mockReturnValue(now);
    await shopOnFree(FREE.monthlyVerifications - 1);
    await verifyOnce();
    await runDueJobs(JOB_KINDS);
    expect(codHiddenAtCheckout()).toBe(false);
    // Still November: nothing is due.
    vi.spyOn(clock, "now").mockReturnValue(new Date("2026-11-30T23:59:59Z"));
    expect(await runDueJobs(JOB_KINDS)).toMatchObject({ claimed: 0 });
    vi.spyOn(clock, "now").mockReturnValue(new Date("2026-12-01T00:00:01Z"));
    expect(await runDueJobs(JOB_KINDS)).toMatchObject({ done: 1 });
    expect(configuration()).toMatchObject({ enforce: true });
    expect(codHiddenAtCheckout()).toBe(true);
    expect(await currentEnforcementState(await row())).toMatchObject({ state: "active" });
  });

  it("an upgrade (app_subscriptions/update ACTIVE) brings enforcement back through a job", async () => {
    await shopOnFree(FREE.monthlyVerifications - 1);
    await verifyOnce();
    await runDueJobs(JOB_KINDS);
    expect(codHiddenAtCheckout()).toBe(false);
    billing.put({ id: "gid://shopify/AppSubscription/9", shop: SHOP, name: PRO.name, status: "ACTIVE" }); // approved in Shopify
    const res = await callRoute(
      subscriptionsWebhook,
      signedWebhook("app_subscriptions/update", { app_subscription: { admin_graphql_api_id: "gid://shopify/AppSubscription/9", name: PRO.name, status: "ACTIVE" } }),
    );
    expect(res.status).toBe(200);
    expect(codHiddenAtCheckout()).toBe(false);
    await runDueJobs(JOB_KINDS);
    expect(codHiddenAtCheckout()).toBe(true);
    // A replay of the same notice runs the job again and writes the same state: harmless.
    await callRoute(subscriptionsWebhook, signedWebhook("app_subscriptions/update", { app_subscription: { admin_graphql_api_id: "gid://shopify/AppSubscription/9", name: PRO.name, status: "ACTIVE" } }));
    await runDueJobs(JOB_KINDS);
    expect(codHiddenAtCheckout()).toBe(true);
    expect(store.customizations.size).toBe(1);
  });

  it("a merchant who chose to keep COD hidden while paused: it stays hidden", async () => {
    await shopOnFree(FREE.monthlyVerifications - 1, { keepCodHiddenWhenPaused: true });
    await verifyOnce();
    await runDueJobs(JOB_KINDS);
    expect(codHiddenAtCheckout()).toBe(true);
    expect(configuration()).toMatchObject({ enforce: true });
    expect(await currentEnforcementState(await row())).toEqual({ state: "paused", why: "allowance_used", codHidden: true, updating: false });
  });

  it("a Shopify outage is retried: the job fails, stays due, and the next run pauses checkout", async () => {
    await shopOnFree(FREE.monthlyVerifications - 1);
    await verifyOnce();
    shopify.on(handlers.OPERATIONS.paymentCustomizationUpdate, handlers.serverError(503), "admin");
    expect(await runDueJobs(JOB_KINDS)).toMatchObject({ retried: 1 });
    store.install(shopify);
    vi.spyOn(clock, "now").mockReturnValue(new Date(MID_MONTH.getTime() + 60_000));
    expect(await runDueJobs(JOB_KINDS)).toMatchObject({ done: 1 });
    expect(codHiddenAtCheckout()).toBe(false);
  });

  it("a burst past the allowance queues its job once; another plan, or a later month, queues one of its own", async () => {
    await shopOnFree(FREE.monthlyVerifications + 5);
    const allowanceJobs = () => prisma.job.findMany({ where: { kind: "enforcement-sync", key: { contains: "|allowance|" } }, orderBy: { key: "asc" } });
    for (let i = 0; i < 20; i++) await noteAllowanceUse(SHOP, FREE.monthlyVerifications + 5 + i);
    expect((await allowanceJobs()).map((j) => j.key)).toEqual([`${SHOP}|allowance|2026-11-01|${FREE.id}|allowance_used`]);
    expect(await runDueJobs(JOB_KINDS)).toMatchObject({ done: 1 });
    expect(codHiddenAtCheckout()).toBe(false);
    const done = (await allowanceJobs())[0];
    // The same month and plan: nothing to queue or run again, whether the process remembers it (seconds later) or not (an hour later).
    for (const later of [1_000, 3_600_000]) {
      vi.spyOn(clock, "now").mockReturnValue(new Date(MID_MONTH.getTime() + later));
      for (let i = 0; i < 5; i++) await noteAllowanceUse(SHOP, FREE.monthlyVerifications + 30);
      expect(await runDueJobs(JOB_KINDS)).toMatchObject({ claimed: 0 });
      expect(await allowanceJobs()).toEqual([done]);
    }
    // Another plan whose allowance is used up too: its own job, at once.
    await updateShop(SHOP, { subscriptionPlan: PRO.name, subscriptionId: "gid://shopify/AppSubscription/7" });
    await noteAllowanceUse(SHOP, PRO.monthlyVerifications + 1);
    expect((await allowanceJobs()).map((j) => j.key)).toContain(`${SHOP}|allowance|2026-11-01|${PRO.id}|allowance_used`);
    // Next month, used up again (seconds after the 1st's own job): its own job too.
    vi.spyOn(clock, "now").mockReturnValue(new Date("2026-12-01T00:00:05Z"));
    await noteAllowanceUse(SHOP, PRO.monthlyVerifications + 1);
    expect((await allowanceJobs()).map((j) => j.key)).toContain(`${SHOP}|allowance|2026-12-01|${PRO.id}|allowance_used`);
  });
});

describe("a plan change", () => {
  it("switching to Free with this month's use past Free's allowance pauses checkout's hiding through the job", async () => {
    await installShop({ subscriptionStatus: "none" });
    await callAdminRoute(plans, await adminRequest("/app/plans", { form: { plan: "pro" } }));
    const [sub] = billing.subscriptions.values();
    billing.approve(sub.id);
    await callAdminRoute(plans, await adminRequest("/app/plans?charge_id=1"));
    await runDueJobs(JOB_KINDS);
    const shop = await row();
    expect(shop.subscriptionPlan).toBe(PRO.name);
    await prisma.dailyStat.create({ data: { shopId: shop.id, metric: "otp_verified", day: clock.now().toISOString().slice(0, 10), dimension: "", count: 687 } });
    await syncPaymentCustomization(shop);
    expect(codHiddenAtCheckout()).toBe(true);
    const res = await callAdminRoute<{ ok: boolean }>(plans, await adminRequest("/app/plans", { form: { plan: "free" } }));
    expect(res.data).toMatchObject({ ok: true });
    await runDueJobs(JOB_KINDS);
    expect(codHiddenAtCheckout()).toBe(false);
  });

  it("codes switched off, or the plan cancelled: COD offered once the job ran", async () => {
    // On Pro, cancelled in Shopify: the notice is read back (app_subscriptions/update trusts what Shopify reports).
    const pro = "gid://shopify/AppSubscription/8";
    await shopOnFree(3, { subscriptionPlan: PRO.name, subscriptionId: pro });
    billing.put({ id: pro, shop: SHOP, name: PRO.name, status: "CANCELLED" });
    const res = await callRoute(
      subscriptionsWebhook,
      signedWebhook("app_subscriptions/update", { app_subscription: { admin_graphql_api_id: pro, name: PRO.name, status: "CANCELLED" } }),
    );
    expect(res.status).toBe(200);
    await runDueJobs(JOB_KINDS);
    expect(codHiddenAtCheckout()).toBe(false);
    expect(await currentEnforcementState(await row())).toMatchObject({ state: "paused", why: "no_subscription", codHidden: false });
  });
});

describe("usage charges past the allowance (a merchant who turned them on)", () => {
  /** On Pro through Shopify's approval (the plan's usage line item, capped at PRO.usageCap), with `used` this month. */
  async function onProWithUsage(used: number) {
    await installShop({ subscriptionStatus: "none", usageChargesEnabled: true });
    await callAdminRoute(plans, await adminRequest("/app/plans", { form: { plan: "pro" } }));
    const [sub] = billing.subscriptions.values();
    expect(sub.usageCap).toBe(PRO.usageCap);
    billing.approve(sub.id);
    await callAdminRoute(plans, await adminRequest("/app/plans?charge_id=1"));
    const shop = await row();
    await prisma.dailyStat.create({ data: { shopId: shop.id, metric: "otp_verified", day: `${clock.now().toISOString().slice(0, 7)}-01`, dimension: "", count: used } });
    await usualPace(shop.id, used);
    await runDueJobs(JOB_KINDS);
    await syncPaymentCustomization(await row());
    return sub;
  }
  const perCap = Math.floor(PRO.usageCap / PRO.overagePrice);

  it("a verification past the allowance is one usage record with the verification as idempotency key, never two; checkout keeps hiding COD", async () => {
    const sub = await onProWithUsage(PRO.monthlyVerifications);
    await verifyOnce();
    expect(sub.usageRecords).toHaveLength(0); // durable: charged by the job, after the answer
    expect(await runDueJobs(JOB_KINDS)).toMatchObject({ done: 1, failed: 0 });
    expect(sub.usageRecords).toEqual([{ id: expect.any(String), idempotencyKey: expect.stringMatching(/^verification-.+/), amount: PRO.overagePrice, description: expect.stringContaining("Pro") }]);
    const calls = shopify.callsTo(handlers.OPERATIONS.usageRecordCreate);
    expect(calls).toHaveLength(1);
    expect(calls[0].variables).toMatchObject({ subscriptionLineItemId: `${sub.id}/usage`, price: { amount: PRO.overagePrice, currencyCode: "USD" } });

    // A crash after Shopify's answer but before the job was marked done: the run repeats, Shopify's
    // idempotency key keeps it one charge; and the same verification is never queued twice.
    await prisma.job.updateMany({ where: { kind: "usage-charge" }, data: { doneAt: null } });
    await runDueJobs(JOB_KINDS);
    expect(shopify.callsTo(handlers.OPERATIONS.usageRecordCreate)).toHaveLength(2);
    expect(sub.usageRecords).toHaveLength(1);
    expect(await prisma.job.count({ where: { kind: "usage-charge" } })).toBe(1);

    expect(codHiddenAtCheckout()).toBe(true);
    expect(await currentEnforcementState(await row())).toMatchObject({ state: "active" });
  });

  it("without the opt-in, the allowance is the end: 402 and no charge", async () => {
    const sub = await onProWithUsage(PRO.monthlyVerifications);
    await updateShop(SHOP, { usageChargesEnabled: false });
    const refused = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE } }));
    expect(refused.status).toBe(402);
    await runDueJobs(JOB_KINDS);
    expect(sub.usageRecords).toHaveLength(0);
    expect(codHiddenAtCheckout()).toBe(false);
  });

  it("the verification that reaches the cap is charged, then verification pauses: 402, and checkout offers COD", async () => {
    const sub = await onProWithUsage(PRO.monthlyVerifications + perCap - 1);
    expect(codHiddenAtCheckout()).toBe(true);
    await verifyOnce();
    await runDueJobs(JOB_KINDS);
    expect(sub.usageRecords).toHaveLength(1);
    expect(codHiddenAtCheckout()).toBe(false);
    expect(await currentEnforcementState(await row())).toMatchObject({ state: "paused", why: "usage_cap_reached", codHidden: false });
    const refused = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: "+971501234568" } }));
    expect(refused.status).toBe(402);
  });

  it("a plan approved without a usage line item: Shopify has nowhere to charge, so verification pauses instead of running free", async () => {
    const sub = await onProWithUsage(PRO.monthlyVerifications);
    sub.usageCap = null;
    await verifyOnce();
    expect(await runDueJobs(JOB_KINDS)).toMatchObject({ failed: 1 });
    expect((await row()).usageChargesRefused).toBe("no_usage_line_item");
    await runDueJobs(JOB_KINDS);
    expect(codHiddenAtCheckout()).toBe(false);
    expect(await currentEnforcementState(await row())).toMatchObject({ state: "paused", why: "allowance_used" });
  });
});

describe("the banner on every admin page (the layout's loader)", () => {
  type Layout = { verificationNotice: Record<string, unknown> | null };
  const STARTER = PLANS.find((p) => p.id === "starter")!;
  const notice = async () => (await callAdminRoute<Layout>(appLayout, await adminRequest("/app"))).data?.verificationNotice;

  it("says what checkout does as soon as the job that decides checkout wrote it, whatever a cached copy of the row says", async () => {
    await shopOnFree(FREE.monthlyVerifications - 1);
    await verifyOnce();
    // The storefront's copy of the row is cached from before the job ran (another instance's, or this one's).
    await getShop(SHOP);
    await runDueJobs(JOB_KINDS);
    expect(codHiddenAtCheckout()).toBe(false);
    expect(await notice()).toMatchObject({ kind: "paused", why: "allowance_used", codHidden: false, updating: false });
    // Another instance's job wrote it: no cache here was told.
    await getShop(SHOP);
    await prisma.shop.update({ where: { domain: SHOP }, data: { paymentCustomizationEnabled: true } });
    // Shopify still hides COD from before: the banner says where checkout is going (offered, as the plan's
    // confirmation said) and that it is being updated, never "stays hidden" a second before it is offered.
    expect(await notice()).toMatchObject({ kind: "paused", codHidden: false, updating: true });
  });

  it("is read again on every move to another page, not only after a form was posted", () => {
    const at = (path: string) => new URL(`https://app.example${path}`);
    const again = (from: string, to: string) => appLayout.shouldRevalidate!({ currentUrl: at(from), nextUrl: at(to), defaultShouldRevalidate: false } as never);
    expect(again("/app/orders", "/app/plans")).toBe(true);
    expect(again("/app/orders", "/app/orders")).toBe(false);
  });

  it("back from approving a plan, the plans page's own banner is read after the approval was recorded", async () => {
    await shopOnFree(FREE.monthlyVerifications);
    expect(await notice()).toMatchObject({ kind: "paused", why: "allowance_used" });
    billing.put({ id: "gid://shopify/AppSubscription/12", shop: SHOP, name: PRO.name, status: "ACTIVE" }); // approved in Shopify, no webhook yet
    const back = await callAdminRoute<{ verificationNotice: unknown; approved: unknown }>(plans, await adminRequest("/app/plans?charge_id=12"));
    expect(back.data).toMatchObject({ approved: { id: "pro" }, verificationNotice: null });
    expect(await notice()).toBeNull();
  });

  it("nothing below 80 %; from 80 % what happens at 100 %; at 100 % paused with what shoppers see; past it with usage on, what it costs", async () => {
    const shop = await installShop({ subscriptionPlan: STARTER.name, subscriptionId: "gid://shopify/AppSubscription/3" });
    const day = clock.now().toISOString().slice(0, 10);
    const setUsed = (count: number) =>
      prisma.dailyStat.upsert({
        where: { shopId_metric_day_dimension: { shopId: shop.id, metric: "otp_verified", day, dimension: "" } },
        create: { shopId: shop.id, metric: "otp_verified", day, dimension: "", count },
        update: { count },
      });
    await setUsed(399);
    expect(await notice()).toBeNull();
    await setUsed(400);
    expect(await notice()).toEqual({ kind: "near_allowance", used: 400, allowance: 500, keepCodHiddenWhenPaused: false, usage: null });
    await setUsed(500);
    await syncPaymentCustomization(await row());
    expect(await notice()).toEqual({ kind: "paused", why: "allowance_used", codHidden: false, updating: false, used: 500, allowance: 500 });
    await updateShop(SHOP, { usageChargesEnabled: true });
    await setUsed(510);
    expect(await notice()).toEqual({ kind: "usage_charging", used: 510, allowance: 500, usage: { price: STARTER.overagePrice, cap: STARTER.usageCap, spent: expect.closeTo(0.4, 5) } });
  });
});
