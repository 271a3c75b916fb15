import * as settings from "~/routes/app.settings.$section";
import * as shopUpdate from "~/routes/webhooks.shop.update";
import { runDueJobs } from "~/core/jobs/queue.server";
import { enforcementSyncJob } from "~/enforcement/enforcement-jobs.server";
import { issueProof, PROOF_TTL_SECONDS } from "~/otp/proof.server";
import { callRoute } from "../helpers/proxy";
import { signedWebhook } from "../helpers/webhooks";
import { prisma } from "~/core/db.server";
import { currentEnforcementState, enforcementState, syncPaymentCustomization } from "~/enforcement/payment-customization.server";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import { settingsFormValues, type SettingsFormValues } from "~/core/settings/settings";
import { cartPaymentMethodsTransformRun } from "../../extensions/cod-payment-customization/src/cart_payment_methods_transform_run";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { useFakeShopify } from "../helpers/fake-shopify";
import { installShop, SHOP } from "../helpers/shops";

/**
 * The payment customization that runs the checkout function: created through the Admin API, kept in
 * step with the settings (on/off, COD method names in its configuration metafield), and its state
 * shown to the merchant.
 */
const shopify = useFakeShopify();
let store: FakeEnforcementStore;

beforeEach(() => {
  store = new FakeEnforcementStore();
  handlers.installDefaultHandlers(shopify);
  store.install(shopify);
});

const row = () => prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
const only = () => {
  expect(store.customizations.size).toBe(1);
  return [...store.customizations.values()][0];
};
const config = (c: ReturnType<typeof only>) => JSON.parse(c.metafields.find((m) => m.namespace === "$app:cod-verify" && m.key === "function-configuration")!.value);

