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
import { orderCreatedPayload, provenOrderPayload, signedWebhook } from "../helpers/webhooks";
import { prisma } from "~/core/db.server";
import { clock } from "~/core/utils/clock.server";
import type { RiskSettingsErrors, RiskSettingsValues } from "~/risk/risk-settings";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { installShop, SHOP } from "../helpers/shops";
import { aroundShopMidnight, ZONES_FAR_FROM_UTC } from "../helpers/shop-midnight";

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
  riskIpOrderLimit: "",
  riskFailureTags: "RTO, returned, refused",
  riskPrepaidSources: "",
  riskMediumAction: "none",
  riskHighAction: "refuse",
  riskDepositMin: "",
  riskDepositMax: "",
};

describe("/app/risk: the merchant's rules and bands", () => {
  it("shows the safe defaults: bands 20 and 60, no rules, the failure tags one a line as the field asks", async () => {
    await installShop();
    expect((await load()).data?.values).toEqual({ ...FORM, riskFailureTags: "RTO\nreturned\nrefused" });
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
      riskIpOrderLimit: "4",
      riskFailureTags: "RTO\nrto, Courier Returned",
      riskPrepaidSources: "Facebook/CPC\nfacebook/cpc, instagram.com",
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
      riskIpOrderLimit: 4,
      riskFailureTags: "RTO\nCourier Returned",
      riskPrepaidSources: "facebook/cpc\ninstagram.com",
      otpTtlSeconds: 900,
    });
  });

  it("refuses unreadable entries and bands out of order with 422, saving nothing", async () => {
    await installShop();
    const res = await save({ ...FORM, riskPrepaidPhones: "call me", riskCodValueCap: "-5", riskIpAttemptLimit: "0", riskPhoneOrderLimit: "2.5", riskIpOrderLimit: "10001", riskPrepaidSources: "<<>>" });
    expect(res.status).toBe(422);
    expect(res.data?.errors).toEqual({
      riskPrepaidPhones: "Not phone numbers in international form (+ and country code): call me.",
      riskCodValueCap: "Enter an amount above 0 (up to two decimals), or leave it empty for no cap.",
      riskIpAttemptLimit: "Enter a whole number from 1 to 10000, or leave it empty for no limit.",
      riskPhoneOrderLimit: "Enter a whole number from 1 to 10000, or leave it empty for no limit.",
      riskIpOrderLimit: "Enter a whole number from 1 to 10000, or leave it empty for no limit.",
      riskPrepaidSources: "Not a source: <<>>.",
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
    expect(figures.topReasons[2].label).toBe("Phone on the no-cash-on-delivery list");
  });
});

