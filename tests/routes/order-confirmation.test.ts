import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as confirmPage from "~/routes/proxy.vc.$token";
import { prisma } from "~/core/db.server";
import { runDueJobs as runJobs } from "~/core/jobs/queue.server";
import { JOB_KINDS } from "~/server-build";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import { clock } from "~/core/utils/clock.server";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

const runDueJobs = (limit?: number, concurrency?: number) => runJobs(JOB_KINDS, limit, concurrency);

/**
 * Verification after purchase, from outside: an unverified COD order arrives, is tagged cod-pending,
 * held (when the shop wants), and the shopper is texted a link; the hosted page confirms it with a
 * code; or the deadline passes and it becomes cod-unconfirmed (cancelled when the shop wants).
 */
const PHONE = "+212600000031";
const shopify = useFakeShopify();
const twilio = useFakeTwilio();
let tagged: Map<string, Set<string>>;
let store: FakeEnforcementStore;

beforeEach(() => {
  tagged = new Map();
  store = new FakeEnforcementStore(tagged);
  handlers.installDefaultHandlers(shopify, {}, tagged);
  store.install(shopify);
});
afterEach(() => vi.restoreAllMocks());

async function placeUnverifiedOrder(overrides: Record<string, unknown> = {}) {
  const order = orderCreatedPayload({ phone: PHONE, customer: { id: 90, admin_graphql_api_id: "gid://shopify/Customer/90", phone: PHONE, tags: "" }, ...overrides });
  expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
  return order;
}

/** Runs every due job (confirmation steps, then the tags they queued). */
async function work() {
  await runDueJobs();
  await runDueJobs();
}

/** The verification tags; the COD risk tag (cod-risk:<band>) is tested in tests/routes/risk-orders.test.ts. */
const tagsOf = (gid: string) => [...(tagged.get(gid) ?? [])].filter((t) => !t.startsWith("cod-risk:")).sort();

/** The link texted to the shopper, and its token. */
function textedLink() {
  const sms = twilio.twilio.messages.filter((m) => m.to === PHONE && /\/vc\//.test(m.body));
  expect(sms.length).toBeGreaterThan(0);
  const link = /https?:\/\/\S+\/vc\/([A-Za-z0-9_-]{32})/.exec(sms[sms.length - 1].body)!;
  return { url: link[0], token: link[1] };
}

function page(token: string, form?: Record<string, string>) {
  return callRoute(
    confirmPage,
    signedRequest(`/vc/${token}`, form ? { method: "POST", body: new URLSearchParams(form).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } } : {}),
    { token },
  );
}

const nonceOf = (html: string) => /name="nonce" value="([^"]+)"/.exec(html)![1];

