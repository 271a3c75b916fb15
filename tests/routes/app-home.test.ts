import * as home from "~/routes/app._index";
import { prisma } from "~/core/db.server";
import { clock } from "~/core/utils/clock.server";
import { OPERATIONS } from "~/core/shopify/operations";
import { FREE_PLAN, planById } from "~/shared/plans";
import type { Dashboard } from "~/dashboard/dashboard.server";
import type { Onboarding } from "~/dashboard/onboarding.server";
import type { PlanBill } from "~/dashboard/home.server";
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
type Home = { examplePhone: string; onboarding: Onboarding; dashboard: Omit<Dashboard, "countries"> & { countries: { country: string; name: string; sent: number }[] }; bill: PlanBill };

async function load(path = "/app", headers?: Record<string, string>) {
  const res = await callAdminRoute<Home>(home, await adminRequest(path, { headers }));
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
    await installShop({ subscriptionStatus: "none", storefrontReadyAt: null, storefrontReadyBy: null });
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
    // Cash-on-delivery names only, most used first.
    expect(data.onboarding.suggestedNames).toEqual(["Cash on Delivery (COD)"]);
  });

  it.each([
    ["IN", /^\+91\d{10}$/],
    ["MA", /^\+212\d{9}$/],
    [null, /^\+1\d{10}$/],
  ] as const)("the test code's example number is a mobile number of the shop's country (%s)", async (country, shape) => {
    await installShop({ country });
    expect((await load()).examplePhone).toMatch(shape);
  });

  it("never suggests a gateway that is not cash on delivery, however often the orders used it", async () => {
    await installShop({ subscriptionStatus: "none" });
    fake.on(
      OPERATIONS.recentOrderGateways,
      recentOrderGateways([["shopify_payments"], ["shopify_payments"], ["paypal", "gift_card"], ["manual"], ["Cash on Delivery (COD)"], ["cash_on_delivery"], ["  cash on delivery (cod) "], ["bogus"], ["COD"]]),
      "admin",
    );
    const data = await load();
    expect(data.onboarding.suggestedNames).toEqual(["Cash on Delivery (COD)", "cash_on_delivery", "  cash on delivery (cod) ", "COD"]);
    for (const name of ["shopify_payments", "paypal", "gift_card", "manual", "bogus"]) expect(data.onboarding.suggestedNames).not.toContain(name);
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
    await installShop({ storefrontReadyAt: null, storefrontReadyBy: null });
    fake.on(OPERATIONS.themeAppBlocks, themeAppBlocks({ withBlock: true, disabled: true }), "admin");
    expect(step(await load(), "storefront_block").done).toBe(false);
  });

  it("when Shopify fails, the page still loads and says so for the block", async () => {
    await installShop({ storefrontReadyAt: null, storefrontReadyBy: null });
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

  it("turns checkout enforcement on in place: Shopify's customization saved before the answer, the step done on the next load", async () => {
    await installShop({ subscriptionPlan: FREE_PLAN.name, enforceAtCheckout: false, paymentCustomizationId: null });
    fake.on(OPERATIONS.themeAppBlocks, themeAppBlocks({ withBlock: true, theme: "Dawn" }), "admin");
    const before = step(await load(), "enforcement");
    expect(before).toMatchObject({ done: false, next: "turn_on", detail: expect.stringContaining("Off: checkout offers cash on delivery to every shopper") });
    const res = await post({ intent: "enforcement" });
    expect(res).toMatchObject({ status: 200, data: { intent: "enforcement", ok: true, message: "Checkout now hides cash on delivery until the shopper's phone is verified." } });
    expect((await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).enforceAtCheckout).toBe(true);
    const saved = fake.callsTo(OPERATIONS.paymentCustomizationCreate);
    expect(saved).toHaveLength(1);
    expect((saved[0].variables.input as { enabled: boolean }).enabled).toBe(true);
    expect(step(await load(), "enforcement")).toMatchObject({ done: true, next: null });
  });

  it("the enforcement step points where it can be finished: Settings when codes are off, Plans without a plan, nowhere while the storefront is awaited", async () => {
    await installShop({ subscriptionPlan: FREE_PLAN.name, otpEnabled: false });
    fake.on(OPERATIONS.themeAppBlocks, themeAppBlocks({ withBlock: true }), "admin");
    expect(step(await load(), "enforcement")).toMatchObject({ done: false, next: "settings" });
    await prisma.shop.update({ where: { domain: SHOP }, data: { otpEnabled: true, subscriptionPlan: null, subscriptionStatus: "none" } });
    expect(step(await load(), "enforcement")).toMatchObject({ done: false, next: "plans" });
    await prisma.shop.update({ where: { domain: SHOP }, data: { subscriptionPlan: FREE_PLAN.name, subscriptionStatus: "active", storefrontReadyAt: null, storefrontReadyBy: null } });
    fake.on(OPERATIONS.themeAppBlocks, themeAppBlocks({ withBlock: false }), "admin");
    expect(step(await load(), "enforcement")).toMatchObject({ done: false, next: null });
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

  it("adds up codes, orders, corrections and deliveries of the window only", async () => {
    const shop = await installShop();
    await seed(shop.id);
    const { dashboard: d } = await load();
    expect(d.days).toHaveLength(30);
    expect(d.to).toBe(day(0));
    expect(d.from).toBe(day(29));
    expect(d.totals).toMatchObject({ sent: 55, verified: 35, failed: 5, skipped: 7, correctionsSent: 3, correctionsCompleted: 2 });
    expect(d.failedBy).toEqual({ wrong: 4, locked: 1 });
    expect(d.skippedBy).toEqual({ returning: 7 });
    expect(d.days.at(-1)).toEqual({ day: day(0), sent: 40, verified: 30, failed: 4, skipped: 0 });
    expect(d.deliveries).toEqual({ delivered: 45, failed: 2 });
    expect(d.countries.map((c) => [c.country, c.sent])).toEqual([
      ["IN", 40],
      ["US", 10],
      ["AE", 5],
    ]);
  });

  it("one order total: the payments add up to it and the cash-on-delivery ones to the COD orders by state", async () => {
    const shop = await installShop();
    await seed(shop.id);
    const { dashboard: d } = await load();
    // Orders 3 and 4 were paid cash on delivery with no selection linked: COD, not "no choice".
    expect(d.orders).toEqual({
      total: 7,
      byPayment: { cod: 5, partial: 1, prepaid: 1 },
      codByStatus: { verified: 2, pending: 1, unverified: 1, confirmed: 1 },
    });
    const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
    expect(sum(d.orders.byPayment)).toBe(d.orders.total);
    expect(sum(d.orders.codByStatus)).toBe(d.orders.byPayment.cod);
  });

  it("the verification rate counts shoppers: a number sent three codes is one shopper, refused and test numbers none", async () => {
    const shop = await installShop();
    const at = (daysAgo: number) => new Date(clock.now().getTime() - daysAgo * 86_400_000);
    const message = (phone: string, daysAgo: number, extra: Record<string, unknown> = {}) => ({
      shopId: shop.id,
      phone,
      purpose: "otp",
      channel: "sms",
      providerId: `SM${phone.slice(1)}${daysAgo}${Math.random().toString(36).slice(2, 8)}`,
      status: "delivered",
      createdAt: at(daysAgo),
      ...extra,
    });
    await prisma.messageDelivery.createMany({
      data: [
        // A shopper who asked three times, then verified: one shopper, verified.
        message("+919812345601", 2),
        message("+919812345601", 2),
        message("+919812345601", 1),
        // Sent a code, never verified in the window (their verification is from before it).
        message("+919812345602", 3),
        // The provider refused the number: nobody got a code.
        message("+919812345603", 3, { providerId: null, status: "failed" }),
        // The merchant's own test and an address-correction link are not codes to shoppers.
        message("+919812345604", 1, { purpose: "merchant_test" }),
        message("+919812345605", 1, { purpose: "address_correction" }),
        // Outside the window.
        message("+919812345606", 40),
      ],
    });
    await prisma.verifiedCustomer.createMany({
      data: [
        { shopId: shop.id, phone: "+919812345601", verifiedAt: at(1) },
        { shopId: shop.id, phone: "+919812345602", verifiedAt: at(45) },
        { shopId: shop.id, phone: "+919812345606", verifiedAt: at(39) },
      ],
    });
    await prisma.dailyStat.createMany({
      data: [
        { shopId: shop.id, metric: "otp_sent", day: day(2), dimension: "IN", count: 2 },
        { shopId: shop.id, metric: "otp_sent", day: day(1), dimension: "IN", count: 1 },
        { shopId: shop.id, metric: "otp_sent", day: day(3), dimension: "IN", count: 1 },
        { shopId: shop.id, metric: "otp_verified", day: day(1), dimension: "", count: 1 },
      ],
    });
    const { dashboard: d } = await load();
    expect(d.totals).toMatchObject({ sent: 4, verified: 1 });
    expect(d.shoppers).toEqual({ sent: 2, verified: 1, rate: 0.5 });
  });

  it("names countries in the admin's language: Shopify's locale parameter, else the browser's, else English", async () => {
    const shop = await installShop();
    await seed(shop.id);
    await prisma.dailyStat.create({ data: { shopId: shop.id, metric: "otp_sent", day: day(1), dimension: "", count: 1 } });
    const names = async (path: string, headers?: Record<string, string>) => (await load(path, headers)).dashboard.countries.map((c) => c.name);
    expect(await names("/app")).toEqual(["India", "United States", "United Arab Emirates", "Unknown"]);
    expect(await names("/app?locale=fr")).toEqual(["Inde", "États-Unis", "Émirats arabes unis", "Unknown"]);
    expect(await names("/app", { "Accept-Language": "de-DE,de;q=0.9,en;q=0.5" })).toEqual(["Indien", "Vereinigte Staaten", "Vereinigte Arabische Emirate", "Unknown"]);
    expect(await names("/app?locale=not_a_locale!!")).toEqual(["India", "United States", "United Arab Emirates", "Unknown"]);
  });

  it("another shop's activity never shows", async () => {
    const other = await installShop({ domain: "other-shop.myshopify.com" });
    await seed(other.id);
    await installShop();
    const { dashboard: d } = await load();
    expect(d.totals.sent).toBe(0);
    expect(d.shoppers).toEqual({ sent: 0, verified: 0, rate: null });
    expect(d.orders).toEqual({ total: 0, byPayment: { cod: 0, partial: 0, prepaid: 0 }, codByStatus: {} });
  });
});

describe("GET /app: the plan and what the merchant pays", () => {
  it("shows the plan's use this month against its allowance and its price; no SMS cost of ours", async () => {
    const shop = await installShop({ subscriptionPlan: planById("pro")!.name });
    await prisma.dailyStat.createMany({
      data: [
        { shopId: shop.id, metric: "otp_verified", day: `${clock.now().toISOString().slice(0, 7)}-01`, dimension: "a", count: 12 },
        { shopId: shop.id, metric: "otp_verified", day: day(0), dimension: "", count: 3 },
        { shopId: shop.id, metric: "otp_sent", day: day(0), dimension: "IN", count: 900 },
      ],
    });
    const data = await load();
    expect(data.bill).toMatchObject({ plan: { id: "pro", label: "Pro", price: 39.99 }, allowance: 2000, usageCharges: null });
    expect(data.bill.used).toBe(15);
    expect(data.bill.since).toBe(`${clock.now().toISOString().slice(0, 7)}-01`);
    // The app's own cost of sending texts is nowhere in what the page receives.
    expect(JSON.stringify(data)).not.toMatch(/spend|price per|estimatedSpend|"cost"|priceText/i);
  });

  it("a shop without a plan has no bill", async () => {
    await installShop({ subscriptionStatus: "none" });
    expect((await load()).bill).toMatchObject({ plan: null, used: 0, allowance: 0, usageCharges: null });
  });

  it("the old SMS price form is gone: posting it is refused and stores nothing", async () => {
    await installShop();
    expect(await post({ intent: "prices", prices: "IN 0.05" })).toMatchObject({ status: 400, data: { ok: false } });
    expect((await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).smsPrices).toBeNull();
  });
});
