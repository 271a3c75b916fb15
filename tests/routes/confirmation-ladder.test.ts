import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as inbound from "~/routes/twilio.whatsapp";
import * as gather from "~/routes/twilio.voice.gather";
import * as voiceStatus from "~/routes/twilio.voice.status";
import * as ordersPage from "~/routes/app.orders";
import * as needsAPerson from "~/routes/app.needs-a-person";
import { messageLogLine, type MessageLogEntry } from "~/orders/message-log";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { env } from "~/core/env.server";
import { prisma } from "~/core/db.server";
import { runDueJobs as runJobs } from "~/core/jobs/queue.server";
import { JOB_KINDS } from "~/server-build";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { FakeOrderStore, fakeOrder } from "../mocks/shopify/orders";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import { FakeFlow } from "../mocks/shopify/flow";
import { clock } from "~/core/utils/clock.server";
import { useFakeShopify } from "../helpers/fake-shopify";
import { statusCallbackRequest, useFakeTwilio } from "../helpers/twilio";
import { callRoute } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/**
 * The confirmation ladder from outside: an unverified COD order climbs the shop's rungs (WhatsApp at once,
 * the SMS link after 30 minutes, a call after 2 hours, "needs a person" at 6 hours), each rung a job the
 * worker runs when due; the shopper answers on any rung through Twilio's signed webhooks (a WhatsApp
 * press, a key on the call), and the first answer settles the order once.
 */
const PHONE = "+919876500077";
const CONFIRM_SID = "HXc0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0";
const shopify = useFakeShopify();
const fake = useFakeTwilio({ TWILIO_WHATSAPP_FROM: "+15005550007", TWILIO_WHATSAPP_CONFIRM_CONTENT_SID: CONFIRM_SID, TWILIO_VOICE_FROM: "+15005550006" });
let tagged: Map<string, Set<string>>;
let store: FakeEnforcementStore;
let flow: FakeFlow;
let inboundCounter = 0;
const start = Date.now();

beforeEach(() => {
  // The fake's webhooks (the key, the call's states) go straight to the route modules.
  const routes: Record<string, Parameters<typeof callRoute>[0]> = { "/twilio/voice/gather": gather, "/twilio/voice/status": voiceStatus, "/twilio/whatsapp": inbound };
  fake.twilio.deliverWith((request) => callRoute(routes[new URL(request.url).pathname], request));
  tagged = new Map();
  store = new FakeEnforcementStore(tagged);
  handlers.installDefaultHandlers(shopify, {}, tagged);
  store.install(shopify);
  flow = new FakeFlow().install(shopify);
});
afterEach(() => vi.restoreAllMocks());

const LADDER = { ladderWhatsappMinutes: 0, ladderSmsMinutes: 30, ladderVoiceMinutes: 120, ladderPersonMinutes: 360, confirmDeadlineHours: 24 };

async function work() {
  await runJobs(JOB_KINDS);
  await runJobs(JOB_KINDS);
}
/** The clock `minutes` after the test began, and the jobs due by then run. */
async function at(minutes: number) {
  vi.spyOn(clock, "now").mockReturnValue(new Date(start + minutes * 60_000));
  await work();
}

async function placeOrder(phone = PHONE) {
  const order = orderCreatedPayload({ phone, total_price: "1299.00", customer: { id: 91, admin_graphql_api_id: "gid://shopify/Customer/91", phone, tags: "" } });
  expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
  await work();
  return order;
}

/** What Shopify Flow was told of the shopper's answer (the trigger names the rung that settled the order). */
const answeredRuns = () => flow.runsOf("cod-order-shopper-answered").map((r) => r.payload);
const orderIdOf = (gid: string) => gid.split("/").pop()!;

