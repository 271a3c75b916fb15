import * as ordersPaid from "~/routes/webhooks.orders.paid";
import * as payLink from "~/routes/proxy.pp.$token";
import * as recoveryPage from "~/routes/proxy.dr.$token";
import * as correctionRequest from "~/routes/proxy.api.address-correction[.]request";
import * as correctionForm from "~/routes/proxy.ac.$token";
import * as createCheckout from "~/routes/proxy.create-checkout";
import * as adminOrders from "~/routes/app.orders";
import { prisma } from "~/core/db.server";
import { redirectShopifyApi } from "~/core/shopify/api-origin.server";
import { OPERATIONS } from "~/core/shopify/operations";
import { clock } from "~/core/utils/clock.server";
import { startLocalShopify, type LocalShopify } from "../mocks/shopify/local";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { installShop, SHOP } from "../helpers/shops";
import { fulfillmentEventBody, signedWebhook } from "../helpers/webhooks";
import * as carrierRoute from "~/routes/webhooks.fulfillment_events.create";
import * as ordersCreateRoute from "~/routes/webhooks.orders.create";
import { installedAccessToken } from "../mocks/shopify/tokens";
import { carrierEvent, codOrder, PHONE, placeOrder, work } from "../helpers/delivery";

/**
 * Local mode's store knows every order the app learns about, with the fields Shopify's order has, so the
 * paths after the order run end to end against it: the order is placed in the local fake Shopify
 * by the test's own signed orders/create (tests/helpers/webhooks.ts teaches every running store the
 * payload, through the function `npm run local:order`'s POST /local/orders and the checkout's pay button
 * use) and delivered to the app, then shipped (POST /local/orders/event, the carrier's statuses); the delivery-day
 * reminder, the failed-delivery choices and the pay-now offer with its reward all read and write the
 * order there, and /orders shows what the app did to it. No store is filled by hand.
 */
let local: LocalShopify;
const OTHER_SHOP = "other-shop.myshopify.com";
const twilio = useFakeTwilio();

beforeAll(async () => {
  local = await startLocalShopify();
  redirectShopifyApi(local.origin);
});
afterAll(async () => {
  redirectShopifyApi(null);
  await local.stop();
});
afterEach(() => vi.restoreAllMocks());

// 15:30 in Kolkata: outside the quiet hours.
const DAYTIME = new Date("2026-11-27T10:00:00Z");
let offsetMs = 0;
function at(ms: number) {
  offsetMs = ms;
  vi.spyOn(clock, "now").mockReturnValue(new Date(DAYTIME.getTime() + offsetMs));
}

/** Shopify places the order and tells the app: the signed orders/create alone teaches the local store the order. */
const placeInStore = (o: ReturnType<typeof codOrder>) => placeOrder(o);

/**
 * The carrier's status, signed as Shopify delivers it: the store ships the order and keeps the event first (the
 * helper teaches it, as local mode's POST /local/orders/event does: docs/local-mode.md's walk replays that one).
 */
async function ship(o: ReturnType<typeof codOrder>, status: string) {
  expect((await carrierEvent(o, status)).status).toBe(200);
}

type StoreOrder = { id: string; tags: string[]; carrierEvents: string[]; note: string | null; deliveryAnswer: string | null; payment: { outstanding: number; refunds: { note: string | null }[] } | null };
async function storeOrder(id: string): Promise<StoreOrder> {
  const page = (await (await fetch(`${local.origin}/orders?format=json`)).json()) as { orders: StoreOrder[] };
  return page.orders.find((o) => o.id === id)!;
}

type AdminRow = { gid: string; status: string; correction: string | null; deposit: { state: string; summary: string } | null; messages: { kind: string; purpose?: string }[] };
/** The order's row on the app's Orders page, as the merchant sees it. */
async function adminRow(gid: string): Promise<AdminRow> {
  const page = await callAdminRoute<{ orders: AdminRow[] }>(adminOrders, await adminRequest("/app/orders"));
  expect(page.status).toBe(200);
  return page.data!.orders.find((o) => o.gid === gid)!;
}

