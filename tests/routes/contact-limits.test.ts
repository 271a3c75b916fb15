import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as smsInbound from "~/routes/twilio.sms";
import * as whatsappInbound from "~/routes/twilio.whatsapp";
import * as gather from "~/routes/twilio.voice.gather";
import * as voiceStatus from "~/routes/twilio.voice.status";
import * as carrier from "~/routes/webhooks.fulfillment_events.create";
import * as ordersPage from "~/routes/app.orders";
import { env } from "~/core/env.server";
import { prisma } from "~/core/db.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import { clock } from "~/core/utils/clock.server";
import { verificationStatus } from "~/enforcement/pause.server";
import { JOB_KINDS } from "~/server-build";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { FakeDeliveryStore } from "../mocks/shopify/delivery";
import { FakeFlow } from "../mocks/shopify/flow";
import { useFakeShopify } from "../helpers/fake-shopify";
import { statusCallbackRequest, useFakeTwilio } from "../helpers/twilio";
import { callRoute } from "../helpers/proxy";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { installShop, SHOP } from "../helpers/shops";
import { codOrder, PHONE, placeOrder, type Order } from "../helpers/delivery";
import { fulfillmentEventBody, orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/**
 * What the app sends on its own after an order (the ladder's texts and calls, the confirmation's first
 * message and its SMS link of a shop without a ladder, the delivery-day reminder, the failed-delivery text), from outside: each one counts against the shop's allowance and limits like a
 * verification, a number that texted STOP (POST /twilio/sms, signed like every Twilio webhook) or that
 * Twilio reports opted out (21610) gets nothing more until START, and a carrier's event is acted on only
 * for an order the shop really has.
 */
const CONFIRM_SID = "HXc0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0";
const shopify = useFakeShopify();
const fake = useFakeTwilio({ TWILIO_WHATSAPP_FROM: "+15005550007", TWILIO_WHATSAPP_CONFIRM_CONTENT_SID: CONFIRM_SID, TWILIO_VOICE_FROM: "+15005550006" });
let store: FakeDeliveryStore;
const start = new Date("2026-11-27T05:30:00Z"); // 11:00 in Kolkata: outside the quiet hours
const OTHER = "other-shop.myshopify.com";

beforeEach(() => {
  const routes: Record<string, Parameters<typeof callRoute>[0]> = { "/twilio/voice/gather": gather, "/twilio/voice/status": voiceStatus, "/twilio/whatsapp": whatsappInbound, "/twilio/sms": smsInbound };
  fake.twilio.deliverWith((request) => callRoute(routes[new URL(request.url).pathname], request));
  handlers.installDefaultHandlers(shopify);
  store = new FakeDeliveryStore().install(shopify);
  new FakeFlow().install(shopify);
  vi.spyOn(clock, "now").mockReturnValue(start);
});
afterEach(() => vi.restoreAllMocks());

async function work() {
  for (let i = 0; i < 6; i++) if (!(await runDueJobs(JOB_KINDS, 50)).claimed) break;
}
async function at(minutes: number) {
  vi.spyOn(clock, "now").mockReturnValue(new Date(start.getTime() + minutes * 60_000));
  await work();
}

/** The texts and calls counted against the allowance this month, by what they were. */
async function counted(): Promise<Record<string, number>> {
  const rows = await prisma.dailyStat.findMany({ where: { metric: "otp_verified", dimension: { not: "" } } });
  return Object.fromEntries(rows.map((r) => [r.dimension, r.count]));
}

const text = (body: string, from = PHONE) => fake.twilio.textIn(from, body, env.SHOPIFY_APP_URL);
const questions = () => fake.twilio.messages.filter((m) => m.channel === "whatsapp" && m.contentSid === CONFIRM_SID);
const reminders = () => fake.twilio.messages.filter((m) => /out for delivery/.test(m.body));
const recoveryTexts = () => fake.twilio.messages.filter((m) => /\/dr\//.test(m.body));

function carrierEvent(o: Order, status: string, options: { shop?: string; webhookId?: string } = {}) {
  return callRoute(carrier, signedWebhook("fulfillment_events/create", null, { rawBody: fulfillmentEventBody(o.admin_graphql_api_id, status), ...options }));
}

/** A COD order placed, its balance known to the fake Shopify. */
async function shippedOrder(id: number) {
  const o = codOrder({ id, admin_graphql_api_id: `gid://shopify/Order/${id}`, name: `#${id}` });
  await placeOrder(o);
  store.add({ id: o.admin_graphql_api_id, name: o.name, outstanding: "1299.00", currency: "INR" });
  return o;
}

const DELIVERY_SHOP = { otpEnabled: false, timezone: "Asia/Kolkata", currency: "INR" };

describe("texts and calls count against the shop's allowance", () => {
  it("each ladder text or call counts one; once the allowance is used up the ladder texts and calls no more and hands the order to a person", async () => {
    const shop = await installShop({ ladderWhatsappMinutes: 0, ladderSmsMinutes: null, ladderVoiceMinutes: 1, ladderPersonMinutes: 360, confirmDeadlineHours: 24 });
    const { allowance } = await verificationStatus(shop);
    // One left this month: the order's WhatsApp question takes it.
    await prisma.dailyStat.create({ data: { shopId: shop.id, metric: "otp_verified", day: "2026-11-01", dimension: "", count: allowance - 1 } });
    const order = orderCreatedPayload({ phone: PHONE, total_price: "1299.00" });
    expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
    await work();
    expect(questions()).toHaveLength(1);
    expect(await counted()).toEqual({ ladder: 1 });
    expect((await verificationStatus(shop)).pause).toBe("allowance_used");

    // The call is not placed: its rung is skipped and the order needs a person at once, as its history says.
    await at(2);
    expect(fake.twilio.calls).toHaveLength(0);
    const c = await prisma.orderConfirmation.findFirstOrThrow();
    expect(c.personAt?.toISOString()).toBe(new Date(start.getTime() + 2 * 60_000).toISOString());
    const history = await prisma.confirmationRung.findMany({ where: { confirmationId: c.id }, orderBy: { rung: "asc" } });
    expect(history.map((r) => [r.rung, r.state, r.detail])).toEqual([
      ["person", "queued", "early: allowance_used"],
      ["voice", "skipped", "allowance_used"],
      ["whatsapp", "sent", null],
    ]);
    // The person rung's own job, due later, finds it done; nothing more is counted.
    await at(400);
    expect(await prisma.confirmationRung.count({ where: { confirmationId: c.id } })).toBe(3);
    expect(await counted()).toEqual({ ladder: 1 });
  });

  it("the delivery reminder and the failed-delivery text count one each, and none goes for a shop without allowance", async () => {
    const shop = await installShop(DELIVERY_SHOP);
    const first = await shippedOrder(7001);
    await carrierEvent(first, "out_for_delivery");
    await work();
    const second = await shippedOrder(7002);
    await carrierEvent(second, "attempted_delivery");
    await work();
    expect(reminders()).toHaveLength(1);
    expect(recoveryTexts()).toHaveLength(1);
    expect(await counted()).toEqual({ reminder: 1, recovery: 1 });

    const { allowance } = await verificationStatus(shop);
    await prisma.dailyStat.create({ data: { shopId: shop.id, metric: "otp_verified", day: "2026-11-01", dimension: "", count: allowance } });
    const third = await shippedOrder(7003);
    await carrierEvent(third, "out_for_delivery");
    await work();
    expect(reminders()).toHaveLength(1);
    expect(await prisma.deliveryReminder.findUniqueOrThrow({ where: { shopId_orderGid: { shopId: shop.id, orderGid: third.admin_graphql_api_id } } })).toMatchObject({
      status: "skipped",
      note: "allowance_used",
    });
  });
});

describe("a confirmation without a ladder counts like the ladder", () => {
  const confirmLinks = () => fake.twilio.messages.filter((m) => m.channel === "sms" && /\/vc\//.test(m.body));
  const WHATSAPP_FIRST = { whatsappConfirmation: "unverified", whatsappReplyMinutes: 30, cancelUnconfirmed: true, confirmDeadlineHours: 24 } as const;
  async function placeUnverified() {
    const order = orderCreatedPayload({ phone: PHONE, total_price: "1299.00" });
    expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
    await work();
    return order;
  }
  const resend = async (orderGid: string) => callAdminRoute<Record<string, unknown>>(ordersPage, await adminRequest("/app/orders", { form: { intent: "resend", orderGid } }));

  it("the WhatsApp question and the SMS link after no answer count one each; the merchant's resend is not counted", async () => {
    await installShop(WHATSAPP_FIRST);
    const order = await placeUnverified();
    expect(questions()).toHaveLength(1);
    expect(await counted()).toEqual({ confirmation: 1 });
    await at(31);
    expect(confirmLinks()).toHaveLength(1);
    expect(await counted()).toEqual({ confirmation: 2 });
    // Later runs of the queue send and count nothing more.
    await at(32);
    expect(await counted()).toEqual({ confirmation: 2 });

    // The merchant's "Resend link" from the Orders page: the question goes again, the allowance is not touched.
    expect((await resend(order.admin_graphql_api_id)).status).toBe(200);
    await work();
    expect(questions()).toHaveLength(2);
    expect(await counted()).toEqual({ confirmation: 2 });
  });

  it("the allowance used up: the SMS link is not sent, nothing is counted, and the deadline does not cancel the order the shopper was not asked about", async () => {
    const shop = await installShop(WHATSAPP_FIRST);
    const { allowance } = await verificationStatus(shop);
    await prisma.dailyStat.create({ data: { shopId: shop.id, metric: "otp_verified", day: "2026-11-01", dimension: "", count: allowance - 1 } });
    const order = await placeUnverified();
    // The question takes the last unit of the month.
    expect(questions()).toHaveLength(1);
    expect(await counted()).toEqual({ confirmation: 1 });
    expect((await verificationStatus(shop)).pause).toBe("allowance_used");

    await at(31);
    expect(confirmLinks()).toHaveLength(0);
    expect(await counted()).toEqual({ confirmation: 1 });
    const c = await prisma.orderConfirmation.findFirstOrThrow();
    expect(c.textCappedAt).not.toBeNull();
    expect(c.status).toBe("pending");

    await at(25 * 60);
    expect(await prisma.orderConfirmation.findFirstOrThrow({ select: { status: true, cancelledAt: true } })).toEqual({ status: "unconfirmed", cancelledAt: null });
    expect(shopify.callsTo(OPERATIONS.orderCancel).filter((call) => call.variables.orderId === order.admin_graphql_api_id)).toHaveLength(0);
  });

  it("an SMS-first shop whose allowance ran out between the order and its text: no link, nothing counted, the order left to the merchant", async () => {
    const shop = await installShop({ cancelUnconfirmed: true, confirmDeadlineHours: 24 });
    const order = orderCreatedPayload({ phone: PHONE, total_price: "1299.00" });
    expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
    const { allowance } = await verificationStatus(shop);
    await prisma.dailyStat.create({ data: { shopId: shop.id, metric: "otp_verified", day: "2026-11-01", dimension: "", count: allowance } });
    await work();
    expect(fake.twilio.attempts.filter((m) => m.to === PHONE)).toHaveLength(0);
    expect(await counted()).toEqual({});
    expect(await prisma.orderConfirmation.findFirstOrThrow({ select: { status: true, notifiedAt: true, textCappedAt: true } })).toEqual({ status: "pending", notifiedAt: null, textCappedAt: start });

    await at(25 * 60);
    expect(await prisma.orderConfirmation.findFirstOrThrow({ select: { status: true, cancelledAt: true } })).toEqual({ status: "unconfirmed", cancelledAt: null });
    expect(shopify.callsTo(OPERATIONS.orderCancel)).toHaveLength(0);
  });

  it("a number that asked to stop gets no confirmation text, and nothing is counted", async () => {
    const shop = await installShop();
    await placeUnverified();
    expect(confirmLinks()).toHaveLength(1);
    expect(await counted()).toEqual({ confirmation: 1 });
    expect(await text("STOP")).toEqual({ status: 200, outcome: "opted_out" });
    expect(await prisma.contactOptOut.count({ where: { shopId: shop.id, phone: PHONE } })).toBe(1);
    const second = orderCreatedPayload({ phone: PHONE, total_price: "1299.00" });
    expect((await callRoute(ordersCreate, signedWebhook("orders/create", second))).status).toBe(200);
    await work();
    expect(await prisma.orderConfirmation.count()).toBe(2);
    expect(fake.twilio.attempts.filter((m) => m.to === PHONE)).toHaveLength(1);
    expect(await counted()).toEqual({ confirmation: 1 });
  });
});

describe("counted once under concurrency", () => {
  it("reminders of six orders run by three workers at once: each text goes once and counts once, up to the shop's daily cap", async () => {
    await installShop({ ...DELIVERY_SHOP, dailySendCap: 4 });
    const placed = [];
    for (let i = 0; i < 6; i++) placed.push(await shippedOrder(7700 + i));
    await Promise.all(placed.map((o, i) => carrierEvent(o, "out_for_delivery", { webhookId: `ofd-${i}` })));
    await Promise.all([work(), work(), work()]);
    // The shop's daily cap of four: four texts, four counted, the other two skipped with the reason.
    expect(reminders()).toHaveLength(4);
    expect(await counted()).toEqual({ reminder: 4 });
    expect((await prisma.deliveryReminder.findMany({ where: { status: "skipped" } })).map((r) => r.note)).toEqual(["shop_daily_cap", "shop_daily_cap"]);
    expect(await prisma.messageDelivery.count({ where: { purpose: "delivery_reminder" } })).toBe(4);
  });
});

describe("a number that asked to stop gets nothing more", () => {
  it("STOP by SMS: no reminder, no recovery text; a replay of the same STOP after START changes nothing; START lets texts through again", async () => {
    const shop = await installShop(DELIVERY_SHOP);
    const first = await shippedOrder(7101);
    await carrierEvent(first, "out_for_delivery");
    await work();
    expect(reminders()).toHaveLength(1);

    expect(await text("Stop")).toEqual({ status: 200, outcome: "opted_out" });
    expect(await prisma.contactOptOut.findMany({ select: { shopId: true, phone: true, channel: true, source: true } })).toEqual([
      { shopId: shop.id, phone: PHONE, channel: "all", source: "sms_stop" },
    ]);
    const second = await shippedOrder(7102);
    await carrierEvent(second, "out_for_delivery");
    await carrierEvent(first, "failure");
    await work();
    expect(reminders()).toHaveLength(1);
    expect(recoveryTexts()).toHaveLength(0);
    expect(await prisma.deliveryReminder.findUniqueOrThrow({ where: { shopId_orderGid: { shopId: shop.id, orderGid: second.admin_graphql_api_id } } })).toMatchObject({
      status: "skipped",
      note: "opted_out",
    });
    // Nothing went: no Twilio request at all, and nothing counted.
    expect(fake.twilio.attempts.filter((m) => m.to === PHONE)).toHaveLength(1);
    expect(await counted()).toEqual({ reminder: 1 });

    expect(await text("START")).toEqual({ status: 200, outcome: "opted_in" });
    expect(await prisma.contactOptOut.count()).toBe(0);
    // Twilio delivers the STOP again (same MessageSid): it was applied once, and is not applied twice.
    await text("STOP");
    await text("start");
    expect(await fake.twilio.replayText()).toEqual({ status: 200, outcome: "duplicate" });
    expect(await prisma.contactOptOut.count()).toBe(0);
    expect(await prisma.inboundKeyword.count()).toBe(4);

    const third = await shippedOrder(7103);
    await carrierEvent(third, "out_for_delivery");
    await work();
    expect(reminders()).toHaveLength(2);
  });

  it("a replayed STOP is applied once, whatever the order of deliveries: after START, the STOP's replay leaves the number opted in", async () => {
    await installShop(DELIVERY_SHOP);
    const o = await shippedOrder(7201);
    await carrierEvent(o, "out_for_delivery");
    await work();
    const sid = `SM${"a".repeat(32)}`;
    const stop = () => callRoute(smsInbound, statusCallbackRequest(`${env.SHOPIFY_APP_URL}/twilio/sms`, { MessageSid: sid, AccountSid: "ACfake", From: PHONE, To: "+15005550006", Body: "STOP" }));
    const outcomes = await Promise.all(Array.from({ length: 6 }, stop));
    expect(outcomes.map((r) => r.headers.get("x-cod-outcome")).sort()).toEqual(["duplicate", "duplicate", "duplicate", "duplicate", "duplicate", "opted_out"]);
    expect(await prisma.contactOptOut.count()).toBe(1);
    await text("UNSTOP");
    expect((await stop()).headers.get("x-cod-outcome")).toBe("duplicate");
    expect(await prisma.contactOptOut.count()).toBe(0);
  });

  it("Twilio's 21610 on a reminder records the opt-out: the recovery text that follows is not tried", async () => {
    await installShop(DELIVERY_SHOP);
    const o = await shippedOrder(7301);
    fake.twilio.fail("unsubscribed", { times: 1 });
    await carrierEvent(o, "out_for_delivery");
    await work();
    expect(await prisma.contactOptOut.findFirstOrThrow()).toMatchObject({ phone: PHONE, channel: "all", source: "twilio_21610" });
    await carrierEvent(o, "failure");
    await work();
    expect(fake.twilio.attempts).toHaveLength(1);
    expect(await counted()).toEqual({});
  });

  it("9 on a call stops calls, not texts: the reminder still goes", async () => {
    await installShop({ ...DELIVERY_SHOP, otpEnabled: true, ladderWhatsappMinutes: null, ladderSmsMinutes: null, ladderVoiceMinutes: 0, ladderPersonMinutes: null, confirmDeadlineHours: 24 });
    await shippedOrder(7401);
    await work();
    expect(fake.twilio.calls).toHaveLength(1);
    const answered = await fake.twilio.answerCall(fake.twilio.calls[0].sid, { digits: "9" });
    expect(answered.gather?.outcome).toBe("opted_out");
    const again = await shippedOrder(7402);
    await work();
    expect(fake.twilio.calls).toHaveLength(1);
    await carrierEvent(again, "out_for_delivery");
    await work();
    expect(reminders()).toHaveLength(1);
  });

  it("the door: no signature 403, a body Twilio would not send 400, HELP and other texts change nothing", async () => {
    await installShop(DELIVERY_SHOP);
    const url = `${env.SHOPIFY_APP_URL}/twilio/sms`;
    const params = { MessageSid: `SM${"b".repeat(32)}`, AccountSid: "ACfake", From: PHONE, To: "+15005550006", Body: "STOP" };
    const forged = statusCallbackRequest(url, params, { token: "not-the-token" });
    expect((await callRoute(smsInbound, forged)).status).toBe(403);
    const tampered = statusCallbackRequest(url, params, { tamper: (p) => (p.From = "+919999999999") });
    expect((await callRoute(smsInbound, tampered)).status).toBe(403);
    const bad = await callRoute(smsInbound, statusCallbackRequest(url, { ...params, From: "not a number" }));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "invalid_request" });
    expect(await text("HELP")).toEqual({ status: 200, outcome: "help" });
    expect(await text("stop the order please")).toEqual({ status: 200, outcome: "ignored" });
    expect(await prisma.contactOptOut.count()).toBe(0);
    expect((await callRoute(smsInbound, new Request(url, { method: "GET" }))).status).toBe(405);
  });
});

describe("a carrier's event is acted on only for the shop's own order", () => {
  it("another shop's order and events replayed under this shop's header text no one; under its own shop they do", async () => {
    await installShop(DELIVERY_SHOP);
    await installShop({ ...DELIVERY_SHOP, domain: OTHER });
    const theirs = codOrder({ id: 7501, admin_graphql_api_id: "gid://shopify/Order/7501", name: "#7501" });
    shopify.own(OTHER, theirs.admin_graphql_api_id);
    store.add({ id: theirs.admin_graphql_api_id, name: theirs.name, outstanding: "1299.00", currency: "INR" });
    // The other shop's orders/create replayed here: read back, it is not this shop's, so nothing is written.
    await placeOrder(theirs);
    for (const status of ["out_for_delivery", "attempted_delivery", "failure"]) expect((await carrierEvent(theirs, status)).status).toBe(200);
    await work();
    expect(fake.twilio.attempts).toHaveLength(0);
    expect(await prisma.deliveryReminder.count()).toBe(0);
    expect(await prisma.deliveryRecovery.count()).toBe(0);
    expect(shopify.callsTo(OPERATIONS.orderReadBack).every((c) => c.shop === SHOP)).toBe(true);

    // Under its own shop's header the same order is reminded.
    expect((await callRoute(ordersCreate, signedWebhook("orders/create", theirs, { shop: OTHER }))).status).toBe(200);
    expect((await carrierEvent(theirs, "out_for_delivery", { shop: OTHER })).status).toBe(200);
    await work();
    expect(reminders()).toHaveLength(1);
  });

  it("answers 503 and queues nothing while Shopify cannot say whose the order is; its next delivery acts", async () => {
    await installShop(DELIVERY_SHOP);
    const o = await shippedOrder(7601);
    // orders/create read the order back once already (app/orders/order-created.server.ts).
    const atOrder = shopify.callsTo(OPERATIONS.orderReadBack).length;
    shopify.on(OPERATIONS.orderReadBack, () => ({ status: 502 }), "admin");
    expect((await carrierEvent(o, "out_for_delivery", { webhookId: "ofd-1" })).status).toBe(503);
    expect(await prisma.deliveryReminder.count()).toBe(0);
    shopify.on(OPERATIONS.orderReadBack, handlers.orderReadBack(), "admin");
    expect((await carrierEvent(o, "out_for_delivery", { webhookId: "ofd-1" })).status).toBe(200);
    await work();
    expect(reminders()).toHaveLength(1);
    // A later event of the order is known: Shopify is not asked again.
    await carrierEvent(o, "out_for_delivery", { webhookId: "ofd-2" });
    expect(shopify.callsTo(OPERATIONS.orderReadBack)).toHaveLength(atOrder + 2);
  });
});