const tagsOf = (gid: string) => [...(tagged.get(gid) ?? [])].filter((t) => !t.startsWith("cod-risk:")).sort();
const questions = () => fake.twilio.messages.filter((m) => m.channel === "whatsapp" && m.contentSid === CONFIRM_SID);
const smsLinks = () => fake.twilio.messages.filter((m) => m.channel === "sms" && /\/vc\//.test(m.body));
const rungs = async () => Object.fromEntries((await prisma.confirmationRung.findMany({ orderBy: { createdAt: "asc" } })).map((r) => [r.rung, r.state]));

function press(repliedTo: string, payload: string) {
  const url = `${env.SHOPIFY_APP_URL}/twilio/whatsapp`;
  const params: Record<string, string> = {
    MessageSid: `SM${(0xfeed00 + ++inboundCounter).toString(16).padStart(32, "e")}`,
    AccountSid: "ACfake00000000000000000000000000",
    From: `whatsapp:${PHONE}`,
    To: "whatsapp:+15005550007",
    Body: payload,
    ButtonPayload: payload,
    OriginalRepliedMessageSid: repliedTo,
  };
  return callRoute(inbound, statusCallbackRequest(url, params));
}

describe("the confirmation ladder", () => {
  it("climbs WhatsApp, SMS, then a call at their delays; the key 1 confirms once (tagged by the rung), a replayed key changes nothing, later rungs stop", async () => {
    await installShop(LADDER);
    const order = await placeOrder();
    expect(questions()).toHaveLength(1);
    expect(smsLinks()).toHaveLength(0);
    await at(29);
    expect(smsLinks()).toHaveLength(0);
    await at(31);
    expect(smsLinks()).toHaveLength(1);
    await at(119);
    expect(fake.twilio.calls).toHaveLength(0);
    await at(121);
    expect(fake.twilio.calls).toHaveLength(1);
    const [call] = fake.twilio.calls;
    expect(call).toMatchObject({ to: PHONE, from: "+15005550006", machineDetection: "Enable", authorized: true });
    // The order's number and the amount to pay, never the phone or the address.
    expect(call.spoken[0]).toContain(order.name.replace("#", ""));
    // As a person says it: no ".00" ("point zero zero"); this shop's currency is not known yet, so no word for it.
    expect(call.spoken[0]).toContain("The amount to pay on delivery is 1299.");
    expect(call.spoken[0]).toMatch(/Press 1 to confirm/);
    expect(call.spoken.join(" ")).not.toContain(PHONE.slice(-6));
    expect(call.gatherAction).toBe(`${env.SHOPIFY_APP_URL}/twilio/voice/gather`);
    expect(await rungs()).toEqual({ whatsapp: "sent", sms: "sent", voice: "sent" });

    const answered = await fake.twilio.answerCall(call.sid, { digits: "1" });
    expect(answered.gather).toEqual({ status: 200, outcome: "confirmed" });
    expect(call.heard.join(" ")).toMatch(/confirmed/);
    await work();
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ status: "confirmed", settledBy: "voice" });
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-confirmed-by:voice", "cod-verified"]);
    expect((await prisma.confirmationRung.findFirstOrThrow({ where: { rung: "voice" } })).detail).toBe("1");
    // The call is in the order's message log (a message record of channel voice), completed.
    expect(await prisma.messageDelivery.findFirstOrThrow({ where: { channel: "voice" } })).toMatchObject({ providerId: call.sid, status: "completed", orderGid: order.admin_graphql_api_id });

    // Twilio posts the same key again: nothing changes.
    const replay = await fake.twilio.replayKey();
    expect(replay.outcome).toBe("duplicate");
    // A press on the older WhatsApp rung after the call: answered politely, nothing changes.
    await press(questions()[0].sid, "cancel");
    await work();
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ status: "confirmed", settledBy: "voice" });
    // Shopify Flow heard it once, from the call.
    expect(answeredRuns()).toEqual([{ order_id: orderIdOf(order.admin_graphql_api_id), answer: "confirmed", channel: "voice" }]);
    // The "needs a person" rung finds it settled.
    await at(361);
    expect(await rungs()).toMatchObject({ voice: "answered", person: "skipped" });
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ personAt: null });
    expect(fake.twilio.calls).toHaveLength(1);

    // The Orders page: the order's history shows each rung with its outcome, and the call among its messages.
    const page = await callAdminRoute<{ orders: { gid: string; messages: MessageLogEntry[] }[] }>(ordersPage, await adminRequest("/app/orders"));
    expect(page.status).toBe(200);
    const lines = page.data!.orders.find((o) => o.gid === order.admin_graphql_api_id)!.messages.map(messageLogLine);
    expect(lines).toEqual(
      expect.arrayContaining([
        "Ladder, WhatsApp: sent, waiting for an answer",
        "Ladder, SMS link: sent, waiting for an answer",
        "Ladder, Call: answered: pressed 1 (confirm)",
        "Ladder, Needs a person: skipped (confirmation confirmed)",
        "Call confirmation: answered",
      ]),
    );
  });

  it.each([
    ["en", "order L 1 9 2 3 9.", "The amount to pay on delivery is 499 rupees."],
    ["hi", "ऑर्डर L 1 9 2 3 9 ", "डिलीवरी पर देय राशि 499 रुपये है।"],
    ["ar", "طلبك L 1 9 2 3 9 ", "المبلغ المطلوب عند الاستلام 499 روبية."],
    ["fr", "commande L 1 9 2 3 9 ", "Le montant à payer à la livraison est de 499 roupies."],
    ["es", "pedido L 1 9 2 3 9 ", "El importe a pagar en la entrega es 499 rupias."],
  ])("the call in %s says the order's name and the amount as a person would", async (locale, order, amount) => {
    await installShop({ ...LADDER, locale, currency: "INR", country: "IN" });
    const placed = orderCreatedPayload({ phone: PHONE, name: "L19239", total_price: "499.00", customer_locale: locale, customer: { id: 91, admin_graphql_api_id: "gid://shopify/Customer/91", phone: PHONE, tags: "" } });
    expect((await callRoute(ordersCreate, signedWebhook("orders/create", placed))).status).toBe(200);
    await work();
    await at(121);
    expect(fake.twilio.calls).toHaveLength(1);
    const said = fake.twilio.calls[0].spoken[0];
    expect(said).toContain(order);
    expect(said).toContain(amount);
    expect(said).not.toMatch(/INR|499[.,]00|L19239/);
  });

  it("answers on two rungs at once (WhatsApp Confirm and the call's 2) settle the order once", async () => {
    await installShop({ ...LADDER, ladderSmsMinutes: null, ladderVoiceMinutes: 0 });
    const order = await placeOrder();
    const [call] = fake.twilio.calls;
    expect(questions()).toHaveLength(1);
    // The press is recorded; its effect (the reply job) runs while the key arrives on the call.
    expect((await press(questions()[0].sid, "confirm")).status).toBe(200);
    const [, keyed] = await Promise.all([work(), fake.twilio.answerCall(call.sid, { digits: "2" })]);
    await work();
    const c = await prisma.orderConfirmation.findFirstOrThrow();
    const effects = await prisma.job.count({ where: { kind: { in: ["order-confirmation.confirmed", "order-confirmation.cancelled"] } } });
    expect(effects).toBe(1);
    // Exactly one effect: confirmed on WhatsApp, or cancelled on the call.
    if (c.settledBy === "whatsapp") {
      expect(c.status).toBe("confirmed");
      expect(keyed.gather?.outcome).toBe("settled");
      expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-confirmed-by:whatsapp", "cod-verified"]);
    } else {
      expect(c).toMatchObject({ status: "cancelled", settledBy: "voice" });
      expect(keyed.gather?.outcome).toBe("cancelled");
      expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-cancelled-by-shopper"]);
    }
    expect(await prisma.orderRecord.findFirstOrThrow()).toMatchObject({ status: c.status });
  });

  it("no answer, voicemail or busy: the next rung comes at once; the order joins the needs-a-person queue", async () => {
    await installShop({ ...LADDER, ladderWhatsappMinutes: null, ladderSmsMinutes: null, ladderVoiceMinutes: 0 });
    await placeOrder();
    const [call] = fake.twilio.calls;
    await fake.twilio.answerCall(call.sid, { answeredBy: "machine_start" });
    expect(await rungs()).toMatchObject({ voice: "voicemail" });
    await work();
    expect(await rungs()).toMatchObject({ voice: "voicemail", person: "queued" });
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ status: "pending", personAt: expect.any(Date) });
    // A replayed end of the call changes nothing.
    const again = await callRoute(
      voiceStatus,
      statusCallbackRequest(`${env.SHOPIFY_APP_URL}/twilio/voice/status`, { CallSid: call.sid, CallStatus: "completed", AccountSid: "ACfake" }),
    );
    expect(await again.json()).toEqual({ ok: true, known: true, outcome: "unchanged" });

    await prisma.confirmationRung.deleteMany();
    await prisma.orderConfirmation.deleteMany();
    await prisma.job.deleteMany();
    await placeOrder("+919876500078");
    const busy = fake.twilio.calls[1];
    await fake.twilio.endCall(busy.sid, "busy");
    await work();
    expect(await rungs()).toEqual({ voice: "busy", person: "queued" });
  });

  it("3 texts the address-correction link; 9 stops the calls to that number (a later order's call rung is skipped)", async () => {
    await installShop({ ...LADDER, ladderWhatsappMinutes: null, ladderSmsMinutes: null, ladderVoiceMinutes: 0, ladderPersonMinutes: null });
    const order = await placeOrder();
    // The address form reads the order from Shopify.
    const orders = new FakeOrderStore();
    orders.add(fakeOrder({ id: order.admin_graphql_api_id, name: order.name, phone: PHONE }));
    shopify.on(OPERATIONS.orderById, orders.orderById(), "admin");
    const r3 = await fake.twilio.answerCall(fake.twilio.calls[0].sid, { digits: "3" });
    expect(r3.gather?.outcome).toBe("address_link");
    await work();
    expect(await prisma.addressCorrection.findFirstOrThrow()).toMatchObject({ source: "voice", phone: PHONE, status: "pending" });
    expect(fake.twilio.messages.filter((m) => /\/ac\//.test(m.body))).toHaveLength(1);
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ status: "pending" });

    await placeOrder();
    expect(fake.twilio.calls).toHaveLength(2);
    const r9 = await fake.twilio.answerCall(fake.twilio.calls[1].sid, { digits: "9" });
    expect(r9.gather?.outcome).toBe("opted_out");
    expect(await prisma.contactOptOut.findFirstOrThrow()).toMatchObject({ phone: PHONE, channel: "voice" });
    await placeOrder();
    expect(fake.twilio.calls).toHaveLength(2);
    expect(await prisma.confirmationRung.findFirstOrThrow({ where: { state: "skipped" } })).toMatchObject({ rung: "voice", detail: "opted_out" });
  });

  it("quiet hours in the shop's time zone: the rung waits for their end", async () => {
    // 22:30 in Kolkata (17:00 UTC), quiet 21:00-09:00: the WhatsApp rung waits until 09:00 (03:30 UTC).
    const evening = new Date("2026-11-27T17:00:00Z");
    vi.spyOn(clock, "now").mockReturnValue(evening);
    await installShop({ ...LADDER, timezone: "Asia/Kolkata", quietHoursStart: 21 * 60, quietHoursEnd: 9 * 60 });
    await placeOrder();
    expect(questions()).toHaveLength(0);
    vi.spyOn(clock, "now").mockReturnValue(new Date("2026-11-28T03:29:00Z"));
    await work();
    expect(questions()).toHaveLength(0);
    vi.spyOn(clock, "now").mockReturnValue(new Date("2026-11-28T03:30:00Z"));
    await work();
    expect(questions()).toHaveLength(1);
  });

  it("the voice routes refuse a request without Twilio's signature, and a key for an unknown call changes nothing", async () => {
    await installShop(LADDER);
    const url = `${env.SHOPIFY_APP_URL}/twilio/voice/gather`;
    const params = { CallSid: `CA${"0".repeat(32)}`, Digits: "1", AccountSid: "ACfake" };
    expect((await callRoute(gather, statusCallbackRequest(url, params, { token: "not-the-token" }))).status).toBe(403);
    const unknown = await callRoute(gather, statusCallbackRequest(url, params));
    expect(unknown.headers.get("x-cod-outcome")).toBe("unknown_call");
    const bad = await callRoute(gather, statusCallbackRequest(url, { ...params, CallSid: "nope" }));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "invalid_request" });
  });
});