/** The failed-delivery page of the order's recovery link (the last /dr/ text): shown, or answered with a form. */
function recoveryOf(body: string) {
  const token = /\/dr\/([A-Za-z0-9_-]{32})/.exec(body)![1];
  return (form?: Record<string, string>) =>
    callRoute(recoveryPage, signedRequest(`/dr/${token}`, form ? { method: "POST", body: new URLSearchParams(form).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } } : {}), { token });
}

const texts = (pattern: RegExp) => twilio.twilio.messages.filter((m) => m.to === PHONE && pattern.test(m.body));
const nonceOf = (html: string) => /name="nonce" value="([^"]+)"/.exec(html)![1];
const callsTo = (name: string) => local.fake.callsTo(name).filter((c) => !c.refused);

describe("local mode's store: an order the app learnt about, all the way", () => {
  beforeEach(() => local.fake.reset());

  it("out for delivery: the reminder with the balance Shopify holds; a failed attempt: the choices, the answer written on the order", async () => {
    await installShop({ otpEnabled: false, timezone: "Asia/Kolkata", currency: "INR" });
    at(0);
    const o = codOrder();
    await placeInStore(o);
    await ship(o, "out_for_delivery");
    await work();
    expect(texts(/out for delivery/)).toEqual([expect.objectContaining({ body: expect.stringMatching(/₹1,299\b/) })]);
    expect(callsTo(OPERATIONS.orderBalanceDue)).toHaveLength(1);

    await ship(o, "failure");
    await work();
    const [link] = texts(/\/dr\//);
    const token = /\/dr\/([A-Za-z0-9_-]{32})/.exec(link.body)![1];
    const page = (form?: Record<string, string>) =>
      callRoute(recoveryPage, signedRequest(`/dr/${token}`, form ? { method: "POST", body: new URLSearchParams(form).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } } : {}), { token });
    const shown = await page();
    const html = await shown.text();
    // The choices the order allows: another day, the phone, the address, and paying now (the store gave it a payment page).
    for (const choice of ["tomorrow", "pick_day", "fix_phone", "fix_address", "pay_online"]) expect(html).toContain(`value="${choice}"`);
    expect((await page({ nonce: nonceOf(html), choice: "tomorrow" })).status).toBe(200);
    await work();
    const stored = await storeOrder(o.admin_graphql_api_id);
    expect(stored.carrierEvents).toEqual(["out_for_delivery", "failure"]);
    expect(stored.note).toContain("2026-11-28");
    expect(JSON.parse(stored.deliveryAnswer!)).toMatchObject({ choice: "tomorrow" });
    for (const op of [OPERATIONS.orderNote, OPERATIONS.orderNoteUpdate, OPERATIONS.deliveryAnswerMetafield]) expect(callsTo(op).length, op).toBeGreaterThan(0);
  });

  it("pay now: the offer's link goes to the store's payment page; paid there, the reward is refunded once, and /orders shows it", async () => {
    await installShop({ otpEnabled: false, timezone: "Asia/Kolkata", currency: "INR", prepaidOffer: true, prepaidOfferIncentiveType: "fixed", prepaidOfferIncentiveValue: 20 });
    at(0);
    const o = codOrder({ email: "buyer@example.com" });
    await placeInStore(o);
    at(61_000);
    await work();
    const [offer] = texts(/\/pp\//);
    expect(offer.body).toMatch(/₹1,299\b/);
    const token = /\/pp\/([A-Za-z0-9_-]{32})/.exec(offer.body)![1];
    const opened = await callRoute(payLink, signedRequest(`/pp/${token}`), { token });
    expect(opened.status).toBe(302);
    // Shopify's payment page of the order (https, on the shop's domain); the local store serves its stand-in.
    const numeric = o.admin_graphql_api_id.split("/").pop();
    expect(opened.headers.get("location")).toMatch(new RegExp(`^https://${SHOP}/${numeric}/order_payment/${numeric}\\?secret=`));
    expect((await fetch(`${local.origin}/local/order-payment?order=${numeric}`)).status).toBe(200);
    const paid = await fetch(`${local.origin}/local/order-payment/pay?order=${numeric}`, { method: "POST" });
    expect(paid.status).toBe(200);
    // Shopify then tells the app (the running fake delivers it to LOCAL_APP_URL; here the test delivers it).
    expect((await callRoute(ordersPaid, signedWebhook("orders/paid", { ...o, financial_status: "paid" }))).status).toBe(200);
    await work();
    const stored = await storeOrder(o.admin_graphql_api_id);
    expect(stored.payment).toMatchObject({ outstanding: 0, refunds: [expect.objectContaining({ note: expect.any(String) })] });
    expect(stored.tags).toEqual(expect.arrayContaining(["cod-prepaid"]));
    expect(callsTo(OPERATIONS.prepaidIncentiveRefund)).toHaveLength(1);
    expect(await prisma.prepaidOffer.findFirstOrThrow()).toMatchObject({ status: "paid", incentive: 20 });
  });

  it("a failed attempt, answered with the address: the correction already open is reused, its link shown anew and opening the store's address", async () => {
    await installShop({ otpEnabled: false, timezone: "Asia/Kolkata", currency: "INR" });
    at(0);
    // The order's own phone as Shopify's checkout keeps it (E.164): the storefront's request texts that number.
    const o = codOrder({ phone: PHONE });
    await placeInStore(o);
    // A correction asked for first (another way in): its link went out by text.
    expect((await callRoute(correctionRequest, signedRequest("/api/address-correction.request", { body: { orderId: o.admin_graphql_api_id } }))).status).toBe(200);
    const [texted] = texts(/\/ac\//);
    const first = /\/ac\/([A-Za-z0-9_-]+)/.exec(texted.body)![1];
    await ship(o, "failure");
    await work();
    const page = recoveryOf(texts(/\/dr\//)[0].body);
    const answered = await (await page({ nonce: nonceOf(await (await page()).text()), choice: "fix_address" })).text();
    const shown = /href="([^"]*\/ac\/([A-Za-z0-9_-]+))"/.exec(answered);
    expect(shown, answered).not.toBeNull();
    // One correction: the open one, its link issued anew (the texted one cannot be rebuilt, and no longer opens).
    expect(await prisma.addressCorrection.count()).toBe(1);
    expect(shown![2]).not.toBe(first);
    expect((await callRoute(correctionForm, signedRequest(`/ac/${first}`), { token: first })).status).toBe(404);
    const form = await callRoute(correctionForm, signedRequest(`/ac/${shown![2]}`), { token: shown![2] });
    expect(form.status).toBe(200);
    expect(await form.text()).toContain("Flat 12, Shanti Apartments");
    await work();
    const stored = await storeOrder(o.admin_graphql_api_id);
    expect(JSON.parse(stored.deliveryAnswer!)).toMatchObject({ choice: "fix_address" });
    expect(stored.tags).toContain("cod-redeliver-new-address");
    const row = await adminRow(o.admin_graphql_api_id);
    expect(row.correction).toBe("pending");
    expect(row.messages.map((m) => m.purpose)).toEqual(expect.arrayContaining(["address_correction", "delivery_recovery"]));
  });

  it("a failed attempt, answered with a day or with another phone: each written on the store's order and shown on the Orders page", async () => {
    await installShop({ otpEnabled: false, timezone: "Asia/Kolkata", currency: "INR" });
    at(0);
    const byDay = codOrder();
    const byPhone = codOrder();
    for (const o of [byDay, byPhone]) {
      await placeInStore(o);
      await ship(o, "failure");
    }
    await work();
    const [dayLink, phoneLink] = texts(/\/dr\//);
    const dayPage = recoveryOf(dayLink.body);
    const dayHtml = await (await dayPage()).text();
    const max = /name="day"[^>]*max="(\d{4}-\d{2}-\d{2})"/.exec(dayHtml)?.[1] ?? /max="(\d{4}-\d{2}-\d{2})"/.exec(dayHtml)![1];
    expect((await dayPage({ nonce: nonceOf(dayHtml), choice: "pick_day", day: max })).status).toBe(200);
    const phonePage = recoveryOf(phoneLink.body);
    expect((await phonePage({ nonce: nonceOf(await (await phonePage()).text()), choice: "fix_phone", phone: "98123 40000" })).status).toBe(200);
    await work();
    const day = await storeOrder(byDay.admin_graphql_api_id);
    expect(day.note).toContain(max);
    expect(JSON.parse(day.deliveryAnswer!)).toMatchObject({ choice: "pick_day", date: max });
    const phone = await storeOrder(byPhone.admin_graphql_api_id);
    expect(JSON.parse(phone.deliveryAnswer!)).toMatchObject({ choice: "fix_phone", phone: "+919812340000" });
    expect(phone.note).toContain("+919812340000");
    for (const o of [byDay, byPhone]) expect((await adminRow(o.admin_graphql_api_id)).messages.map((m) => m.purpose)).toContain("delivery_recovery");
  });

  it("a failed attempt, answered with the address when no correction is open: one is opened, its form reached from the page at once", async () => {
    await installShop({ otpEnabled: false, timezone: "Asia/Kolkata", currency: "INR" });
    at(0);
    const o = codOrder();
    await placeInStore(o);
    await ship(o, "failure");
    await work();
    const page = recoveryOf(texts(/\/dr\//)[0].body);
    const answered = await (await page({ nonce: nonceOf(await (await page()).text()), choice: "fix_address" })).text();
    const token = /href="[^"]*\/ac\/([A-Za-z0-9_-]+)"/.exec(answered)?.[1] ?? "";
    expect(token, answered).not.toBe("");
    expect(await prisma.addressCorrection.findFirstOrThrow()).toMatchObject({ orderGid: o.admin_graphql_api_id, source: "delivery", status: "pending" });
    const form = await callRoute(correctionForm, signedRequest(`/ac/${token}`), { token });
    expect(form.status).toBe(200);
    expect(await form.text()).toContain("Flat 12, Shanti Apartments");
    // No second text: the link is on the page the shopper is reading.
    expect(texts(/\/ac\//)).toEqual([]);
    expect((await adminRow(o.admin_graphql_api_id)).correction).toBe("pending");
  });

  it("partial: the deposit paid at the store's checkout, the balance line added to the store's order, shown on the Orders page", async () => {
    // Below Plus: Shopify refuses the draft-order deposit, the app uses a single-use code and an order edit.
    await installShop({ otpEnabled: false, currency: "USD", depositsAvailable: false, depositType: "percentage", depositValue: 20 });
    const started = await callRoute(createCheckout, signedRequest("/create-checkout", { body: { phone: "+14155550142", selectedMode: "partial", variantId: "123", quantity: 2 }, headers: { "x-forwarded-for": "198.51.100.61" } }));
    const { checkoutUrl } = (await jsonOf(started)) as { checkoutUrl: string };
    const c = new URL(checkoutUrl).searchParams.get("c");
    const placed = (await (await fetch(`${local.origin}/local/checkout/pay?format=json&c=${c}`, { method: "POST" })).json()) as { order: { id: string; total: number; paid: number }; ordersCreate: Record<string, unknown> };
    expect(placed.order).toMatchObject({ total: 10, paid: 10 });
    expect((await callRoute(ordersCreateRoute, signedWebhook("orders/create", placed.ordersCreate))).status).toBe(200);
    await work();
    const view = (await (await fetch(`${local.origin}/orders?format=json`)).json()) as { orders: { id: string; money: { total: number; paid: number; outstanding: number; lines: { title: string }[] } | null }[] };
    const money = view.orders.find((o) => o.id === placed.order.id)!.money!;
    expect(money).toMatchObject({ total: 50, paid: 10, outstanding: 40 });
    expect(money.lines.map((l) => l.title)).toHaveLength(2);
    for (const op of [OPERATIONS.orderBalanceLines, OPERATIONS.orderEditBegin, OPERATIONS.orderEditAddCustomItem, OPERATIONS.orderEditCommit]) expect(callsTo(op), op).toHaveLength(1);
    expect((await adminRow(placed.order.id)).deposit).toMatchObject({ state: "added", summary: "Deposit $10.00 paid · $40.00 to collect on delivery" });
  });

  it("unconfirmed by the deadline: the confirmation texted, the store's order cancelled, both shown", async () => {
    await installShop({ cancelUnconfirmed: true, timezone: "Asia/Kolkata", currency: "INR" });
    at(0);
    const o = codOrder();
    await placeInStore(o);
    await work();
    expect(texts(/\/vc\//)).toHaveLength(1);
    at(25 * 3600_000);
    await work();
    expect(callsTo(OPERATIONS.orderCancel)).toHaveLength(1);
    const view = (await (await fetch(`${local.origin}/orders?format=json`)).json()) as { orders: { id: string; cancelled: { reason: string } | null; tags: string[] }[] };
    const stored = view.orders.find((x) => x.id === o.admin_graphql_api_id)!;
    expect(stored.cancelled).toMatchObject({ reason: expect.any(String) });
    expect(stored.tags).toContain("cod-unconfirmed");
    const row = await adminRow(o.admin_graphql_api_id);
    expect(row.messages.map((m) => m.purpose)).toContain("order_confirmation");
    expect(row.status).toBe("unconfirmed");
  });
});

describe("local mode's store: the orders a test's webhook teaches it", () => {
  beforeEach(() => local.fake.reset());

  it("holds the order with Shopify's fields and ships it on the carrier's events, for the shop it was placed in only", async () => {
    await installShop({ otpEnabled: false, timezone: "Asia/Kolkata", currency: "INR" });
    await installShop({ domain: OTHER_SHOP, otpEnabled: false });
    const o = codOrder({ line_items: [{ id: 1, variant_id: 2, title: "Kurta", quantity: 2, price: "649.50" }] });
    await placeOrder(o);
    const view = (await (await fetch(`${local.origin}/orders?format=json`)).json()) as { orders: { id: string; money: { total: number; lines: { title: string; quantity: number }[] } | null; fulfillmentOrders: unknown[] }[] };
    const held = view.orders.find((x) => x.id === o.admin_graphql_api_id)!;
    expect(held.money).toMatchObject({ total: 1299, lines: [{ title: "Kurta", quantity: 2 }] });
    // The same order id under another shop's header: the store does not hand it over.
    await callRoute(ordersCreateRoute, signedWebhook("orders/create", o, { shop: OTHER_SHOP }));
    expect(local.fake.ownerOf(o.admin_graphql_api_id)).toBe(SHOP);
    const asked = await fetch(`${local.origin}/${OTHER_SHOP}/admin/api/2026-10/graphql.json`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-shopify-access-token": installedAccessToken(OTHER_SHOP) },
      body: JSON.stringify({ query: "query DeliveryBalanceDue($id: ID!) { order(id: $id) { id } }", variables: { id: o.admin_graphql_api_id } }),
    });
    expect(((await asked.json()) as { data: { order: unknown } }).data.order).toBeNull();
    // local:order's door refuses it too.
    const placedAgain = await fetch(`${local.origin}/local/orders?shop=${OTHER_SHOP}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(o) });
    expect(placedAgain.status).toBe(409);
    expect(local.fake.ownerOf(o.admin_graphql_api_id)).toBe(SHOP);
    // Nor does the other shop's carrier ship it; the order's own shop's does, once however often it is delivered.
    await callRoute(carrierRoute, signedWebhook("fulfillment_events/create", null, { rawBody: fulfillmentEventBody(o.admin_graphql_api_id, "delivered"), shop: OTHER_SHOP }));
    expect((await storeOrder(o.admin_graphql_api_id)).carrierEvents).toEqual([]);
    const body = fulfillmentEventBody(o.admin_graphql_api_id, "out_for_delivery");
    for (let i = 0; i < 2; i++) await callRoute(carrierRoute, signedWebhook("fulfillment_events/create", null, { rawBody: body, webhookId: "carrier-1" }));
    expect((await storeOrder(o.admin_graphql_api_id)).carrierEvents).toEqual(["out_for_delivery"]);
  });
});
