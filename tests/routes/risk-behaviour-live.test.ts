import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as customersRedact from "~/routes/webhooks.customers.redact";
import * as dataRequest from "~/routes/webhooks.customers.data_request";
import { prisma } from "~/core/db.server";
import { clock } from "~/core/utils/clock.server";
import { recalibrate, ORDER_HOURS_SAMPLE } from "~/risk/calibration.server";
import { PROOF_ATTRIBUTE } from "../../extensions/cod-payment-customization/src/proof-format";
import * as handlers from "../mocks/shopify/handlers";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/**
 * Behaviour in the live score (docs/risk.md, "Behaviour"): the hour of an order against the shop's own hours in
 * its time zone, the cart against the phone's earlier orders, and the modal's readings that verify-otp's score
 * used, kept on the journey's selection and stored with the order's assessment; all of them in
 * customers/data_request's report and gone with customers/redact.
 */
const PHONE = "+919812345678";
const twilio = useFakeTwilio();
const fake = useFakeShopify((f) => handlers.installDefaultHandlers(f));
beforeEach(() => handlers.installDefaultHandlers(fake));
afterEach(() => vi.restoreAllMocks());

type Reasons = { reasons: { code: string }[]; behaviour?: Record<string, unknown> };
const reasonsOf = async (gid: string) => JSON.parse((await prisma.orderRecord.findFirstOrThrow({ where: { orderGid: gid } })).riskReasons!) as Reasons;
const codes = (r: Reasons) => r.reasons.map((x) => x.code);
const deliver = async (overrides: Record<string, unknown>) => {
  const order = orderCreatedPayload({ phone: PHONE, total_price: "1000.00", ...overrides });
  expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
  return order.admin_graphql_api_id;
};

/** The shop's 240 earlier COD orders, every one placed between 10:00 and 21:59 of its own day, and the recount that learns their hours. */
async function shopBusyByDay(timezone: string, utcOfLocalNoon: (day: number) => Date) {
  const shop = await installShop({ timezone });
  await prisma.orderRecord.createMany({
    data: Array.from({ length: 240 }, (_, i) => ({
      shopId: shop.id,
      orderGid: `gid://shopify/Order/${900000 + i}`,
      phone: `+91981200${String(i).padStart(4, "0")}`,
      cod: true,
      status: "verified",
      placedAt: new Date(utcOfLocalNoon(i % 20).getTime() + ((i % 12) - 2) * 3_600_000),
    })),
  });
  const counts = await recalibrate(SHOP);
  expect(counts!.hours!.reduce((a, b) => a + b, 0)).toBe(240);
  expect(ORDER_HOURS_SAMPLE).toBeGreaterThanOrEqual(240);
  return shop;
}

describe("an unusual hour for the shop, in its own time zone", () => {
  // Local noon on 1 to 20 November 2026 in each zone: +05:45 (a quarter-hour zone), -12:00 and +14:00.
  const ZONES = [
    { zone: "Asia/Kathmandu", offsetMinutes: 345 },
    { zone: "Etc/GMT+12", offsetMinutes: -720 },
    { zone: "Pacific/Kiritimati", offsetMinutes: 840 },
  ];
  it.each(ZONES)("$zone: an order at 03:00 there is unusual, one at 13:00 is not", async ({ zone, offsetMinutes }) => {
    const localAt = (day: number, hour: number) => new Date(Date.UTC(2026, 10, 1 + day, hour, 0) - offsetMinutes * 60_000);
    await shopBusyByDay(zone, (day) => localAt(day, 12));
    const night = await deliver({ created_at: localAt(25, 3).toISOString() });
    const day = await deliver({ created_at: localAt(25, 13).toISOString() });
    expect(codes(await reasonsOf(night))).toContain("unusual_hour");
    expect((await reasonsOf(night)).behaviour).toMatchObject({ unusualHour: true });
    expect(codes(await reasonsOf(day))).not.toContain("unusual_hour");
  });

  it("a shop whose hours are not known yet (fewer than 200 orders counted) marks no hour unusual", async () => {
    await installShop({ timezone: "Asia/Kolkata" });
    const night = await deliver({ created_at: "2026-11-25T21:30:00Z" }); // 03:00 in Kolkata
    expect(codes(await reasonsOf(night))).not.toContain("unusual_hour");
  });

  it.each([
    { hour: 3, unusual: true },
    { hour: 13, unusual: false },
  ])("verify-otp reads the hour too, at the shop's time: $hour:00 there", async ({ hour, unusual }) => {
    const localAt = (day: number, h: number) => new Date(Date.UTC(2026, 10, 1 + day, h, 0) - 330 * 60_000);
    await shopBusyByDay("Asia/Kolkata", (day) => localAt(day, 12));
    // The business clock (codes, windows) at that hour; signatures keep the wall clock.
    vi.spyOn(clock, "now").mockReturnValue(localAt(25, hour));
    await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE } }));
    const verified = (await jsonOf(await callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body: { phone: PHONE, otp: twilio.twilio.codeFor(PHONE) } })))) as {
      risk: { reasons: { code: string }[] };
    };
    expect(verified.risk.reasons.map((r) => r.code).includes("unusual_hour")).toBe(unusual);
    expect(JSON.parse((await prisma.selection.findFirstOrThrow()).riskBehaviour!)).toMatchObject({ unusualHour: unusual });
  });
});