describe("an unverified COD order", () => {
  it("is tagged cod-pending, held when the shop holds, and the shopper gets an SMS link to the hosted page", async () => {
    await installShop({ holdUnverifiedCod: true });
    const order = await placeUnverifiedOrder();
    await work();
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-pending"]);
    expect(await prisma.orderRecord.findFirstOrThrow()).toMatchObject({ orderGid: order.admin_graphql_api_id, status: "pending", cod: true, phone: PHONE });
    const row = await prisma.orderConfirmation.findFirstOrThrow();
    expect(row).toMatchObject({ orderGid: order.admin_graphql_api_id, phone: PHONE, status: "pending", hold: true, notifiedAt: expect.any(Date) });
    expect(row.deadlineAt.getTime() - row.createdAt.getTime()).toBeCloseTo(24 * 3600_000, -4);
    const { url, token } = textedLink();
    expect(url).toMatch(/\/apps\/cod\/vc\//);
    expect(row.tokenHash).not.toContain(token);
    const held = store.order(order.admin_graphql_api_id).fulfillmentOrders[0];
    expect(held).toMatchObject({ status: "ON_HOLD", holds: [expect.objectContaining({ handle: "cod-verify", reason: "OTHER" })] });
    expect(shopify.callsTo(OPERATIONS.fulfillmentOrderHold)).toHaveLength(1);
    // The link is recorded as what it is, not as a one-time code.
    expect(await prisma.messageDelivery.findMany({ select: { phone: true, purpose: true, channel: true } })).toEqual([
      { phone: PHONE, purpose: "order_confirmation", channel: "sms" },
    ]);
  });

  it("is not held when the shop does not hold (the default), and a redelivery opens nothing more", async () => {
    await installShop();
    const order = await placeUnverifiedOrder();
    await callRoute(ordersCreate, signedWebhook("orders/create", order));
    await work();
    expect(await prisma.orderConfirmation.count()).toBe(1);
    expect(shopify.callsTo(OPERATIONS.fulfillmentOrderHold)).toHaveLength(0);
    expect(twilio.twilio.messages.filter((m) => /\/vc\//.test(m.body))).toHaveLength(1);
  });

  it("a redelivery after a crash between the confirmation row and its jobs schedules them: the text, the hold and the deadline", async () => {
    await installShop({ holdUnverifiedCod: true, cancelUnconfirmed: true });
    const order = orderCreatedPayload({ phone: PHONE, customer: { id: 90, admin_graphql_api_id: "gid://shopify/Customer/90", phone: PHONE, tags: "" } });
    const webhookId = "b7d5d1f0-crash-0000-0000-000000000001";
    expect((await callRoute(ordersCreate, signedWebhook("orders/create", order, { webhookId }))).status).toBe(200);
    // What a process stopped after the confirmation's INSERT leaves: the row (and the tag job queued
    // before it), no step jobs, and the delivery not recorded, so Shopify delivers it again.
    await prisma.job.deleteMany({ where: { kind: { startsWith: "order-confirmation." } } });
    await prisma.webhookDelivery.deleteMany();
    const row = await prisma.orderConfirmation.findFirstOrThrow();

    expect((await callRoute(ordersCreate, signedWebhook("orders/create", order, { webhookId }))).status).toBe(200);
    const steps = await prisma.job.findMany({ where: { kind: { startsWith: "order-confirmation." } }, orderBy: { kind: "asc" } });
    expect(steps.map((j) => [j.kind, JSON.parse(j.payload).confirmationId])).toEqual([
      ["order-confirmation.deadline", row.id],
      ["order-confirmation.hold", row.id],
      ["order-confirmation.notify", row.id],
    ]);
    // The deadline is the row's own, not one counted from the redelivery.
    expect(steps[0].nextAttemptAt.getTime()).toBe(row.deadlineAt.getTime());
    await work();
    expect(textedLink().token).toHaveLength(32);
    expect(store.order(order.admin_graphql_api_id).fulfillmentOrders[0].status).toBe("ON_HOLD");
    expect(await prisma.orderConfirmation.count()).toBe(1);
  });

  it("is left cod-unverified with no link when the shop does not verify phones", async () => {
    await installShop({ otpEnabled: false });
    const order = await placeUnverifiedOrder();
    await work();
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-unverified"]);
    expect(await prisma.orderConfirmation.count()).toBe(0);
  });
});

describe("the hosted confirmation page", () => {
  it("texts a code, refuses a wrong one, and on the right one tags cod-verified, removes cod-pending and releases the hold", async () => {
    await installShop({ holdUnverifiedCod: true });
    const order = await placeUnverifiedOrder();
    await work();
    const { token } = textedLink();

    const opened = await page(token);
    expect(opened.status).toBe(200);
    const html = await opened.text();
    expect(html).toContain(order.name);
    expect(html).toContain("+2126•••0031");
    expect(html).not.toContain(PHONE);

    const sent = await page(token, { intent: "send", nonce: nonceOf(html) });
    expect(sent.status).toBe(200);
    const codeForm = await sent.text();
    expect(codeForm).toMatch(/autocomplete="one-time-code"/i); // HTML attribute names are case-insensitive
    const code = twilio.twilio.codeFor(PHONE);
    expect((await prisma.messageDelivery.findMany({ select: { purpose: true }, orderBy: { createdAt: "asc" } })).map((m) => m.purpose)).toEqual([
      "order_confirmation",
      "otp",
    ]);

    const wrong = await page(token, { intent: "confirm", nonce: nonceOf(codeForm), code: code === "000000" ? "111111" : "000000" });
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toMatch(/That code is not right\. 4 attempts left\./);

    const right = await page(token, { intent: "confirm", nonce: nonceOf(codeForm), code });
    expect(right.status).toBe(200);
    expect(await right.text()).toContain("Order confirmed");
    await work();
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-verified"]);
    expect(tagsOf("gid://shopify/Customer/90")).toEqual(["cod-verified-customer"]);
    expect(store.order(order.admin_graphql_api_id).fulfillmentOrders[0]).toMatchObject({ status: "OPEN", holds: [] });
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ status: "confirmed", holdsReleasedAt: expect.any(Date) });
    // The merchant's Orders page reads the order as confirmed after purchase.
    expect(await prisma.orderRecord.findFirstOrThrow()).toMatchObject({ orderGid: order.admin_graphql_api_id, status: "confirmed", verifiedBy: "confirmation" });

    // The link now only says the order is confirmed; the deadline does nothing.
    expect(await (await page(token)).text()).toContain("Order confirmed");
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 25 * 3600_000));
    await work();
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-verified"]);
  });

  it("answers an unknown token 404, an unsigned request 401/400 and a post without the page's nonce 403", async () => {
    await installShop();
    await placeUnverifiedOrder();
    await work();
    const { token } = textedLink();
    expect((await page("A".repeat(32))).status).toBe(404);
    const unsigned = await callRoute(confirmPage, new Request(`https://app.example.com/proxy/vc/${token}?shop=test-shop.myshopify.com`), { token });
    expect([400, 401]).toContain(unsigned.status);
    expect((await page(token, { intent: "send", nonce: "forged" })).status).toBe(403);
    expect(twilio.twilio.attempts.filter((a) => a.to === PHONE && !/\/vc\//.test(a.body))).toHaveLength(0);
  });
});

describe("the hosted page's order summary and \"I did not place this order\"", () => {
  it("shows the order as recorded: its number, the day it was placed and the payment", async () => {
    await installShop();
    const order = await placeUnverifiedOrder({ created_at: "2026-11-20T10:00:00Z" });
    await work();
    const html = await (await page(textedLink().token)).text();
    expect(html).toContain("Your order");
    expect(html).toMatch(new RegExp(`<dt>Order</dt><dd><bdi dir="ltr">${order.name}</bdi></dd>`));
    expect(html).toContain("<dt>Placed</dt><dd>November 20, 2026</dd>");
    expect(html).toContain("<dt>Payment</dt><dd>Cash on delivery</dd>");
  });

  it("asks again before it is sent, records the answer once, tags the order cod-disputed once the undo window is over, and neither cancels nor releases it", async () => {
    await installShop({ holdUnverifiedCod: true, cancelUnconfirmed: true });
    const order = await placeUnverifiedOrder();
    await work();
    const { token } = textedLink();
    const html = await (await page(token)).text();
    expect(html).toContain("I did not place this order");
    expect(html).toContain('name="intent" value="not_mine_ask"');

    // The first tap only asks: nothing is recorded, the question has a second, explicit button and a way back.
    const asked = await page(token, { intent: "not_mine_ask", nonce: nonceOf(html) });
    expect(asked.status).toBe(200);
    const question = await asked.text();
    expect(question).toContain("Did you not place this order?");
    expect(question).toContain("Yes, I did not place this order");
    expect(question).toContain("No, go back");
    expect((await prisma.orderConfirmation.findFirstOrThrow()).disputedAt).toBeNull();
    const back = await (await page(token, { intent: "back", nonce: nonceOf(question) })).text();
    expect(back).toContain("Text me a code");
    expect((await prisma.orderConfirmation.findFirstOrThrow()).disputedAt).toBeNull();

    const reported = await page(token, { intent: "not_mine", nonce: nonceOf(question) });
    expect(reported.status).toBe(200);
    const done = await reported.text();
    expect(done).toContain("Thank you for telling us");
    expect(done).toContain(`you did not place order <bdi dir="ltr">${order.name}</bdi>`);
    expect(done).toContain("you can undo it for 5 more minutes");
    expect(done).toContain('name="intent" value="not_mine_undo"');
    const row = await prisma.orderConfirmation.findFirstOrThrow();
    expect(row.disputedAt).toEqual(expect.any(Date));
    expect(row.status).toBe("pending");
    // The shop is not told while the shopper may still take it back.
    await work();
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-pending"]);

    // A second answer changes nothing: recorded once.
    const first = row.disputedAt!;
    await page(token, { intent: "not_mine", nonce: nonceOf(html) });
    expect((await prisma.orderConfirmation.findFirstOrThrow()).disputedAt).toEqual(first);
    expect(await prisma.job.count({ where: { kind: "order-confirmation.dispute-tag" } })).toBe(1);

    // The window over: the merchant's tag, no undo any more.
    vi.spyOn(clock, "now").mockReturnValue(new Date(first.getTime() + 5 * 60_000 + 1000));
    await work();
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-disputed", "cod-pending"]);
    // Not cancelled, still held: the merchant decides.
    expect(store.order(order.admin_graphql_api_id).fulfillmentOrders[0].status).toBe("ON_HOLD");
    expect(shopify.callsTo(OPERATIONS.orderCancel)).toHaveLength(0);
    expect(shopify.callsTo(OPERATIONS.fulfillmentOrderReleaseHold)).toHaveLength(0);
    const later = await (await page(token)).text();
    expect(later).toContain("Thank you for telling us");
    expect(later).not.toContain("not_mine_undo");
    // An undo posted too late is the thank-you page again: nothing is taken back.
    const lateUndo = await page(token, { intent: "not_mine_undo", nonce: nonceOf(done) });
    expect(await lateUndo.text()).toContain("We told the shop that you did not place order");
    expect((await prisma.orderConfirmation.findFirstOrThrow()).disputedAt).toEqual(first);
  });

  it("takes the answer back within the window: the shop is never told, and the order can be confirmed", async () => {
    await installShop();
    const order = await placeUnverifiedOrder();
    await work();
    const { token } = textedLink();
    const html = await (await page(token)).text();
    const done = await (await page(token, { intent: "not_mine", nonce: nonceOf(html) })).text();
    const { disputedAt } = await prisma.orderConfirmation.findFirstOrThrow();

    // Four minutes on, the page still offers the undo; the undo brings the order back.
    vi.spyOn(clock, "now").mockReturnValue(new Date(disputedAt!.getTime() + 4 * 60_000));
    expect(await (await page(token)).text()).toContain("you can undo it for 1 more minutes");
    const undone = await page(token, { intent: "not_mine_undo", nonce: nonceOf(done) });
    expect(undone.status).toBe(200);
    const back = await undone.text();
    expect(back).toContain("Undone: the shop will not be told.");
    expect(back).toContain("Text me a code");
    expect((await prisma.orderConfirmation.findFirstOrThrow()).disputedAt).toBeNull();
    // A second undo finds nothing to take back.
    expect((await page(token, { intent: "not_mine_undo", nonce: nonceOf(back) })).status).toBe(410);

    // Past the window, the undone dispute's job tells nothing.
    vi.spyOn(clock, "now").mockReturnValue(new Date(disputedAt!.getTime() + 10 * 60_000));
    await work();
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-pending"]);
    expect(await prisma.job.findFirstOrThrow({ where: { kind: "order-confirmation.dispute-tag" } })).toMatchObject({ doneAt: expect.any(Date) });
  });

  it("records one dispute and one undo however many answers race", async () => {
    await installShop();
    await placeUnverifiedOrder();
    await work();
    const { token } = textedLink();
    const nonce = nonceOf(await (await page(token)).text());
    const answers = await Promise.all(Array.from({ length: 6 }, () => page(token, { intent: "not_mine", nonce })));
    expect(answers.map((r) => r.status)).toEqual(Array(6).fill(200));
    const { disputedAt } = await prisma.orderConfirmation.findFirstOrThrow();
    expect(await prisma.job.count({ where: { kind: "order-confirmation.dispute-tag" } })).toBe(1);
    const undos = await Promise.all(Array.from({ length: 6 }, () => page(token, { intent: "not_mine_undo", nonce })));
    expect(undos.map((r) => r.status).sort()).toEqual([200, 410, 410, 410, 410, 410]);
    expect(disputedAt).toEqual(expect.any(Date));
    expect((await prisma.orderConfirmation.findFirstOrThrow()).disputedAt).toBeNull();
  });
});

describe("the hosted page speaks the shopper's language", () => {
  it("in French when the order was placed in French: the page, its alerts and the code SMS", async () => {
    await installShop();
    await placeUnverifiedOrder({ customer_locale: "fr-CA" });
    await work();
    const { token } = textedLink();
    expect(twilio.twilio.messages.at(-1)!.body).toContain("confirmez votre commande");
    const opened = await page(token);
    const html = await opened.text();
    expect(html).toContain('<html lang="fr" dir="ltr">');
    expect(html).toContain("Confirmez votre commande");
    expect(html).toContain("M&#x27;envoyer un code par SMS");
    expect(html).not.toContain("Text me a code");
    const codeForm = await (await page(token, { intent: "send", nonce: nonceOf(html) })).text();
    expect(codeForm).toContain("Code à 6 chiffres");
    expect(twilio.twilio.messages.at(-1)!.body).toMatch(/est votre code de vérification/);
    const wrong = await page(token, { intent: "confirm", nonce: nonceOf(codeForm), code: "12" });
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toContain("Saisissez le code à 6 chiffres reçu par SMS.");
  });

  it("right to left in Arabic, with the order number and the phone kept whole", async () => {
    await installShop({ locale: "ar" });
    await placeUnverifiedOrder({ customer_locale: null });
    await work();
    const { token } = textedLink();
    const html = await (await page(token)).text();
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain("<h1>أكّد طلبك</h1>");
    expect(html).toMatch(/<bdi dir="ltr">#\d+<\/bdi>/);
    expect(html).toContain('<bdi dir="ltr">+2126•••0031</bdi>');
    expect(html).not.toContain("Confirm your order");
  });
});

describe("the deadline", () => {
  it("marks an unconfirmed order cod-unconfirmed and cancels it when the shop enabled it", async () => {
    await installShop({ cancelUnconfirmed: true, confirmDeadlineHours: 12 });
    const order = await placeUnverifiedOrder();
    await work();
    const { token } = textedLink();
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 11 * 3600_000));
    await work();
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-pending"]);
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 13 * 3600_000));
    await work();
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-unconfirmed"]);
    expect(await prisma.orderRecord.findFirstOrThrow()).toMatchObject({ orderGid: order.admin_graphql_api_id, status: "unconfirmed", verifiedBy: null });
    const [cancel] = shopify.callsTo(OPERATIONS.orderCancel);
    expect(cancel.variables).toMatchObject({ orderId: order.admin_graphql_api_id, reason: "OTHER", restock: true, staffNote: expect.stringContaining("12 hours") });
    expect(store.order(order.admin_graphql_api_id).cancelled).not.toBeNull();
    expect((await page(token)).status).toBe(410);
    await work();
    expect(shopify.callsTo(OPERATIONS.orderCancel)).toHaveLength(1);
  });

  it("does not cancel by default, and retries a step Shopify failed", async () => {
    await installShop();
    const order = await placeUnverifiedOrder();
    await work();
    shopify.on(OPERATIONS.tagsRemove, handlers.serverError(503), "admin");
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 25 * 3600_000));
    await work();
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ status: "unconfirmed" });
    store.install(shopify);
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 27 * 3600_000));
    await work();
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-unconfirmed"]);
    expect(shopify.callsTo(OPERATIONS.orderCancel)).toHaveLength(0);
  });
});
