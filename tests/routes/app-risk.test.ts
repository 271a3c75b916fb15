import * as risk from "~/routes/app.risk";
import * as createCheckout from "~/routes/proxy.create-checkout";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import type { RiskFigures } from "~/risk/figures.server";
import * as handlers from "../mocks/shopify/handlers";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";
import { prisma } from "~/core/db.server";
import type { RiskSettingsErrors, RiskSettingsValues } from "~/risk/risk-settings";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { installShop, SHOP } from "../helpers/shops";

type Answer = { status?: string; values: RiskSettingsValues; errors: RiskSettingsErrors; figures: RiskFigures };
const twilio = useFakeTwilio();
const shopify = useFakeShopify((f) => handlers.installDefaultHandlers(f));
beforeEach(() => handlers.installDefaultHandlers(shopify));
const load = async () => callAdminRoute<Answer>(risk, await adminRequest("/app/risk"));
const save = async (form: Record<string, string>) => callAdminRoute<Answer>(risk, await adminRequest("/app/risk", { form }));
const row = () => prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
const FORM = {
  riskMediumThreshold: "20",
  riskHighThreshold: "60",
  riskDeniedPostalCodes: "",
  riskPrepaidPhones: "",
  riskCodValueCap: "",
  riskPhoneCodeLimit: "",
  riskIpAttemptLimit: "",
  riskPhoneOrderLimit: "",
  riskFailureTags: "RTO, returned, refused",
};

describe("/app/risk: the merchant's rules and bands", () => {
  it("shows the safe defaults: bands 20 and 60, no rules", async () => {
    await installShop();
    expect((await load()).data?.values).toEqual(FORM);
  });

  it("saves the rules normalised (postal codes without spaces, phones in E.164) and only the risk columns", async () => {
    await installShop({ otpTtlSeconds: 900 });
    const res = await save({
      ...FORM,
      riskHighThreshold: "70",
      riskDeniedPostalCodes: "110 001\n4000*",
      riskPrepaidPhones: "+91 98123-45678, 0091 9800000001",
      riskCodValueCap: "2500,50",
      riskPhoneCodeLimit: "3",
      riskIpAttemptLimit: " 20 ",
      riskFailureTags: "RTO\nrto, Courier Returned",
      otpTtlSeconds: "60",
    });
    expect(res.status).toBe(200);
    expect(await row()).toMatchObject({
      riskHighThreshold: 70,
      riskDeniedPostalCodes: "110001\n4000*",
      riskPrepaidPhones: "+919812345678\n+919800000001",
      riskCodValueCap: 2500.5,
      riskPhoneCodeLimit: 3,
      riskIpAttemptLimit: 20,
      riskPhoneOrderLimit: null,
      riskFailureTags: "RTO\nCourier Returned",
      otpTtlSeconds: 900,
    });
  });

  it("refuses unreadable entries and bands out of order with 422, saving nothing", async () => {
    await installShop();
    const res = await save({ ...FORM, riskPrepaidPhones: "call me", riskCodValueCap: "-5", riskIpAttemptLimit: "0", riskPhoneOrderLimit: "2.5" });
    expect(res.status).toBe(422);
    expect(res.data?.errors).toEqual({
      riskPrepaidPhones: "Not phone numbers in international form (+ and country code): call me.",
      riskCodValueCap: "Enter an amount above 0 (up to two decimals), or leave it empty for no cap.",
      riskIpAttemptLimit: "Enter a whole number from 1 to 10000, or leave it empty for no limit.",
      riskPhoneOrderLimit: "Enter a whole number from 1 to 10000, or leave it empty for no limit.",
    });
    const bands = await save({ ...FORM, riskMediumThreshold: "60", riskHighThreshold: "40" });
    expect(bands.status).toBe(422);
    expect(bands.data?.errors).toEqual({ riskHighThreshold: "The high band must start above the medium band." });
    expect(await row()).toMatchObject({ riskMediumThreshold: 20, riskHighThreshold: 60, riskPrepaidPhones: "", riskCodValueCap: null });
  });

  it("refuses a request without a session token", async () => {
    await installShop();
    const res = await callAdminRoute<Answer>(risk, await adminRequest("/app/risk", { form: FORM, unauthenticated: true }));
    expect(res.status).not.toBe(200);
    expect((await row()).riskHighThreshold).toBe(60);
  });

  it("shows what each band did in the last 30 days and the top reasons, from real answers and orders", async () => {
    const shop = await installShop({ riskPrepaidPhones: "+919800000077" });
    // A shopper the prepaid rule names: verified, COD not offered (counted once), then refused by create-checkout (counted again).
    const phone = "+919800000077";
    await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone } }));
    const verified = await jsonOf(await callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body: { phone, otp: twilio.twilio.codeFor(phone) } })));
    const refused = await callRoute(createCheckout, signedRequest("/create-checkout", { method: "POST", body: { phone, selectedMode: "cod", variantId: "1", proof: verified.proof } }));
    expect(refused.status).toBe(403);
    // Orders: one medium (a good address and a mobile, but no code proven), one high by its invalid phone and missing postal code.
    const address = { first_name: "Asha", address1: "Flat 12, Shanti Apartments, MG Road", address2: "Near City Mall", city: "Mumbai", province: "Maharashtra", zip: "400001", country_code: "IN" };
    await callRoute(ordersCreate, signedWebhook("orders/create", orderCreatedPayload({ phone: "+919812345678", shipping_address: address, browser_ip: "203.0.113.5" })));
    await callRoute(ordersCreate, signedWebhook("orders/create", orderCreatedPayload({ phone: "+912212345678", shipping_address: { ...address, zip: "" } })));
    await prisma.dailyStat.create({ data: { shopId: shop.id, metric: "otp_skipped", day: new Date().toISOString().slice(0, 10), dimension: "returning", count: 4 } });
    // Older than 30 days: not counted.
    await prisma.dailyStat.create({ data: { shopId: shop.id, metric: "cod_refused", day: "2000-01-01", dimension: "bad_phone", count: 50 } });

    const figures = (await load()).data!.figures;
    expect(figures.bands).toEqual([
      { band: "low", orders: 0, codesSaved: 4, codRefused: null, ordersHeld: null },
      { band: "medium", orders: 1, codesSaved: null, codRefused: null, ordersHeld: null },
      { band: "high", orders: 1, codesSaved: null, codRefused: 2, ordersHeld: 1 },
    ]);
    // Most frequent first (ties by code): the two refusals by the rule, the orders' reasons with points.
    expect(figures.topReasons.map((r) => [r.code, r.count])).toEqual([
      ["new_customer", 2],
      ["otp_unverified", 2],
      ["phone_prepaid_only", 2],
      ["bad_phone", 1],
      ["bad_postal_code", 1],
    ]);
    expect(figures.topReasons[2].label).toBe("Phone on the pay-in-advance list");
  });
});

