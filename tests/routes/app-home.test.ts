import * as home from "~/routes/app._index";
import { prisma } from "~/db.server";
import { clock } from "~/utils/clock.server";
import { OPERATIONS } from "~/shopify/operations";
import { FREE_PLAN } from "~/shared/plans";
import type { Dashboard } from "~/dashboard/dashboard.server";
import type { Onboarding } from "~/dashboard/onboarding.server";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { useFakeShopify } from "../helpers/fake-shopify";
import { installShop, SHOP } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";
import { FakeBillingStore } from "../mocks/shopify/billing";
import { graphqlErrors, serverError } from "../mocks/shopify/handlers";
import { recentOrderGateways, themeAppBlocks } from "../mocks/shopify/onboarding";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";

const billing = new FakeBillingStore();
const fake = useFakeShopify((f) => {
  billing.install(f);
  new FakeEnforcementStore().install(f);
});
const twilio = useFakeTwilio();

/** What the home page's loader answers: the domain's own types (the page serialises no Date). */
type Home = { onboarding: Onboarding; dashboard: Dashboard; priceText: string };

async function load() {
  const res = await callAdminRoute<Home>(home, await adminRequest("/app"));
  expect(res.status).toBe(200);
  return res.data!;
}

async function post(form: Record<string, string>) {
  return callAdminRoute<{ ok: boolean; message: string; intent: string | null }>(home, await adminRequest("/app", { form }));
}

const step = (data: Home, id: string) => data.onboarding.steps.find((s) => s.id === id)!;
const day = (offset: number) => new Date(clock.now().getTime() - offset * 86_400_000).toISOString().slice(0, 10);

beforeEach(() => {
  fake.on(OPERATIONS.themeAppBlocks, themeAppBlocks({ withBlock: false }), "admin");
  fake.on(OPERATIONS.recentOrderGateways, recentOrderGateways(), "admin");
});

describe("GET /app: onboarding", () => {
  it("a new shop has nothing done, a deep link into the theme editor and names suggested from its orders", async () => {
    await installShop({ subscriptionStatus: "none" });
    const data = await load();
    expect(data.onboarding.done).toBe(0);
    expect(data.onboarding.steps.map((s) => [s.id, s.done])).toEqual([
      ["storefront_block", false],
      ["cod_names", false],
      ["plan", false],
      ["enforcement", false],
      ["test_code", false],
    ]);
    const link = new URL(data.onboarding.themeEditorUrl);
    expect(link.origin + link.pathname).toBe(`https://${SHOP}/admin/themes/current/editor`);
    expect(link.searchParams.get("template")).toBe("product");
    expect(link.searchParams.get("addAppBlockId")).toMatch(/^[^/]+\/cod-button$/);
    // Most used first.
    expect(data.onboarding.suggestedNames).toEqual(["Cash on Delivery (COD)", "shopify_payments"]);
  });

  it("knows each step is done: the block on the live theme, names confirmed, a plan, enforcement active, a test code sent", async () => {
    await installShop({
      subscriptionPlan: FREE_PLAN.name,
      codMethodNamesConfirmedAt: new Date(),
      testCodeSentAt: new Date(),
      paymentCustomizationId: "gid://shopify/PaymentCustomization/1",
      paymentCustomizationEnabled: true,
    });
    fake.on(OPERATIONS.themeAppBlocks, themeAppBlocks({ withBlock: true, theme: "Dawn" }), "admin");
    const data = await load();
    expect(data.onboarding.steps.every((s) => s.done)).toBe(true);
    expect(data.onboarding.done).toBe(5);
    expect(step(data, "storefront_block").detail).toContain("Dawn");
    // Names confirmed: Shopify is not asked for suggestions any more.
    expect(fake.callsTo(OPERATIONS.recentOrderGateways)).toHaveLength(0);
  });

  it("a block the merchant disabled in the theme editor does not count", async () => {
    await installShop();
    fake.on(OPERATIONS.themeAppBlocks, themeAppBlocks({ withBlock: true, disabled: true }), "admin");
    expect(step(await load(), "storefront_block").done).toBe(false);
  });

  it("when Shopify fails, the page still loads and says so for the block", async () => {
    await installShop();
    fake.on(OPERATIONS.themeAppBlocks, serverError(503), "admin");
    fake.on(OPERATIONS.recentOrderGateways, graphqlErrors(), "admin");
    const data = await load();
    expect(step(data, "storefront_block")).toMatchObject({ done: false, detail: expect.stringContaining("did not answer") });
    expect(data.onboarding.suggestedNames).toEqual([]);
  });
});