describe("the needs-a-person list", () => {
  async function queued() {
    await installShop({ ...LADDER, ladderWhatsappMinutes: null, ladderSmsMinutes: null, ladderVoiceMinutes: 0, ladderPersonMinutes: 360 });
    const order = await placeOrder();
    await fake.twilio.endCall(fake.twilio.calls[0].sid, "no-answer");
    await work();
    return order;
  }
  const list = async () => {
    const page = await callAdminRoute<{ orders: { confirmationId: string; orderName: string; phone: string; shopperTime: { clock: string; zone: string } | null; history: MessageLogEntry[] }[] }>(
      needsAPerson,
      await adminRequest("/app/needs-a-person"),
    );
    expect(page.status).toBe(200);
    return page.data!.orders;
  };
  const click = async (confirmationId: string, intent: string) =>
    callAdminRoute<{ ok: boolean; result?: string; code?: string }>(needsAPerson, await adminRequest("/app/needs-a-person", { method: "POST", form: { confirmationId, intent } }));

  it("lists the order the ladder could not confirm with the shopper's local time and its history; 'confirmed on the phone' confirms once, however often clicked", async () => {
    const order = await queued();
    const [row] = await list();
    expect(row).toMatchObject({ orderName: order.name, phone: PHONE, shopperTime: { zone: "Asia/Kolkata", clock: expect.stringMatching(/^\d\d:\d\d$/) } });
    expect(row.history.map(messageLogLine)).toEqual(expect.arrayContaining(["Ladder, Call: no answer", "Ladder, Needs a person: in the queue"]));

    const clicks = await Promise.all([click(row.confirmationId, "confirmed"), click(row.confirmationId, "confirmed")]);
    expect(clicks.map((c) => c.data?.result).sort()).toEqual(["already_recorded", "done"]);
    await work();
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ status: "confirmed", settledBy: "person" });
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-confirmed-by:person", "cod-verified"]);
    expect(await prisma.personAction.count()).toBe(1);
    expect(answeredRuns()).toEqual([{ order_id: orderIdOf(order.admin_graphql_api_id), answer: "confirmed", channel: "person" }]);
    // Settled: off the list; a late "cancel" changes nothing.
    expect(await list()).toEqual([]);
    expect((await click(row.confirmationId, "cancelled")).data).toMatchObject({ ok: true, result: "closed" });
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ status: "confirmed" });
  });

  it("'send the address link' texts it once; 'cancel' cancels the order; another shop's confirmation or a bad form is refused", async () => {
    const order = await queued();
    const orders = new FakeOrderStore();
    orders.add(fakeOrder({ id: order.admin_graphql_api_id, name: order.name, phone: PHONE }));
    shopify.on(OPERATIONS.orderById, orders.orderById(), "admin");
    const [row] = await list();
    expect((await click(row.confirmationId, "address_link")).data).toMatchObject({ ok: true, result: "done" });
    expect((await click(row.confirmationId, "address_link")).data).toMatchObject({ ok: true, result: "already_recorded" });
    await work();
    expect(fake.twilio.messages.filter((m) => /\/ac\//.test(m.body))).toHaveLength(1);
    expect(await prisma.addressCorrection.findFirstOrThrow()).toMatchObject({ source: "person" });

    expect((await click("f".repeat(32), "cancelled")).status).toBe(404);
    expect((await click(row.confirmationId, "refund")).status).toBe(400);
    expect((await click(row.confirmationId, "cancelled")).data).toMatchObject({ ok: true, result: "done" });
    await work();
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ status: "cancelled", settledBy: "person", cancelledAt: expect.any(Date) });
    expect(store.order(order.admin_graphql_api_id).cancelled).not.toBeNull();
  });
});

