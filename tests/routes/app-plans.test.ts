import * as plans from "~/routes/app.plans";
import * as subscriptionsWebhook from "~/routes/webhooks.app_subscriptions.update";
import { prisma } from "~/core/db.server";
import { forgetShop } from "~/core/settings/shop.server";
import { clock } from "~/core/utils/clock.server";
import { FREE_PLAN, PLANS } from "~/shared/plans";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { useFakeShopify } from "../helpers/fake-shopify";
import { installShop, SHOP } from "../helpers/shops";
import { signedWebhook } from "../helpers/webhooks";
import { FakeBillingStore } from "../mocks/shopify/billing";
import { graphqlErrors } from "../mocks/shopify/handlers";

const billing = new FakeBillingStore();
const fake = useFakeShopify((f) => billing.install(f));
const plan = (id: string) => PLANS.find((p) => p.id === id)!;

type Loaded = {
  usage: { plan: { id: string } | null; used: number; allowance: number; since: string };
  subscriptionStatus: string;
  approved: { id: string; label: string } | null;
};

async function load(path = "/app/plans") {
  return callAdminRoute<Loaded>(plans, await adminRequest(path));
}

async function choose(planId: string) {
  return callAdminRoute<{ ok: boolean; code?: string; plan?: { id: string } }>(plans, await adminRequest("/app/plans", { form: { plan: planId } }));
}

const row = () => prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });

beforeEach(() => {
  billing.subscriptions.clear();
  fake.on("appSubscriptionCancel", billing.cancel(), "admin");
});

describe("GET /app/plans", () => {
  it("shows the current plan and this month's verifications against its allowance (last month's do not count)", async () => {
    const shop = await installShop({ subscriptionPlan: plan("starter").name, subscriptionId: "gid://shopify/AppSubscription/1" });
    const now = clock.now();
    const thisMonth = `${now.toISOString().slice(0, 7)}-01`;
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 20)).toISOString().slice(0, 10);
    await prisma.dailyStat.createMany({
      data: [
        { shopId: shop.id, metric: "otp_verified", day: thisMonth, dimension: "", count: 123 },
        { shopId: shop.id, metric: "otp_verified", day: lastMonth, dimension: "", count: 400 },
        { shopId: shop.id, metric: "otp_sent", day: thisMonth, dimension: "IN", count: 999 },
      ],
    });
    const res = await load();
    expect(res.status).toBe(200);
    expect(res.data?.usage).toMatchObject({ plan: { id: "starter" }, used: 123, allowance: 500, since: thisMonth });
    // On a paid plan, with no charge just approved, Shopify is not asked.
    expect(fake.callsTo("appSubscription")).toHaveLength(0);
  });

  it("a shop with no plan is shown none, after asking Shopify whether a plan was approved meanwhile", async () => {
    await installShop({ subscriptionStatus: "none" });
    const res = await load();
    expect(res.data?.usage.plan).toBeNull();
    expect(fake.callsTo("appSubscription")).toHaveLength(1);
    expect((await row()).subscriptionStatus).toBe("none");
  });

  it("refuses a request without a session token", async () => {
    await installShop();
    const res = await callAdminRoute(plans, await adminRequest("/app/plans", { unauthenticated: true }));
    expect(res.status).toBeGreaterThanOrEqual(300);
    expect(res.data).toBeNull();
  });
});