describe("syncPaymentCustomization", () => {
  it("creates the customization with our function's handle, enabled, configured with the shop's COD names; state active", async () => {
    await installShop();
    expect(enforcementState(await row(), null)).toEqual({ state: "not_set_up", error: null });
    expect(await syncPaymentCustomization(await row())).toMatchObject({ ok: true, enabled: true });
    const c = only();
    expect(c).toMatchObject({ functionHandle: "cod-payment-customization", enabled: true, title: expect.stringContaining("COD Verify") });
    expect(config(c)).toEqual({ codMethodNames: ["Cash on Delivery (COD)"], enforce: true });
    const shop = await row();
    expect(shop.paymentCustomizationId).toBe(c.id);
    expect(enforcementState(shop, null)).toMatchObject({ state: "active", id: c.id });
  });

  it("updates the same customization when settings change, and disables it when codes or the plan are off", async () => {
    await installShop();
    await syncPaymentCustomization(await row());
    await prisma.shop.update({ where: { domain: SHOP }, data: { codMethodNames: "Pay on delivery\nCash on Delivery (COD)" } });
    await syncPaymentCustomization(await row());
    expect(config(only())).toEqual({ codMethodNames: ["Pay on delivery", "Cash on Delivery (COD)"], enforce: true });
    expect(shopify.callsTo(OPERATIONS.paymentCustomizationCreate)).toHaveLength(1);
    expect(shopify.callsTo(OPERATIONS.paymentCustomizationUpdate)).toHaveLength(1);

    await prisma.shop.update({ where: { domain: SHOP }, data: { enforceAtCheckout: false } });
    await syncPaymentCustomization(await row());
    expect(only().enabled).toBe(false);
    expect(await currentEnforcementState(await row())).toMatchObject({ state: "off", why: "setting_off" });
    for (const [data, why] of [
      [{ enforceAtCheckout: true, otpEnabled: false }, "otp_off"],
      [{ otpEnabled: true, subscriptionStatus: "cancelled" }, "no_subscription"],
    ] as const) {
      await prisma.shop.update({ where: { domain: SHOP }, data });
      await syncPaymentCustomization(await row());
      expect(only().enabled).toBe(false);
      expect(config(only())).toMatchObject({ enforce: false });
      expect(await currentEnforcementState(await row())).toMatchObject({ state: "paused", why, codHidden: false });
    }
  });

  it("makes one customization when syncs run at once (concurrent installs' afterAuth, a settings save), also after ours was deleted", async () => {
    await installShop();
    const before = await row();
    const results = await Promise.all([syncPaymentCustomization(before), syncPaymentCustomization(before), syncPaymentCustomization(before)]);
    expect(results.map((r) => r.ok)).toEqual([true, true, true]);
    expect((await row()).paymentCustomizationId).toBe(only().id);

    store.customizations.clear();
    const known = await row();
    expect((await Promise.all([syncPaymentCustomization(known), syncPaymentCustomization(known)])).map((r) => r.ok)).toEqual([true, true]);
    expect((await row()).paymentCustomizationId).toBe(only().id);
    expect(shopify.callsTo(OPERATIONS.paymentCustomizationCreate)).toHaveLength(2);
  });

  it("makes a new customization when the merchant deleted ours in Shopify", async () => {
    await installShop();
    await syncPaymentCustomization(await row());
    store.customizations.clear();
    expect(await syncPaymentCustomization(await row())).toMatchObject({ ok: true });
    expect((await row()).paymentCustomizationId).toBe(only().id);
  });

  it("records Shopify's refusal or outage as the state, and never throws", async () => {
    await installShop();
    shopify.on(OPERATIONS.paymentCustomizationCreate, () => ({
      data: { paymentCustomizationCreate: { paymentCustomization: null, userErrors: [{ field: ["paymentCustomization"], message: "Maximum number of payment customizations reached.", code: "MAXIMUM_ACTIVE_PAYMENT_CUSTOMIZATIONS" }] } },
    }), "admin");
    expect(await syncPaymentCustomization(await row())).toMatchObject({ ok: false, error: expect.stringContaining("Maximum number") });
    expect(enforcementState(await row(), null)).toMatchObject({ state: "not_set_up", error: expect.stringContaining("Maximum number") });

    store.install(shopify);
    await syncPaymentCustomization(await row());
    shopify.on(OPERATIONS.paymentCustomizationUpdate, handlers.serverError(503), "admin");
    expect(await syncPaymentCustomization(await row())).toMatchObject({ ok: false });
    expect(enforcementState(await row(), null)).toMatchObject({ state: "error", error: expect.stringMatching(/http_error|network_error|503/) });
  });

  it("the configuration it writes is what the function reads: the merchant's own COD method is hidden", async () => {
    await installShop({ codMethodNames: "Pay on delivery" });
    await syncPaymentCustomization(await row());
    const out = cartPaymentMethodsTransformRun({
      cart: { proof: null, buyerIdentity: null, deliveryGroups: [] },
      paymentMethods: [
        { id: "gid://shopify/PaymentCustomizationPaymentMethod/1", name: "Pay on delivery" },
        { id: "gid://shopify/PaymentCustomizationPaymentMethod/2", name: "Card" },
      ],
      paymentCustomization: { metafield: { jsonValue: config(only()) } },
      shop: { localTime: { date: "2026-11-22" } },
    });
    expect(out).toEqual({ operations: [{ paymentMethodHide: { paymentMethodId: "gid://shopify/PaymentCustomizationPaymentMethod/1" } }] });
  });
  it("writes the shop's time zone as offsets the function reads: a proof keeps COD in an Indian shop until it expires, and loses it once India's day of its expiry has ended", async () => {
    await installShop();
    await prisma.shop.update({ where: { domain: SHOP }, data: { timezone: "Asia/Kolkata" } });
    await syncPaymentCustomization(await row());
    const written = config(only());
    expect(written).toMatchObject({ codMethodNames: ["Cash on Delivery (COD)"], enforce: true, utcOffsets: [[expect.any(Number), 330]], utcOffsetsUntil: expect.any(Number) });
    const verifiedAt = Date.now() - 60_000;
    const token = issueProof(SHOP, { phone: "+919812345678", mode: "cod", selectionId: "sel1" }, new Date(verifiedAt)).token;
    const india = (ms: number) => new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Kolkata" }).format(ms);
    const at = (date: string) =>
      cartPaymentMethodsTransformRun({
        cart: { proof: { value: token }, buyerIdentity: { phone: "+919812345678", customer: null }, deliveryGroups: [] },
        paymentMethods: [{ id: "gid://shopify/PaymentCustomizationPaymentMethod/1", name: "Cash on Delivery (COD)" }],
        paymentCustomization: { metafield: { jsonValue: written } },
        shop: { localTime: { date } },
      }).operations.length === 0;
    const expiry = verifiedAt + PROOF_TTL_SECONDS * 1000;
    expect(at(india(expiry - 1000))).toBe(true);
    expect(at(india(expiry + 30 * 3600_000))).toBe(false);
  });

  it("shop/update with a new time zone writes the new zone's offsets into checkout's configuration (one sync), and a repeat of the same zone queues none", async () => {
    await installShop();
    await prisma.shop.update({ where: { domain: SHOP }, data: { timezone: "America/New_York" } });
    await syncPaymentCustomization(await row());
    const updates = () => shopify.callsTo(OPERATIONS.paymentCustomizationUpdate).length;
    const response = await callRoute(shopUpdate, signedWebhook("shop/update", { domain: SHOP, iana_timezone: "Asia/Kathmandu" }));
    expect(response.status).toBe(200);
    await runDueJobs([enforcementSyncJob]);
    expect((await row()).timezone).toBe("Asia/Kathmandu");
    expect(config(only()).utcOffsets).toEqual([[expect.any(Number), 345]]);
    const after = updates();
    await callRoute(shopUpdate, signedWebhook("shop/update", { domain: SHOP, iana_timezone: "Asia/Kathmandu" }));
    await runDueJobs([enforcementSyncJob]);
    expect(updates()).toBe(after);
  });
});