describe("the ladder's limits", () => {
  it("STOP on WhatsApp: the number gets no SMS link or call after it", async () => {
    await installShop(LADDER);
    await placeOrder();
    const res = await callRoute(
      inbound,
      statusCallbackRequest(`${env.SHOPIFY_APP_URL}/twilio/whatsapp`, { MessageSid: `SM${"5".repeat(32)}`, AccountSid: "ACfake", From: `whatsapp:${PHONE}`, To: "whatsapp:+15005550007", Body: "STOP" }),
    );
    expect(res.headers.get("x-cod-outcome")).toBe("opted_out");
    expect(await prisma.contactOptOut.findFirstOrThrow()).toMatchObject({ phone: PHONE, channel: "all", source: "whatsapp_stop" });
    await at(31);
    // Skipped, and the next rung comes at once: skipped too; the person rung still queues the order for the team.
    expect(smsLinks()).toHaveLength(0);
    expect(fake.twilio.calls).toHaveLength(0);
    expect(await rungs()).toEqual({ whatsapp: "sent", sms: "skipped", voice: "skipped", person: "queued" });
    expect((await prisma.confirmationRung.findMany({ where: { state: "skipped" } })).map((r) => r.detail)).toEqual(["opted_out", "opted_out"]);
  });

  it("a number that replied STOP to the SMS sender (Twilio's 21610): the rung failed, the opt-out recorded, no call follows", async () => {
    await installShop({ ...LADDER, ladderWhatsappMinutes: null, ladderSmsMinutes: 0, ladderVoiceMinutes: 1, ladderPersonMinutes: null });
    fake.twilio.fail("unsubscribed", { times: 1 });
    await placeOrder();
    expect(await prisma.contactOptOut.findFirstOrThrow()).toMatchObject({ phone: PHONE, channel: "all", source: "twilio_21610" });
    expect(await rungs()).toEqual({ sms: "failed", voice: "skipped" });
    expect(fake.twilio.calls).toHaveLength(0);
  });

  it("texts and calls count against the shop's plan, daily cap and per-number limit: past them the rung is skipped", async () => {
    // A daily cap of one text or call for the shop: the WhatsApp question takes it, the call is skipped.
    await installShop({ ...LADDER, ladderSmsMinutes: null, ladderVoiceMinutes: 1, dailySendCap: 1 });
    await placeOrder();
    await at(2);
    expect(fake.twilio.calls).toHaveLength(0);
    expect(await prisma.confirmationRung.findFirstOrThrow({ where: { rung: "voice" } })).toMatchObject({ state: "skipped", detail: "shop_daily_cap" });

    // Per number: six texts and calls a day, whatever the orders.
    await prisma.shop.updateMany({ data: { dailySendCap: 1000 } });
    for (let i = 0; i < 6; i++) await placeOrder();
    const refused = await prisma.confirmationRung.findMany({ where: { rung: "whatsapp", state: "skipped" } });
    expect(refused.map((r) => r.detail)).toEqual(["rate_limited"]);
    expect(questions()).toHaveLength(6);

    // The plan ends while an order climbs: its call does not go.
    await placeOrder("+919876500079");
    await prisma.shop.updateMany({ data: { subscriptionStatus: "cancelled" } });
    await at(4);
    expect(fake.twilio.calls).toHaveLength(0);
    const last = await prisma.orderConfirmation.findFirstOrThrow({ where: { phone: "+919876500079" } });
    expect(await prisma.confirmationRung.findUniqueOrThrow({ where: { id: `${last.id}:voice` } })).toMatchObject({ state: "skipped", detail: "subscription_required" });
  });
});