describe("POST /app/plans", () => {
  it("a paid plan goes to Shopify's approval page as a test charge; once approved, the plan is recorded on return", async () => {
    await installShop({ subscriptionStatus: "none" });
    const res = await choose("starter");
    // An App Bridge request: the library answers 401 with the page to open at the top level.
    expect(res.status).toBe(401);
    const confirmation = res.response?.headers.get("X-Shopify-API-Request-Failure-Reauthorize-Url");
    expect(confirmation).toMatch(/\/charges\/confirm\?id=\d+$/);
    const [call] = fake.callsTo("AppSubscriptionCreate");
    expect(call.variables).toMatchObject({ name: plan("starter").name, test: true });
    expect(JSON.stringify(call.variables.lineItems)).toContain("14.99");
    expect((await row()).subscriptionStatus).toBe("none"); // nothing changes before approval

    const [sub] = billing.subscriptions.values();
    billing.approve(sub.id);
    const back = await load(`/app/plans?charge_id=${sub.id.split("/").pop()}`);
    expect(back.data?.usage).toMatchObject({ plan: { id: "starter" }, allowance: 500 });
    expect(await row()).toMatchObject({ subscriptionStatus: "active", subscriptionPlan: plan("starter").name, subscriptionId: sub.id });
    // The page confirms it: "You are on the Starter plan."
    expect(back.data?.approved).toMatchObject({ id: "starter", label: "Starter" });
  });

  it("says 'You are on <plan>' only for the charge that is the shop's subscription: not without one, not for another, not once replaced", async () => {
    await installShop({ subscriptionStatus: "none" });
    await choose("pro");
    const [sub] = billing.subscriptions.values();
    const chargeId = sub.id.split("/").pop()!;
    // Back without approving: nothing to confirm.
    expect((await load(`/app/plans?charge_id=${chargeId}`)).data?.approved).toBeNull();
    billing.approve(sub.id);
    expect((await load("/app/plans")).data?.approved).toBeNull();
    expect((await load(`/app/plans?charge_id=${chargeId}9`)).data?.approved).toBeNull();
    expect((await load(`/app/plans?charge_id=x'--`)).data?.approved).toBeNull();
    expect((await load(`/app/plans?charge_id=${chargeId}`)).data?.approved).toMatchObject({ id: "pro", label: "Pro" });
    // Switched to Free on the same page (its address still carries the charge): no more "You are on Pro".
    expect((await choose("free")).status).toBe(200);
    expect((await load(`/app/plans?charge_id=${chargeId}`)).data?.approved).toBeNull();
  });

  it("Free from a paid plan cancels the Shopify subscription and takes effect at once; the old plan's late CANCELLED notice changes nothing", async () => {
    await installShop({ subscriptionStatus: "none" });
    await choose("pro");
    const [sub] = billing.subscriptions.values();
    billing.approve(sub.id);
    await load(`/app/plans?charge_id=1`);
    expect((await row()).subscriptionPlan).toBe(plan("pro").name);

    const res = await choose("free");
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ ok: true, plan: { id: "free" } });
    expect(fake.callsTo("appSubscriptionCancel")[0].variables).toMatchObject({ id: sub.id });
    expect(billing.subscriptions.get(sub.id)?.status).toBe("CANCELLED");
    expect(await row()).toMatchObject({ subscriptionStatus: "active", subscriptionPlan: FREE_PLAN.name, subscriptionId: "free" });

    const late = signedWebhook("app_subscriptions/update", {
      app_subscription: { admin_graphql_api_id: sub.id, name: plan("pro").name, status: "CANCELLED", admin_graphql_api_shop_id: "gid://shopify/Shop/1" },
    });
    expect((await subscriptionsWebhook.action({ request: late, params: {}, context: {} })).status).toBe(200);
    expect(await row()).toMatchObject({ subscriptionStatus: "active", subscriptionPlan: FREE_PLAN.name });
  });

  it("back from approving a plan: notices that land while Shopify is asked (a newer plan approved, this one cancelled) are not overwritten", async () => {
    await installShop({ subscriptionStatus: "none" });
    await choose("starter");
    const [starter] = billing.subscriptions.values();
    billing.approve(starter.id);
    const notice = (id: string, name: string, status: string) =>
      subscriptionsWebhook.action({
        request: signedWebhook("app_subscriptions/update", { app_subscription: { admin_graphql_api_id: id, name, status, admin_graphql_api_shop_id: "gid://shopify/Shop/1" } }),
        params: {},
        context: {},
      });
    // Shopify reports Starter active; before that answer arrives, the merchant's Pro (approved in another
    // tab) replaces it, and both notices are handled.
    const check = billing.check();
    fake.on(
      "appSubscription",
      async (call) => {
        const answer = await check(call);
        await choose("pro");
        const pro = [...billing.subscriptions.values()].find((s) => s.name === plan("pro").name)!;
        billing.approve(pro.id);
        expect((await notice(pro.id, pro.name, "ACTIVE")).status).toBe(200);
        expect((await notice(starter.id, starter.name, "CANCELLED")).status).toBe(200);
        return answer;
      },
      "admin",
    );
    await load(`/app/plans?charge_id=${starter.id.split("/").pop()}`);
    expect(await row()).toMatchObject({ subscriptionStatus: "active", subscriptionPlan: plan("pro").name });
  });

  it("a change is shown before it is made: this month's use against the new allowance, and whether that pauses verification at once", async () => {
    const shop = await installShop({ subscriptionStatus: "none" });
    await choose("pro");
    const [sub] = billing.subscriptions.values();
    billing.approve(sub.id);
    await load(`/app/plans?charge_id=1`);
    await prisma.dailyStat.create({ data: { shopId: shop.id, metric: "otp_verified", day: clock.now().toISOString().slice(0, 10), dimension: "", count: 687 } });

    type Preview = { change: { plan: { id: string }; from: { id: string } | null; used: number; pausesAtOnce: boolean; keepCodHiddenWhenPaused: boolean } | null };
    const toFree = await callAdminRoute<Preview>(plans, await adminRequest("/app/plans?change=free"));
    expect(toFree.data?.change).toMatchObject({ plan: { id: "free" }, from: { id: "pro" }, used: 687, pausesAtOnce: true, keepCodHiddenWhenPaused: false });
    // Looking changes nothing: still on Pro, nothing cancelled.
    expect((await row()).subscriptionPlan).toBe(plan("pro").name);
    expect(fake.callsTo("appSubscriptionCancel")).toHaveLength(0);

    const toScale = await callAdminRoute<Preview>(plans, await adminRequest("/app/plans?change=scale"));
    expect(toScale.data?.change).toMatchObject({ plan: { id: "scale" }, used: 687, pausesAtOnce: false, resumesAtOnce: false });
    for (const nothing of ["pro", "nonsense", ""]) {
      expect((await callAdminRoute<Preview>(plans, await adminRequest(`/app/plans?change=${nothing}`))).data?.change).toBeNull();
    }
  });

  it("a downgrade's preview counts the usage charges the merchant turned on: past the allowance they keep verification running up to the cap", async () => {
    const shop = await installShop({ subscriptionStatus: "none" });
    await choose("pro");
    const [sub] = billing.subscriptions.values();
    billing.approve(sub.id);
    await load(`/app/plans?charge_id=1`);
    await prisma.dailyStat.create({ data: { shopId: shop.id, metric: "otp_verified", day: clock.now().toISOString().slice(0, 10), dimension: "", count: 687 } });
    type Preview = { change: { pausesAtOnce: boolean; usage: { on: boolean; price: number; cap: number; extra: number } | null } | null };
    const preview = async () => (await callAdminRoute<Preview>(plans, await adminRequest("/app/plans?change=starter"))).data!.change!;
    // Starter's 500 are used up (687): without usage charges it pauses at once, and says what would keep it running.
    expect(await preview()).toMatchObject({ pausesAtOnce: true, usage: { on: false, price: plan("starter").overagePrice, cap: plan("starter").usageCap } });
    await prisma.shop.update({ where: { id: shop.id }, data: { usageChargesEnabled: true } });
    forgetShop(shop.domain);
    // With them on, 500 + the 500 the $20 cap pays for: 687 does not pause.
    expect(await preview()).toMatchObject({ pausesAtOnce: false, usage: { on: true, extra: 500 } });
    expect((await callAdminRoute<Preview>(plans, await adminRequest("/app/plans?change=free"))).data!.change).toMatchObject({ pausesAtOnce: true, usage: null });
  });

  it("from a paused Free, choosing a plan with room says verification resumes at once", async () => {
    const shop = await installShop({ subscriptionPlan: FREE_PLAN.name, subscriptionId: "free" });
    await prisma.dailyStat.create({ data: { shopId: shop.id, metric: "otp_verified", day: clock.now().toISOString().slice(0, 10), dimension: "", count: 120 } });
    type Preview = { change: { resumesAtOnce: boolean; pausesAtOnce: boolean } | null };
    const preview = async (id: string) => (await callAdminRoute<Preview>(plans, await adminRequest(`/app/plans?change=${id}`))).data!.change!;
    expect(await preview("pro")).toMatchObject({ resumesAtOnce: true, pausesAtOnce: false });
  });

  it("Free with no plan before needs no call to Shopify", async () => {
    await installShop({ subscriptionStatus: "none" });
    expect((await choose("free")).data).toMatchObject({ ok: true });
    expect(fake.callsTo("appSubscriptionCancel")).toHaveLength(0);
    expect((await row()).subscriptionPlan).toBe(FREE_PLAN.name);
  });

  it("when Shopify refuses to cancel the paid plan, nothing changes and the merchant is told (502)", async () => {
    await installShop({ subscriptionPlan: plan("scale").name, subscriptionId: "gid://shopify/AppSubscription/404" });
    fake.on("appSubscriptionCancel", graphqlErrors("Internal error"), "admin");
    const res = await choose("free");
    expect(res.status).toBe(502);
    expect(res.data).toMatchObject({ ok: false, code: "cancel_failed" });
    expect((await row()).subscriptionPlan).toBe(plan("scale").name);
  });

  it("an unknown plan or the current one is refused with 400", async () => {
    await installShop({ subscriptionPlan: plan("pro").name });
    expect(await choose("platinum")).toMatchObject({ status: 400, data: { ok: false, code: "unknown_plan" } });
    expect(await choose("pro")).toMatchObject({ status: 400, data: { ok: false, code: "already_on_plan" } });
    expect(fake.callsTo("AppSubscriptionCreate")).toHaveLength(0);
  });
});
