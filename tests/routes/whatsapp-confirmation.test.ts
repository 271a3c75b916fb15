import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as ordersCancelled from "~/routes/webhooks.orders.cancelled";
import * as inbound from "~/routes/twilio.whatsapp";
import * as status from "~/routes/twilio.status";
import * as ordersPage from "~/routes/app.orders";
import * as confirmPage from "~/routes/proxy.vc.$token";
import { messageLogLine, type MessageLogEntry } from "~/orders/message-log";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { env } from "~/core/env.server";
import { prisma } from "~/core/db.server";
import { runDueJobs as runJobs } from "~/core/jobs/queue.server";
import { JOB_KINDS } from "~/server-build";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import { FakeOrderStore, fakeOrder } from "../mocks/shopify/orders";
import { clock } from "~/core/utils/clock.server";
import { useFakeShopify } from "../helpers/fake-shopify";
import { statusCallbackRequest, useFakeTwilio } from "../helpers/twilio";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/**
 * Confirmation after purchase on WhatsApp, from outside: an unverified COD order gets a WhatsApp
 * template with Confirm / Cancel / Change address buttons; the shopper's press comes back as Twilio's
 * signed inbound webhook (POST /twilio/whatsapp), matched by the replied-to message, once per MessageSid.
 */
const PHONE = "+919876500031";
const CONFIRM_SID = "HXc0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0";
const shopify = useFakeShopify();
const fake = useFakeTwilio({ TWILIO_WHATSAPP_FROM: "+15005550007", TWILIO_WHATSAPP_CONFIRM_CONTENT_SID: CONFIRM_SID });
let tagged: Map<string, Set<string>>;
let store: FakeEnforcementStore;
let inboundCounter = 0;

beforeEach(() => {
  tagged = new Map();
  store = new FakeEnforcementStore(tagged);
  handlers.installDefaultHandlers(shopify, {}, tagged);
  store.install(shopify);
});
afterEach(() => vi.restoreAllMocks());

const runDueJobs = () => runJobs(JOB_KINDS);
async function work() {
  await runDueJobs();
  await runDueJobs();
}

async function placeUnverifiedOrder() {
  const order = orderCreatedPayload({ phone: PHONE, customer: { id: 91, admin_graphql_api_id: "gid://shopify/Customer/91", phone: PHONE, tags: "" } });
  expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
  await work();
  return order;
}

const tagsOf = (gid: string) => [...(tagged.get(gid) ?? [])].filter((t) => !t.startsWith("cod-risk:")).sort();
const whatsapp = () => fake.twilio.messages.filter((m) => m.channel === "whatsapp");
const sms = () => fake.twilio.messages.filter((m) => m.channel === "sms");

/** The confirmation question sent on WhatsApp (the template with the buttons). */
function question() {
  const asked = whatsapp().filter((m) => m.contentSid === CONFIRM_SID);
  expect(asked).toHaveLength(1);
  return asked[0];
}

const newSid = () => `SM${(0xabc000 + ++inboundCounter).toString(16).padStart(32, "f")}`;

/** Twilio's inbound webhook for a button press, signed with the account's token. */
function press(repliedTo: string, payload: string, options: { sid?: string; from?: string; token?: string; tamper?: (p: Record<string, string>) => void } = {}) {
  const url = `${env.SHOPIFY_APP_URL}/twilio/whatsapp`;
  const params: Record<string, string> = {
    MessageSid: options.sid ?? newSid(),
    AccountSid: "ACfake00000000000000000000000000",
    From: options.from ?? `whatsapp:${PHONE}`,
    To: "whatsapp:+15005550007",
    Body: payload,
    ButtonText: payload,
    ButtonPayload: payload,
    OriginalRepliedMessageSid: repliedTo,
    NumMedia: "0",
  };
  return callRoute(inbound, statusCallbackRequest(url, params, { token: options.token, tamper: options.tamper }));
}

