import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import { prisma } from "~/core/db.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import { dashboardOf } from "~/dashboard/dashboard.server";
import { verifiedOrdersByChannel } from "~/dashboard/verified-by-channel.server";
import { JOB_KINDS } from "~/server-build";
import * as handlers from "../mocks/shopify/handlers";
import { useFakeShopify } from "../helpers/fake-shopify";
import { CONTENT_SID, useFakeTwilio } from "../helpers/twilio";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { aroundShopMidnight, ZONES_FAR_FROM_UTC } from "../helpers/shop-midnight";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/**
 * Home's "COD orders verified" per channel: each verified COD order counts on the channel of the code
 * that verified it (the one that arrived: a WhatsApp code refused and resent by SMS is an SMS), a
 * returning customer's on none. Driven through the real routes: send-otp, verify-otp, orders/create.
 */
const shopify = useFakeShopify();
const twilio = useFakeTwilio({ TWILIO_WHATSAPP_FROM: "+15005550007", TWILIO_WHATSAPP_CONTENT_SID: CONTENT_SID });

beforeEach(() => handlers.installDefaultHandlers(shopify, {}, new Map()));

const post = (route: Parameters<typeof callRoute>[0], path: string, body: Record<string, unknown>) =>
  callRoute(route, signedRequest(path, { method: "POST", body }));

/** The shopper asks for the code on `channel`, types it, and places a COD order carrying the proof. */
async function verifiedOrder(phone: string, channel: "sms" | "whatsapp") {
  const sent = await jsonOf(await post(sendOtp, "/send-otp", { phone, channel }));
  expect(sent.success).toBe(true);
  const verified = await jsonOf(await post(verifyOtp, "/verify-otp", { phone, otp: twilio.twilio.codeFor(phone), selectedMode: "cod" }));
  expect(verified.success).toBe(true);
  const order = orderCreatedPayload({ phone, note_attributes: [{ name: "_cod_proof", value: verified.proof }] });
  expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
  await runDueJobs(JOB_KINDS);
  expect(await prisma.orderRecord.findFirstOrThrow({ where: { orderGid: order.admin_graphql_api_id } })).toMatchObject({ cod: true, status: "verified" });
  return sent.channel;
}

describe("COD orders verified, by channel", () => {
  it("counts each verified order on the channel its code arrived by; unverified and prepaid orders count nowhere", async () => {
    const shop = await installShop({ smsChannel: "whatsapp", otpChannelChoice: true });
    expect(await verifiedOrder("+919876500101", "sms")).toBe("sms");
    expect(await verifiedOrder("+919876500102", "whatsapp")).toBe("whatsapp");
    expect(await verifiedOrder("+919876500103", "whatsapp")).toBe("whatsapp");
    // WhatsApp refused at once: the code went by SMS, and the order counts there.
    twilio.twilio.fail("invalid_number", { when: (m) => m.channel === "whatsapp" });
    expect(await verifiedOrder("+919876500104", "whatsapp")).toBe("sms");
    // An order with no evidence (it goes to confirmation), and one paid in advance.
    for (const order of [orderCreatedPayload({ phone: "+919876500105" }), orderCreatedPayload({ phone: "+919876500106", gateway: "shopify_payments", payment_gateway_names: ["shopify_payments"] })]) {
      expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
    }

    const figures = await verifiedOrdersByChannel(shop.id, new Date(0));
    expect(figures).toEqual({ byChannel: { sms: { code: 2, answer: 0 }, whatsapp: { code: 2, answer: 0 } }, noMessage: 0 });
    const home = await dashboardOf(shop);
    expect(home.channels.map((c) => [c.channel, c.sent, c.verifiedOrders])).toEqual([
      ["sms", 2, 2],
      ["whatsapp", 2, 2],
    ]);
    expect(home.verifiedWithoutMessage).toBe(0);
  });

  it("a returning customer on a remembered device counts as verified with no message; another shop's orders never count", async () => {
    const shop = await installShop({ smsChannel: "sms" });
    await verifiedOrder("+919876500111", "sms");
    await prisma.orderRecord.updateMany({ where: { shopId: shop.id }, data: { verifiedBy: "returning_customer" } });
    const other = await installShop({ domain: "other-shop.myshopify.com" });
    expect(await verifiedOrdersByChannel(other.id, new Date(0))).toEqual({ byChannel: { sms: { code: 0, answer: 0 }, whatsapp: { code: 0, answer: 0 } }, noMessage: 0 });
    const home = await dashboardOf(shop);
    expect(home.channels.map((c) => c.verifiedOrders)).toEqual([0, 0]);
    expect(home.verifiedWithoutMessage).toBe(1);
  });
});