describe("the Risk page's 30 days, the shop's", () => {
  it.each(ZONES_FAR_FROM_UTC)(
    "%s: orders and daily counts both from the first instant of today's 29th day before, at both sides of the shop's midnight",
    async (zone) => {
      const shop = await installShop({ timezone: zone });
      const edges = aroundShopMidnight(zone, "2026-11-01", "2026-11-02");
      for (const [n, at] of edges.instants.entries()) {
        await prisma.orderRecord.create({ data: { shopId: shop.id, orderGid: `gid://shopify/Order/${n}`, cod: true, status: "verified", riskScore: 80, riskBand: "high", riskReasons: "{}", placedAt: new Date(at) } });
      }
      for (const [day, count] of [["2026-10-31", 100], ["2026-11-01", 10], ["2026-11-02", 1]] as const) {
        await prisma.dailyStat.create({ data: { shopId: shop.id, metric: "cod_refused", day, dimension: "bad_phone", count } });
      }
      vi.spyOn(clock, "now").mockReturnValue(edges.before);
      expect((await load()).data!.figures.bands[2]).toEqual({ band: "high", orders: 3, codesSaved: null, codRefused: 11, ordersHeld: 3 });
      vi.spyOn(clock, "now").mockReturnValue(edges.after);
      expect((await load()).data!.figures.bands[2]).toEqual({ band: "high", orders: 1, codesSaved: null, codRefused: 1, ordersHeld: 1 });
    },
  );
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
    const first = provenOrderPayload(phone); // the phone proved it: it counts toward the phone's orders
    const second = orderCreatedPayload({ phone });
    await callRoute(ordersCreate, signedWebhook("orders/create", first));
    await callRoute(ordersCreate, signedWebhook("orders/create", second));
    const bands = await prisma.orderRecord.findMany({ where: { shopId: shop.id }, select: { orderGid: true, riskBand: true, riskReasons: true } });
    const byGid = new Map(bands.map((b) => [b.orderGid, b]));
    expect(byGid.get(first.admin_graphql_api_id)?.riskReasons).not.toContain("phone_order_limit");
    expect(byGid.get(second.admin_graphql_api_id)).toMatchObject({ riskBand: "high", riskReasons: expect.stringContaining("phone_order_limit") });
  });
  it("past the COD-orders-per-network limit the next COD order from that IP is high; only COD orders of the last 24 h that carry the IP count, kept as a keyed hash", async () => {
    const shop = await installShop({ riskIpOrderLimit: 2 });
    const IP = "203.0.113.50";
    let n = 0;
    const deliver = async (overrides: Record<string, unknown>) => {
      const order = orderCreatedPayload({ phone: `+9198123450${10 + n++}`, ...overrides });
      expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
      return prisma.orderRecord.findFirstOrThrow({ where: { shopId: shop.id, orderGid: order.admin_graphql_api_id } });
    };
    const card = { gateway: "shopify_payments", payment_gateway_names: ["shopify_payments"] };
    // Not counted: a card order, a COD order of yesterday (25 h ago), one with no IP (a draft or POS order), one with an unreadable IP.
    expect((await deliver({ browser_ip: IP, ...card })).ipHash).toBeNull();
    expect((await deliver({ browser_ip: IP, created_at: new Date(Date.now() - 25 * 3600_000).toISOString() })).ipHash).toMatch(/^[0-9a-f]{64}$/);
    expect((await deliver({ browser_ip: null, client_details: { browser_ip: null } })).ipHash).toBeNull();
    expect((await deliver({ browser_ip: "not-an-ip" })).ipHash).toBeNull();
    // Counted: two COD orders from the IP (the second through client_details, as IPv4-mapped IPv6): at the limit, not past it.
    const first = await deliver({ browser_ip: IP });
    const second = await deliver({ browser_ip: null, client_details: { browser_ip: `::FFFF:${IP}` } });
    expect(second.ipHash).toBe(first.ipHash);
    expect(JSON.stringify(await prisma.orderRecord.findMany())).not.toContain(IP);
    for (const r of [first, second]) expect(r.riskReasons).not.toContain("ip_order_limit");
    // The third in 24 hours is past it; another network's order is not.
    const third = await deliver({ browser_ip: IP });
    expect(third).toMatchObject({ riskBand: "high" });
    expect(JSON.parse(third.riskReasons!).rule).toEqual({ code: "ip_order_limit", text: "3 cash-on-delivery orders came from the same network in 24 hours, above the shop's limit of 2." });
    expect((await deliver({ browser_ip: "2001:DB8::1" })).riskReasons).not.toContain("ip_order_limit");
  });

  it("the same IP in another shop is another hash, and its orders do not count here", async () => {
    const mine = await installShop({ riskIpOrderLimit: 1 });
    const other = await installShop({ domain: "other-shop.myshopify.com" });
    const IP = "198.51.100.23";
    const theirs = orderCreatedPayload({ phone: "+919812345690", browser_ip: IP });
    await callRoute(ordersCreate, signedWebhook("orders/create", theirs, { shop: other.domain }));
    const order = orderCreatedPayload({ phone: "+919812345691", browser_ip: IP });
    await callRoute(ordersCreate, signedWebhook("orders/create", order));
    const [a, b] = await Promise.all([
      prisma.orderRecord.findFirstOrThrow({ where: { shopId: mine.id } }),
      prisma.orderRecord.findFirstOrThrow({ where: { shopId: other.id } }),
    ]);
    expect(a.ipHash).not.toBe(b.ipHash);
    expect(a.riskReasons).not.toContain("ip_order_limit");
  });
});