function report(sid: string, MessageStatus: string, extra: Record<string, string> = {}) {
  const url = `${env.SHOPIFY_APP_URL}/twilio/status`;
  return callRoute(status, statusCallbackRequest(url, { MessageSid: sid, MessageStatus, AccountSid: "ACfake", To: `whatsapp:${PHONE}`, ...extra }));
}

const answers = () => whatsapp().filter((m) => m.contentSid === null).map((m) => m.body);

describe("WhatsApp confirmation of an unverified COD order", () => {
  it("asks on WhatsApp with the order's summary and no SMS; Confirm confirms once (tags, hold released), and a replayed press changes nothing", async () => {
    await installShop({ whatsappConfirmation: "unverified", holdUnverifiedCod: true });
    const order = await placeUnverifiedOrder();
    const asked = question();
    expect(asked.to).toBe(PHONE);
    expect(asked.contentVariables).toMatchObject({ "2": order.name, "3": expect.stringContaining(order.name) });
    expect(sms()).toEqual([]);
    expect(store.order(order.admin_graphql_api_id).fulfillmentOrders[0].status).toBe("ON_HOLD");
    expect(await prisma.messageDelivery.findFirstOrThrow({ where: { providerId: asked.sid } })).toMatchObject({ orderGid: order.admin_graphql_api_id, channel: "whatsapp" });

    const sid = newSid();
    const res = await press(asked.sid, "confirm", { sid });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-cod-outcome")).toBe("recorded");
    await work();
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-verified"]);
    expect(store.order(order.admin_graphql_api_id).fulfillmentOrders[0]).toMatchObject({ status: "OPEN", holds: [] });
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ status: "confirmed", answer: "confirm", holdsReleasedAt: expect.any(Date) });
    expect(await prisma.orderRecord.findFirstOrThrow()).toMatchObject({ status: "confirmed", verifiedBy: "confirmation" });
    expect(answers()).toEqual([expect.stringContaining("is confirmed")]);

    // Twilio delivers the same press again (same MessageSid): recorded once, no second answer, no second release.
    const releases = shopify.callsTo(OPERATIONS.fulfillmentOrderReleaseHold).length;
    const again = await press(asked.sid, "confirm", { sid });
    expect(again.headers.get("x-cod-outcome")).toBe("duplicate");
    await work();
    expect(await prisma.whatsappReply.count()).toBe(1);
    expect(answers()).toHaveLength(1);
    expect(shopify.callsTo(OPERATIONS.fulfillmentOrderReleaseHold)).toHaveLength(releases);

    // The deadline does nothing, and no SMS link ever went.
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 25 * 3600_000));
    await work();
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-verified"]);
    expect(sms()).toEqual([]);
  });

  it("matches the press by the replied-to message, not the sender: a business-scoped id in From still confirms", async () => {
    await installShop({ whatsappConfirmation: "unverified" });
    const order = await placeUnverifiedOrder();
    await press(question().sid, "confirm", { from: "whatsapp:IN.13491208655302741918" });
    await work();
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-verified"]);
    // The answer goes to the order's phone.
    expect(whatsapp().filter((m) => m.contentSid === null).map((m) => m.to)).toEqual([PHONE]);
  });

  it("Cancel tags the order and cancels it with the shopper as the reason when the shop allows it", async () => {
    await installShop({ whatsappConfirmation: "unverified", cancelOnWhatsappCancel: true });
    const order = await placeUnverifiedOrder();
    await press(question().sid, "cancel");
    await work();
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-cancelled-by-shopper"]);
    const [cancel] = shopify.callsTo(OPERATIONS.orderCancel);
    expect(cancel.variables).toMatchObject({ orderId: order.admin_graphql_api_id, reason: "CUSTOMER" });
    expect(store.order(order.admin_graphql_api_id).cancelled).not.toBeNull();
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ status: "cancelled", answer: "cancel", cancelledAt: expect.any(Date) });
    expect(await prisma.orderRecord.findFirstOrThrow()).toMatchObject({ status: "cancelled" });
    expect(answers()).toEqual([expect.stringContaining("is cancelled")]);
  });

  it("Cancel only tags the order by default (the merchant decides), and a later Confirm changes nothing and gets no second answer", async () => {
    await installShop({ whatsappConfirmation: "unverified" });
    const order = await placeUnverifiedOrder();
    const asked = question();
    await press(asked.sid, "cancel");
    await work();
    expect(shopify.callsTo(OPERATIONS.orderCancel)).toHaveLength(0);
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-cancelled-by-shopper"]);

    await press(asked.sid, "confirm");
    await work();
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ status: "cancelled" });
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-cancelled-by-shopper"]);
    // One answer per state of the confirmation: the first already said it is cancelled.
    expect(answers()).toEqual([expect.stringContaining("want to cancel")]);
    expect(await prisma.whatsappReply.findMany({ orderBy: { createdAt: "asc" }, select: { action: true, outcome: true } })).toEqual([
      { action: "cancel", outcome: "cancelled" },
      { action: "confirm", outcome: "already_cancelled" },
    ]);
  });

  it("a Cancel pressed after Confirm cancels nothing and gets no second answer (the first said it is confirmed)", async () => {
    await installShop({ whatsappConfirmation: "unverified", cancelOnWhatsappCancel: true });
    const order = await placeUnverifiedOrder();
    const asked = question();
    // Both presses arrive before the worker runs: they are handled in the order they came.
    await press(asked.sid, "confirm");
    await press(asked.sid, "cancel");
    await work();
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ status: "confirmed" });
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-verified"]);
    expect(shopify.callsTo(OPERATIONS.orderCancel)).toHaveLength(0);
    expect(answers()).toEqual([expect.stringContaining("is confirmed")]);
  });

  it("twenty presses of Confirm: the question and one answer, two messages in all", async () => {
    await installShop({ whatsappConfirmation: "unverified" });
    await placeUnverifiedOrder();
    const asked = question();
    for (let i = 0; i < 20; i++) await press(asked.sid, i % 2 ? "confirm" : "cancel");
    await work();
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ status: "cancelled" });
    expect(answers()).toHaveLength(1);
    expect(fake.twilio.messages).toHaveLength(2);
    expect(await prisma.whatsappReply.count({ where: { doneAt: { not: null } } })).toBe(20);
  });

  it("Change address answers with the hosted address form's link, once; the order stays to confirm", async () => {
    await installShop({ whatsappConfirmation: "unverified" });
    const order = await placeUnverifiedOrder();
    // The address form reads the order from Shopify.
    const orders = new FakeOrderStore();
    orders.add(fakeOrder({ id: order.admin_graphql_api_id, name: order.name, phone: PHONE }));
    shopify.on(OPERATIONS.orderById, orders.orderById(), "admin");
    const asked = question();
    await press(asked.sid, "change_address");
    await work();
    const [link] = answers();
    expect(link).toMatch(/\/ac\/[A-Za-z0-9_-]+/);
    expect(await prisma.addressCorrection.findFirstOrThrow()).toMatchObject({ source: "whatsapp", phone: PHONE, status: "pending" });
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ status: "pending" });
    // A second press: the link already went (it is in the chat), no second correction, no second answer.
    await press(asked.sid, "change_address");
    await work();
    expect(await prisma.addressCorrection.count()).toBe(1);
    expect(answers()).toHaveLength(1);
  });

  it("no answer within the shop's window: the SMS link as before, once; then the deadline as before", async () => {
    await installShop({ whatsappConfirmation: "unverified", whatsappReplyMinutes: 30, cancelUnconfirmed: true, confirmDeadlineHours: 24 });
    const order = await placeUnverifiedOrder();
    question();
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 29 * 60_000));
    await work();
    expect(sms()).toEqual([]);
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 31 * 60_000));
    await work();
    expect(sms()).toHaveLength(1);
    expect(sms()[0].body).toMatch(/\/vc\/[A-Za-z0-9_-]{32}/);
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 25 * 3600_000));
    await work();
    expect(sms()).toHaveLength(1);
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-unconfirmed"]);
    expect(store.order(order.admin_graphql_api_id).cancelled).not.toBeNull();
  });

  it("a WhatsApp message reported failed sends the SMS link at once, once, whatever callbacks follow", async () => {
    await installShop({ whatsappConfirmation: "unverified" });
    await placeUnverifiedOrder();
    const asked = question();
    expect(await jsonOf(await report(asked.sid, "failed", { ErrorCode: "63016" }))).toMatchObject({ fallback: "queued" });
    await work();
    expect(sms()).toHaveLength(1);
    const replaced = await prisma.messageDelivery.findFirstOrThrow({ where: { providerId: asked.sid } });
    expect(await prisma.messageDelivery.findFirstOrThrow({ where: { providerId: sms()[0].sid } })).toMatchObject({ fallbackOf: replaced.id, purpose: "order_confirmation" });
    // A late undelivered, a replayed failed, and the window's end: no second link.
    expect(await jsonOf(await report(asked.sid, "undelivered", { ErrorCode: "63016" }))).toMatchObject({ fallback: "already_sent" });
    await report(asked.sid, "failed", { ErrorCode: "63016" });
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 61 * 60_000));
    await work();
    expect(sms()).toHaveLength(1);
  });

  it("a WhatsApp message reported failed after the number asked to stop sends no SMS in its place", async () => {
    await installShop({ whatsappConfirmation: "unverified" });
    await placeUnverifiedOrder();
    const asked = question();
    const shop = await prisma.shop.findFirstOrThrow();
    await prisma.contactOptOut.create({ data: { shopId: shop.id, phone: PHONE, channel: "all", source: "sms_stop" } });
    await report(asked.sid, "failed", { ErrorCode: "63016" });
    await work();
    expect(sms()).toHaveLength(0);
    expect(await prisma.messageDelivery.findFirstOrThrow({ where: { providerId: asked.sid } })).toMatchObject({ fallbackBody: null });
  });

  it("late and out-of-order delivery callbacks never move a message back, and a read message still escalates without an answer", async () => {
    await installShop({ whatsappConfirmation: "unverified" });
    await placeUnverifiedOrder();
    const asked = question();
    for (const state of ["read", "delivered", "sent", "queued"]) expect((await report(asked.sid, state)).status).toBe(200);
    expect(await prisma.messageDelivery.findFirstOrThrow({ where: { providerId: asked.sid } })).toMatchObject({ status: "read" });
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 61 * 60_000));
    await work();
    expect(sms()).toHaveLength(1);
  });

  it("a press after the deadline answers that the order can no longer be confirmed and changes nothing", async () => {
    await installShop({ whatsappConfirmation: "unverified" });
    const order = await placeUnverifiedOrder();
    const asked = question();
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 25 * 3600_000));
    await work();
    await press(asked.sid, "confirm");
    await work();
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ status: "unconfirmed" });
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-unconfirmed"]);
    expect(answers()).toEqual([expect.stringContaining("can no longer be confirmed")]);
  });

  it("a press on an order the merchant cancelled in Shopify answers that it was cancelled and changes nothing", async () => {
    await installShop({ whatsappConfirmation: "unverified", holdUnverifiedCod: true });
    const order = await placeUnverifiedOrder();
    const asked = question();
    expect((await callRoute(ordersCancelled, signedWebhook("orders/cancelled", { ...order, cancelled_at: new Date().toISOString() }))).status).toBe(200);
    await press(asked.sid, "confirm");
    await work();
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ status: "cancelled", answer: null });
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-pending"]);
    expect(shopify.callsTo(OPERATIONS.fulfillmentOrderReleaseHold)).toHaveLength(0);
    expect(answers()).toEqual([expect.stringContaining("was already cancelled")]);
    // Its deadline neither tags nor cancels it, and no SMS link goes.
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 25 * 3600_000));
    await work();
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-pending"]);
    expect(sms()).toEqual([]);
  });

  it("the same press delivered three times at once, with two workers, confirms once and answers once", async () => {
    await installShop({ whatsappConfirmation: "unverified", holdUnverifiedCod: true });
    const order = await placeUnverifiedOrder();
    const asked = question();
    const sid = newSid();
    const outcomes = await Promise.all([press(asked.sid, "confirm", { sid }), press(asked.sid, "confirm", { sid }), press(asked.sid, "confirm", { sid })]);
    expect(outcomes.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(outcomes.map((r) => r.headers.get("x-cod-outcome")).sort()).toEqual(["duplicate", "duplicate", "recorded"]);
    await Promise.all([runJobs(JOB_KINDS, 20, 2), runJobs(JOB_KINDS, 20, 2)]);
    await work();
    expect(await prisma.whatsappReply.count()).toBe(1);
    expect(answers()).toHaveLength(1);
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-verified"]);
    expect(shopify.callsTo(OPERATIONS.fulfillmentOrderReleaseHold)).toHaveLength(1);
  });

  it("sends the SMS link as before when the shop has WhatsApp confirmation off", async () => {
    await installShop();
    await placeUnverifiedOrder();
    expect(whatsapp()).toEqual([]);
    expect(sms()).toHaveLength(1);
  });

  it("asks a verified COD order too when the shop asks every COD order, without hold, SMS or deadline effect", async () => {
    await installShop({ whatsappConfirmation: "all", holdUnverifiedCod: true });
    // A verified order: orders/create finds the shopper's proof (tests/routes/order-confirmation.test.ts covers it); here, the
    // courtesy confirmation opened directly as orders/create does for one.
    const { openConfirmation } = await import("~/orders/confirmation/confirmation.server");
    const shop = await prisma.shop.findFirstOrThrow();
    const gid = "gid://shopify/Order/777";
    await openConfirmation(shop, { gid, name: "#1777", phone: PHONE }, "courtesy");
    await work();
    const asked = question();
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ kind: "courtesy", hold: false });
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 25 * 3600_000));
    await work();
    expect(sms()).toEqual([]);
    expect(tagsOf(gid)).toEqual([]);
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ status: "unanswered" });
    await press(asked.sid, "confirm");
    await work();
    expect(answers()).toEqual([expect.stringContaining("can no longer be confirmed")]);
  });
});

