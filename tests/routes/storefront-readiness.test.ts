import * as home from "~/routes/app._index";
import * as plans from "~/routes/app.plans";
import { prisma } from "~/core/db.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import { enforcementSyncJob } from "~/enforcement/enforcement-jobs.server";
import { currentEnforcementState, syncPaymentCustomization } from "~/enforcement/payment-customization.server";
import { enforcementSummary } from "~/admin/settings/enforcement-summary";
import { FREE_PLAN } from "~/shared/plans";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { useFakeShopify } from "../helpers/fake-shopify";
import { installShop, SHOP } from "../helpers/shops";
import { FakeBillingStore } from "../mocks/shopify/billing";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { recentOrderGateways, themeAppBlocks } from "../mocks/shopify/onboarding";

/**
 * Nothing is hidden before shoppers can verify: checkout enforcement (the payment customization that
 * hides cash on delivery) starts only once the app's block is on the live theme, or the merchant confirms
 * the storefront shows it; the admin says which. Choosing a plan on a store without the block hides nothing.
 */
const shopify = useFakeShopify();
let store: FakeEnforcementStore;
const billing = new FakeBillingStore();

beforeEach(() => {
  store = new FakeEnforcementStore();
  handlers.installDefaultHandlers(shopify);
  store.install(shopify);
  billing.install(shopify);
  shopify.on(OPERATIONS.recentOrderGateways, recentOrderGateways(), "admin");
  theme(false);
});

const theme = (withBlock: boolean) => shopify.on(OPERATIONS.themeAppBlocks, themeAppBlocks({ withBlock, theme: "Dawn" }), "admin");
const row = () => prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
const notReady = { storefrontReadyAt: null, storefrontReadyBy: null };
const only = () => {
  expect(store.customizations.size).toBe(1);
  return [...store.customizations.values()][0];
};
const enforce = () => JSON.parse(only().metafields.find((m) => m.key === "function-configuration")!.value).enforce;

describe("checkout enforcement waits for the storefront", () => {
  it("hides nothing while the block is not on the live theme, and the admin says it waits for the storefront", async () => {
    await installShop(notReady);
    expect(await syncPaymentCustomization(await row())).toMatchObject({ ok: true, enabled: false });
    expect(only().enabled).toBe(false);
    expect(enforce()).toBe(false);
    const state = await currentEnforcementState(await row());
    expect(state).toEqual({ state: "waiting_for_storefront", updating: false });
    expect(enforcementSummary(state).body).toMatch(/offering cash on delivery to everyone until shoppers can verify/);
  });

  it("starts once a sync finds the block on the live theme, and the admin says the theme is why", async () => {
    await installShop(notReady);
    theme(true);
    expect(await syncPaymentCustomization(await row())).toMatchObject({ ok: true, enabled: true });
    expect(await row()).toMatchObject({ storefrontReadyBy: "theme", storefrontReadyAt: expect.any(Date) });
    const state = await currentEnforcementState(await row());
    expect(state).toMatchObject({ state: "active", readyBy: "theme" });
    expect(enforcementSummary(state).body).toMatch(/button is on the live theme/);
  });

  it("stops again when a later check finds the block gone (the theme's readiness, not the merchant's)", async () => {
    await installShop(notReady);
    theme(true);
    await syncPaymentCustomization(await row());
    theme(false);
    expect(await syncPaymentCustomization(await row())).toMatchObject({ ok: true, enabled: false });
    expect(await row()).toMatchObject({ storefrontReadyAt: null, storefrontReadyBy: null });
    // A theme Shopify cannot read says nothing: the readiness stays as it was.
    theme(true);
    await syncPaymentCustomization(await row());
    shopify.on(OPERATIONS.themeAppBlocks, handlers.serverError(503), "admin");
    expect(await syncPaymentCustomization(await row())).toMatchObject({ ok: true, enabled: true });
  });

  it("choosing a plan on a store without the block hides nothing from shoppers", async () => {
    await installShop({ ...notReady, subscriptionStatus: "none", subscriptionPlan: null });
    const res = await callAdminRoute(plans, await adminRequest("/app/plans", { form: { plan: FREE_PLAN.id } }));
    expect(res.status).toBeLessThan(500);
    expect(await runDueJobs([enforcementSyncJob])).toMatchObject({ failed: 0 });
    expect((await row()).subscriptionPlan).toBe(FREE_PLAN.name);
    expect(only().enabled).toBe(false);
  });

  it("the merchant's word is enough (a headless or custom storefront), and a theme without the block does not take it back", async () => {
    await installShop(notReady);
    await syncPaymentCustomization(await row());
    const res = await callAdminRoute<{ ok: boolean }>(home, await adminRequest("/app", { form: { intent: "storefront_ready" } }));
    expect(res).toMatchObject({ status: 200, data: { ok: true } });
    expect(await row()).toMatchObject({ storefrontReadyBy: "merchant" });
    expect(await runDueJobs([enforcementSyncJob])).toMatchObject({ done: 1 });
    expect(only().enabled).toBe(true);
    expect(await currentEnforcementState(await row())).toMatchObject({ state: "active", readyBy: "merchant" });
    await syncPaymentCustomization(await row());
    expect(only().enabled).toBe(true);
    expect(shopify.callsTo(OPERATIONS.themeAppBlocks)).toHaveLength(1); // the first sync only
  });

  it("Home seeing the block on the live theme records it and brings checkout in step", async () => {
    await installShop(notReady);
    await syncPaymentCustomization(await row());
    theme(true);
    const res = await callAdminRoute<{ onboarding: { storefrontReadyBy: string | null } }>(home, await adminRequest("/app"));
    expect(res.status).toBe(200);
    expect(res.data?.onboarding.storefrontReadyBy).toBe("theme");
    expect(await runDueJobs([enforcementSyncJob])).toMatchObject({ done: 1 });
    expect(only().enabled).toBe(true);
  });
});