describe("POST /app: the onboarding forms", () => {
  it("confirms the COD method names: stored, marked done, and the checkout function follows", async () => {
    await installShop({ paymentCustomizationId: null });
    const res = await post({ intent: "cod_names", names: "Cash on Delivery (COD)\n  Pay on delivery \n\nCash on Delivery (COD)" });
    expect(res).toMatchObject({ status: 200, data: { ok: true } });
    const shop = await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
    expect(shop.codMethodNames).toBe("Cash on Delivery (COD)\nPay on delivery");
    expect(shop.codMethodNamesConfirmedAt).toBeInstanceOf(Date);
    expect(fake.callsTo(OPERATIONS.paymentCustomizationCreate)).toHaveLength(1);
    expect(step(await load(), "cod_names").done).toBe(true);
  });

  it("refuses an empty list of names with 400 and changes nothing", async () => {
    await installShop();
    expect(await post({ intent: "cod_names", names: " \n " })).toMatchObject({ status: 400, data: { ok: false } });
    expect((await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).codMethodNamesConfirmedAt).toBeNull();
  });

  it("sends a test code to the merchant's phone through the provider and records it; not counted as a verification", async () => {
    await installShop();
    const res = await post({ intent: "test_code", phone: "+1 (415) 555-0123" });
    expect(res).toMatchObject({ status: 200, data: { ok: true, message: expect.stringContaining("+14155550123") } });
    expect(twilio.twilio.messages).toHaveLength(1);
    expect(twilio.twilio.messages[0]).toMatchObject({ to: "+14155550123" });
    expect(twilio.twilio.messages[0].body).toMatch(/^\d{6} is a test code/);
    expect((await prisma.messageDelivery.findFirstOrThrow()).purpose).toBe("merchant_test");
    expect(await prisma.dailyStat.count()).toBe(0);
    expect(step(await load(), "test_code").done).toBe(true);
  });

  it("a number the provider refuses, or a malformed one, is told and not recorded", async () => {
    await installShop();
    expect(await post({ intent: "test_code", phone: "hello" })).toMatchObject({ status: 422, data: { ok: false } });
    expect(await post({ intent: "test_code", phone: "" })).toMatchObject({ status: 400, data: { ok: false } });
    expect((await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).testCodeSentAt).toBeNull();
  });

  it("an unknown intent is a 400", async () => {
    await installShop();
    expect(await post({ intent: "delete_everything" })).toMatchObject({ status: 400, data: { ok: false } });
  });
});