describe("the order's message log on the Orders page", () => {
  it("lists what was sent about the order with its last state, and the shopper's answer", async () => {
    await installShop({ whatsappConfirmation: "unverified" });
    const order = await placeUnverifiedOrder();
    const asked = question();
    await report(asked.sid, "read");
    await press(asked.sid, "confirm");
    await work();
    await report(whatsapp().find((m) => m.contentSid === null)!.sid, "delivered");
    const page = await callAdminRoute<{ orders: { gid: string; messages: MessageLogEntry[] }[] }>(ordersPage, await adminRequest("/app/orders"));
    expect(page.status).toBe(200);
    const row = page.data!.orders.find((o) => o.gid === order.admin_graphql_api_id)!;
    expect(row.messages.map(messageLogLine)).toEqual(["WhatsApp confirmation: read", "Reply: Confirm", "WhatsApp confirmation: delivered"]);
  });

  it("Home's dashboard splits the messages by channel and counts the orders answered on WhatsApp", async () => {
    await installShop({ whatsappConfirmation: "unverified" });
    await placeUnverifiedOrder();
    const asked = question();
    await report(asked.sid, "read");
    await press(asked.sid, "cancel");
    await work();
    const { dashboardOf } = await import("~/dashboard/dashboard.server");
    const d = await dashboardOf(await prisma.shop.findFirstOrThrow());
    expect(d.channels).toEqual([
      { channel: "sms", sent: 0, delivered: 0, read: 0, failed: 0, verifiedOrders: 0 },
      { channel: "whatsapp", sent: 2, delivered: 1, read: 1, failed: 0, verifiedOrders: 0 },
    ]);
    expect(d.whatsappAnswers).toEqual({ confirmed: 0, cancelled: 1 });
  });

  it("an order confirmed by the WhatsApp button counts as verified on WhatsApp; one confirmed by the SMS link after no answer, on SMS", async () => {
    await installShop({ whatsappConfirmation: "unverified", whatsappReplyMinutes: 30 });
    await placeUnverifiedOrder();
    await press(question().sid, "confirm");
    await work();
    const { dashboardOf } = await import("~/dashboard/dashboard.server");
    const shop = await prisma.shop.findFirstOrThrow();
    expect((await dashboardOf(shop)).channels.map((c) => [c.channel, c.verifiedOrders])).toEqual([
      ["sms", 0],
      ["whatsapp", 1],
    ]);
    // A second order: no answer on WhatsApp, the SMS link goes out, the shopper confirms through it.
    const second = orderCreatedPayload({ phone: PHONE, customer: { id: 92, admin_graphql_api_id: "gid://shopify/Customer/92", phone: PHONE, tags: "" } });
    expect((await callRoute(ordersCreate, signedWebhook("orders/create", second))).status).toBe(200);
    await work();
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 31 * 60_000));
    await work();
    expect(sms()).toHaveLength(1);
    const token = /\/vc\/([A-Za-z0-9_-]{32})/.exec(sms()[0].body)![1];
    const page = (form?: Record<string, string>) =>
      callRoute(
        confirmPage,
        signedRequest(`/vc/${token}`, form ? { method: "POST", body: new URLSearchParams(form).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } } : {}),
        { token },
      );
    const nonceOf = (html: string) => /name="nonce" value="([^"]+)"/.exec(html)![1];
    const codeForm = await (await page({ intent: "send", nonce: nonceOf(await (await page()).text()) })).text();
    const code = fake.twilio.codeFor(PHONE);
    expect(await (await page({ intent: "confirm", nonce: nonceOf(codeForm), code })).text()).toContain("Order confirmed");
    expect(await prisma.orderRecord.findFirstOrThrow({ where: { orderGid: second.admin_graphql_api_id } })).toMatchObject({ status: "confirmed" });
    expect((await dashboardOf(shop)).channels.map((c) => [c.channel, c.verifiedOrders])).toEqual([
      ["sms", 1],
      ["whatsapp", 1],
    ]);
  });
});