describe("a call Twilio does not place", () => {
  it("Twilio down: the call rung is retried later; a number Twilio refuses: the rung failed and the next one comes at once", async () => {
    await installShop({ ...LADDER, ladderWhatsappMinutes: null, ladderSmsMinutes: null, ladderVoiceMinutes: 0 });
    fake.twilio.failCalls("server_error");
    await placeOrder();
    expect(fake.twilio.calls).toHaveLength(0);
    expect(await rungs()).toEqual({ voice: "due" });
    // The queue's backoff (30 s from the failure, which ran on the real clock): the call goes on the next try.
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 60_000));
    await work();
    expect(fake.twilio.calls).toHaveLength(1);
    expect(await rungs()).toEqual({ voice: "sent" });

    fake.twilio.failCalls("invalid_number");
    await placeOrder("+919876500080");
    const c = await prisma.orderConfirmation.findFirstOrThrow({ where: { phone: "+919876500080" } });
    expect(await prisma.confirmationRung.findUniqueOrThrow({ where: { id: `${c.id}:voice` } })).toMatchObject({ state: "failed" });
    expect(await prisma.confirmationRung.findUniqueOrThrow({ where: { id: `${c.id}:person` } })).toMatchObject({ state: "queued" });
    expect(await prisma.messageDelivery.findFirstOrThrow({ where: { phone: "+919876500080", channel: "voice" } })).toMatchObject({ status: "failed", errorCode: 21211 });
  });
});