describe("GET /app: the last 30 days", () => {
  async function seed(shopId: string) {
    const rows = [
      ["otp_sent", day(0), "IN", 40],
      ["otp_sent", day(3), "US", 10],
      ["otp_sent", day(29), "AE", 5],
      ["otp_sent", day(30), "IN", 1000], // outside the window
      ["otp_verified", day(0), "", 30],
      ["otp_verified", day(3), "", 5],
      ["otp_failed", day(0), "wrong", 4],
      ["otp_failed", day(1), "locked", 1],
      ["otp_skipped", day(2), "returning", 7],
      ["correction_sent", day(5), "", 3],
      ["correction_completed", day(4), "", 2],
      ["message_delivered", day(0), "sms", 45],
      ["message_failed", day(0), "sms", 2],
    ] as const;
    await prisma.dailyStat.createMany({ data: rows.map(([metric, d, dimension, count]) => ({ shopId, metric, day: d, dimension, count })) });
    const order = (n: number, status: string, cod: boolean, mode: string | null, daysAgo = 1) => ({
      shopId,
      orderGid: `gid://shopify/Order/${n}`,
      status,
      cod,
      mode,
      placedAt: new Date(clock.now().getTime() - daysAgo * 86_400_000),
    });
    await prisma.orderRecord.createMany({
      data: [
        order(1, "verified", true, "cod"),
        order(2, "verified", true, "cod"),
        order(3, "pending", true, null),
        order(4, "unverified", true, null),
        order(5, "confirmed", true, "cod"),
        order(6, "verified", false, "prepaid"),
        order(7, "verified", false, "partial"),
        order(8, "verified", true, "cod", 45), // outside the window
      ],
    });
  }

  it("adds up codes, orders, corrections and deliveries of the window only, with the rate and the spend estimate", async () => {
    const shop = await installShop({ smsPrices: JSON.stringify({ IN: 0.1 }) });
    await seed(shop.id);
    const { dashboard: d } = await load();
    expect(d.days).toHaveLength(30);
    expect(d.to).toBe(day(0));
    expect(d.from).toBe(day(29));
    expect(d.totals).toMatchObject({ sent: 55, verified: 35, failed: 5, skipped: 7, correctionsSent: 3, correctionsCompleted: 2 });
    expect(d.totals.verificationRate).toBeCloseTo(35 / 55);
    expect(d.failedBy).toEqual({ wrong: 4, locked: 1 });
    expect(d.skippedBy).toEqual({ returning: 7 });
    expect(d.days.at(-1)).toEqual({ day: day(0), sent: 40, verified: 30, failed: 4, skipped: 0 });
    expect(d.codOrders).toEqual({ verified: 2, pending: 1, unverified: 1, confirmed: 1 });
    expect(d.ordersByMode).toEqual({ cod: 3, none: 2, prepaid: 1, partial: 1 });
    expect(d.deliveries).toEqual({ delivered: 45, failed: 2 });
    // The shop's own price for IN, the defaults for the rest.
    expect(d.countries).toEqual([
      { country: "IN", sent: 40, price: 0.1, cost: 4 },
      { country: "US", sent: 10, price: 0.0083, cost: expect.closeTo(0.083, 6) },
      { country: "AE", sent: 5, price: 0.0603, cost: expect.closeTo(0.3015, 6) },
    ]);
    expect(d.estimatedSpend).toBeCloseTo(4 + 0.083 + 0.3015, 6);
  });

  it("another shop's activity never shows", async () => {
    const other = await installShop({ domain: "other-shop.myshopify.com" });
    await seed(other.id);
    await installShop();
    const { dashboard: d } = await load();
    expect(d.totals.sent).toBe(0);
    expect(d.totals.verificationRate).toBeNull();
    expect(d.codOrders).toEqual({});
  });

  it("the merchant's price table: saved from 'CC price' lines, bad lines named, the estimate follows", async () => {
    const shop = await installShop();
    await seed(shop.id);
    expect(await post({ intent: "prices", prices: "IN 0.05\nus: 0.01\nXX\n* 0.2" })).toMatchObject({ status: 422, data: { ok: false, message: expect.stringContaining("3") } });
    expect(await post({ intent: "prices", prices: "IN 0.05\nus: 0.01\n* 0.2" })).toMatchObject({ status: 200, data: { ok: true } });
    const data = await load();
    expect(data.dashboard.countries.map((c) => [c.country, c.price])).toEqual([
      ["IN", 0.05],
      ["US", 0.01],
      ["AE", 0.0603],
    ]);
    expect(data.priceText).toContain("IN 0.05");
  });
});