describe("velocity rules from the Risk page, before the score", () => {
  it("past the codes-per-phone limit send-otp answers no COD with the rule's reason; another phone is untouched", async () => {
    await installShop({ riskPhoneCodeLimit: 2, otpSendLimit: 10, otpResendCooldownSeconds: 0 });
    const phone = "+919812345601";
    const send = async (p: string) => jsonOf(await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: p } })));
    expect((await send(phone)).allowedModes).toContain("cod");
    expect((await send(phone)).allowedModes).toContain("cod");
    expect(await send(phone)).toMatchObject({ allowedModes: ["prepaid", "partial"], risk: { band: "high", reasons: [{ code: "phone_code_limit" }] } });
    expect((await send("+919812345602")).allowedModes).toContain("cod");
  });

  it("past the attempts-per-network limit create-checkout refuses COD (403) with the rule's reason", async () => {
    await installShop({ riskIpAttemptLimit: 2 });
    const phone = "+919812345603";
    const ip = { "x-forwarded-for": "198.51.100.7" };
    await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone }, headers: ip }));
    const verified = await jsonOf(await callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body: { phone, otp: twilio.twilio.codeFor(phone) }, headers: ip })));
    const checkout = () => callRoute(createCheckout, signedRequest("/create-checkout", { method: "POST", body: { phone, selectedMode: "cod", variantId: "1", proof: verified.proof }, headers: ip }));
    expect((await checkout()).status).toBe(200); // the IP's second attempt
    const res = await checkout();
    expect(res.status).toBe(403);
    expect(await jsonOf(res)).toMatchObject({ code: "cod_not_allowed", risk: { band: "high", reasons: [{ code: "ip_attempt_limit" }] } });
  });

  it("past the COD-orders-per-phone limit the next order is high with the rule's reason", async () => {
    const shop = await installShop({ riskPhoneOrderLimit: 1 });
    const phone = "+919812345604";
    const first = orderCreatedPayload({ phone });
    const second = orderCreatedPayload({ phone });
    await callRoute(ordersCreate, signedWebhook("orders/create", first));
    await callRoute(ordersCreate, signedWebhook("orders/create", second));
    const bands = await prisma.orderRecord.findMany({ where: { shopId: shop.id }, select: { orderGid: true, riskBand: true, riskReasons: true } });
    const byGid = new Map(bands.map((b) => [b.orderGid, b]));
    expect(byGid.get(first.admin_graphql_api_id)?.riskReasons).not.toContain("phone_order_limit");
    expect(byGid.get(second.admin_graphql_api_id)).toMatchObject({ riskBand: "high", riskReasons: expect.stringContaining("phone_order_limit") });
  });
});