describe("POST /twilio/whatsapp: the door", () => {
  it("refuses a missing, forged or tampered signature with 403 and records nothing", async () => {
    await installShop({ whatsappConfirmation: "unverified" });
    await placeUnverifiedOrder();
    const asked = question();
    expect((await press(asked.sid, "confirm", { token: "not-the-token" })).status).toBe(403);
    expect((await press(asked.sid, "confirm", { tamper: (p) => (p.ButtonPayload = "cancel") })).status).toBe(403);
    const unsigned = new Request(`${env.SHOPIFY_APP_URL}/twilio/whatsapp`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ MessageSid: newSid(), From: `whatsapp:${PHONE}`, OriginalRepliedMessageSid: asked.sid, ButtonPayload: "confirm" }).toString(),
    });
    const res = await callRoute(inbound, unsigned);
    expect(res.status).toBe(403);
    expect(await jsonOf(res)).toMatchObject({ code: "invalid_signature" });
    expect(await prisma.whatsappReply.count()).toBe(0);
  });

  it("answers 400 for a signed body Twilio would not send, and 200 unmatched for a message that answers none of ours", async () => {
    await installShop({ whatsappConfirmation: "unverified" });
    await placeUnverifiedOrder();
    const bad = await press("not-a-sid", "confirm");
    expect(bad.status).toBe(400);
    expect(await jsonOf(bad)).toMatchObject({ code: "invalid_request", fields: { OriginalRepliedMessageSid: expect.any(String) } });
    const stranger = await press(`SM${"9".repeat(32)}`, "confirm");
    expect(stranger.status).toBe(200);
    expect(stranger.headers.get("x-cod-outcome")).toBe("unmatched");
    expect(await prisma.whatsappReply.count()).toBe(0);
  });
});