describe("the operator's channel report (npm run report:channels)", () => {
  const table = {
    currency: "USD",
    asOf: "2026-11",
    sms: { IN: 0.08, "*": 0.1 },
    whatsapp: { authentication: { IN: 0.006 }, utility: { "*": 0.02 } },
  };

  it("prices the messages that verify orders by channel and country, and divides by the orders each channel verified", async () => {
    const { channelReport, parsePriceTable } = await import("~/dashboard/channel-report.server");
    const parsed = parsePriceTable(JSON.stringify(table));
    expect(parsed.ok).toBe(true);
    await installShop({ smsChannel: "whatsapp", otpChannelChoice: true, otpResendCooldownSeconds: 0 });
    await verifiedOrder("+919876500201", "whatsapp");
    await verifiedOrder("+919876500202", "whatsapp");
    // One shopper asked twice by SMS before verifying: two SMS for one order.
    await post(sendOtp, "/send-otp", { phone: "+919876500203", channel: "sms" });
    await verifiedOrder("+919876500203", "sms");
    // A US number whose WhatsApp code the table has no price for: reported, counted at 0.
    await verifiedOrder("+12125550144", "whatsapp");

    const [report] = await channelReport({ table: (parsed as { ok: true; table: typeof table }).table, days: 30 });
    expect(report.channels).toEqual([
      { channel: "sms", messages: 2, cost: 0.16, verifiedOrders: 1, costPerVerifiedOrder: 0.16, otherMessages: 0, otherCost: 0 },
      { channel: "whatsapp", messages: 3, cost: 0.012, verifiedOrders: 3, costPerVerifiedOrder: 0.004, otherMessages: 0, otherCost: 0 },
    ]);
    expect(report.unpriced).toEqual(["whatsapp:US"]);
    expect(await channelReport({ table: (parsed as { ok: true; table: typeof table }).table, days: 30, shop: "nobody.myshopify.com" })).toEqual([]);
  });

  it.each(ZONES_FAR_FROM_UTC)(
    "%s: the last 7 days are the shop's, today and the 6 before from the first one's midnight, at both sides of the shop's midnight",
    async (zone) => {
      const { channelReport, parsePriceTable } = await import("~/dashboard/channel-report.server");
      const parsed = parsePriceTable(JSON.stringify(table));
      const prices = (parsed as { ok: true; table: typeof table }).table;
      const shop = await installShop({ timezone: zone });
      const edges = aroundShopMidnight(zone, "2026-11-24", "2026-11-25");
      for (const [n, at] of edges.instants.entries()) {
        const time = new Date(at);
        await prisma.messageDelivery.create({ data: { shopId: shop.id, phone: `+91987650030${n}`, purpose: "otp", channel: "sms", providerId: `SM-edge-${n}`, status: "delivered", createdAt: time } });
        // A returning customer's verified order: counted with no message.
        await prisma.orderRecord.create({ data: { shopId: shop.id, orderGid: `gid://shopify/Order/${n}`, cod: true, status: "verified", verifiedBy: "returning_customer", placedAt: time } });
      }
      const [before] = await channelReport({ table: prices, days: 7, now: edges.before });
      expect(before).toMatchObject({ timezone: zone, from: new Date(edges.fromBefore).toISOString(), firstDay: "2026-11-24", lastDay: "2026-11-30", verifiedWithoutMessage: 3 });
      expect(before.channels[0]).toMatchObject({ channel: "sms", messages: 3 });
      const [after] = await channelReport({ table: prices, days: 7, now: edges.after });
      expect(after).toMatchObject({ from: new Date(edges.fromAfter).toISOString(), firstDay: "2026-11-25", lastDay: "2026-12-01", verifiedWithoutMessage: 1 });
      expect(after.channels[0]).toMatchObject({ channel: "sms", messages: 1 });
    },
  );

  it("refuses a price table it cannot read, naming every problem", async () => {
    const { parsePriceTable } = await import("~/dashboard/channel-report.server");
    expect(parsePriceTable("{ nope")).toMatchObject({ ok: false, problems: [expect.stringMatching(/^not JSON/)] });
    const bad = parsePriceTable(JSON.stringify({ ...table, currency: "usd", sms: { India: 0.08, IN: -1 }, whatsapp: { authentication: {} } }));
    expect(bad.ok).toBe(false);
    expect((bad as { problems: string[] }).problems.map((p) => p.split(":")[0]).sort()).toEqual(["currency", "sms.IN", "sms.India", "whatsapp.utility"]);
  });

  it("the price table the repository ships parses", async () => {
    const { parsePriceTable } = await import("~/dashboard/channel-report.server");
    const fs = await import("node:fs");
    expect(parsePriceTable(fs.readFileSync("scripts/message-prices.json", "utf8")).ok).toBe(true);
  });
});