describe("a cart far from the phone's earlier ones", () => {
  async function withEarlierOrders(values: number[], status = "verified") {
    const shop = (await prisma.shop.findFirst()) ?? (await installShop());
    await prisma.orderRecord.createMany({
      data: values.map((value, i) => ({
        shopId: shop.id,
        orderGid: `gid://shopify/Order/${800000 + i}`,
        phone: PHONE,
        cod: true,
        status,
        verifiedBy: status === "verified" ? "proof" : null,
        value,
        placedAt: new Date(Date.now() - (i + 2) * 86_400_000),
      })),
    });
  }

  it("three times the mean of the phone's proven orders or more adds cart_unusual with its ratio; less does not", async () => {
    await withEarlierOrders([100, 200]);
    const far = await deliver({ total_price: "450.00" });
    const near = await deliver({ total_price: "440.00" });
    const farReasons = await reasonsOf(far);
    expect(farReasons.reasons).toContainEqual(expect.objectContaining({ code: "cart_unusual", points: 10, text: "The order is worth 3 times this phone's usual order." }));
    expect(farReasons.behaviour).toMatchObject({ cartRatio: 3 });
    expect(codes(await reasonsOf(near))).not.toContain("cart_unusual");
  });

  it("orders a stranger placed with the number and left unconfirmed do not count (griefing), nor does a single earlier order", async () => {
    await withEarlierOrders([10, 10, 10], "unverified");
    expect(codes(await reasonsOf(await deliver({ total_price: "1000.00" })))).not.toContain("cart_unusual");
    await prisma.orderRecord.deleteMany();
    await withEarlierOrders([10]);
    expect(codes(await reasonsOf(await deliver({ total_price: "1000.00" })))).not.toContain("cart_unusual");
  });
});

describe("the modal's readings, kept and reported", () => {
  it("verify-otp keeps what its score used on the selection; the order placed with that proof is scored with them and stores them; the data request shows both; customers/redact removes them", async () => {
    await installShop();
    await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE } }));
    const verified = (await jsonOf(
      await callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body: { phone: PHONE, otp: twilio.twilio.codeFor(PHONE), behaviour: { msToType: 400_000 } } })),
    )) as { proof: string; risk: { reasons: { code: string }[] } };
    expect(verified.risk.reasons.map((r) => r.code)).toContain("behaviour_slow_code");
    const selection = await prisma.selection.findFirstOrThrow();
    expect(JSON.parse(selection.riskBehaviour!)).toMatchObject({ msToType: 400_000 });

    const gid = await deliver({ note_attributes: [{ name: PROOF_ATTRIBUTE, value: verified.proof }, { name: "_cod_selection", value: selection.id }] });
    const stored = await reasonsOf(gid);
    expect(codes(stored)).toContain("behaviour_slow_code");
    expect(stored.behaviour).toMatchObject({ msToType: 400_000 });

    // An order found by the phone alone, not naming the selection, is not scored with its readings.
    const other = await deliver({});
    expect(codes(await reasonsOf(other))).not.toContain("behaviour_slow_code");

    const raw = `{"shop_id":1,"shop_domain":"${SHOP}","orders_requested":[],"customer":{"id":2,"phone":"${PHONE}"},"data_request":{"id":777}}`;
    expect((await callRoute(dataRequest, signedWebhook("customers/data_request", null, { rawBody: raw, webhookId: "drb" }))).status).toBe(200);
    const { report } = await prisma.dataRequestReport.findFirstOrThrow({ where: { requestKey: "dr:777" } });
    const parsed = JSON.parse(report) as { selections: { riskBehaviour: unknown }[]; orders: { orderGid: string; riskBehaviour: unknown }[] };
    expect(parsed.selections[0].riskBehaviour).toMatchObject({ msToType: 400_000 });
    expect(parsed.orders.find((o) => o.orderGid === gid)!.riskBehaviour).toMatchObject({ msToType: 400_000 });

    const redact = `{"shop_id":1,"shop_domain":"${SHOP}","customer":{"id":2,"phone":"${PHONE}"},"orders_to_redact":[]}`;
    expect((await callRoute(customersRedact, signedWebhook("customers/redact", null, { rawBody: redact, webhookId: "rrb" }))).status).toBe(200);
    expect(await prisma.selection.count({ where: { riskBehaviour: { not: null } } })).toBe(0);
    expect(await prisma.orderRecord.count({ where: { riskReasons: { contains: "msToType" } } })).toBe(0);
  });
});