describe("the settings' Enforcement page", () => {
  type Answer = { status?: string; values: SettingsFormValues; figures: { enforcement: ReturnType<typeof enforcementState> } };
  const page = async () => callAdminRoute<Answer>(settings, await adminRequest("/app/settings/enforcement"), { section: "enforcement" });
  const save = async (form: Record<string, string>) => callAdminRoute<Answer>(settings, await adminRequest("/app/settings/enforcement", { form }), { section: "enforcement" });

  it("shows the enforcement state, and a save updates the customization at once", async () => {
    await installShop();
    const loaded = await page();
    expect(loaded.data?.figures.enforcement).toEqual({ state: "not_set_up", error: null });
    expect(loaded.data?.values).toMatchObject({ enforceAtCheckout: "true", codMethodNames: "Cash on Delivery (COD)", holdUnverifiedCod: "false", confirmDeadlineHours: "24", cancelUnconfirmed: "false" });

    const form = { ...settingsFormValues(await row()), codMethodNames: "Cash on delivery\nPay at the door", holdUnverifiedCod: "true", confirmDeadlineHours: "48" };
    const saved = await save(form);
    expect(saved.status).toBe(200);
    // The page shown after the save (Remix loads it again) tells the new state.
    expect((await page()).data?.figures.enforcement).toMatchObject({ state: "active" });
    expect(config(only())).toEqual({ codMethodNames: ["Cash on delivery", "Pay at the door"], enforce: true });
    expect(await row()).toMatchObject({ holdUnverifiedCod: true, confirmDeadlineHours: 48 });
  });

  it("while verification is paused, saving “keep cash on delivery hidden” hides it again at once; switching it off offers it again", async () => {
    const shop = await installShop({ subscriptionPlan: "COD Verify Free" });
    await prisma.dailyStat.create({ data: { shopId: shop.id, metric: "otp_verified", day: new Date().toISOString().slice(0, 10), dimension: "", count: 50 } });
    const loaded = await page();
    expect(loaded.data?.values.keepCodHiddenWhenPaused).toBe("false");

    expect((await save({ ...settingsFormValues(await row()), keepCodHiddenWhenPaused: "true" })).data?.status).toBe("saved");
    expect((await page()).data?.figures.enforcement).toEqual({ state: "paused", why: "allowance_used", codHidden: true, updating: false });
    expect(only().enabled).toBe(true);
    expect(config(only())).toMatchObject({ enforce: true });

    expect((await save({ ...settingsFormValues(await row()), keepCodHiddenWhenPaused: "false" })).data?.status).toBe("saved");
    expect((await page()).data?.figures.enforcement).toEqual({ state: "paused", why: "allowance_used", codHidden: false, updating: false });
    expect(only().enabled).toBe(false);
    expect(config(only())).toMatchObject({ enforce: false });
  });
});
