import * as ordersPaid from "~/routes/webhooks.orders.paid";
import * as payLink from "~/routes/proxy.pp.$token";
import * as recoveryPage from "~/routes/proxy.dr.$token";
import { prisma } from "~/core/db.server";
import { redirectShopifyApi } from "~/core/shopify/api-origin.server";
import { OPERATIONS } from "~/core/shopify/operations";
import { clock } from "~/core/utils/clock.server";
import { startLocalShopify, type LocalShopify } from "../mocks/shopify/local";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute, signedRequest } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { signedWebhook } from "../helpers/webhooks";
import { carrierEvent, codOrder, PHONE, placeOrder, work } from "../helpers/delivery";

/**
 * Local mode's store knows every order the app learns about, with the fields Shopify's order has, so the
 * paths after the order run end to end against it: the order is placed in the local fake Shopify
 * (POST /local/orders, what `npm run local:order` does before its webhook) and delivered to the app
 * (orders/create), then shipped (POST /local/orders/event, the carrier's statuses); the delivery-day
 * reminder, the failed-delivery choices and the pay-now offer with its reward all read and write the
 * order there, and /orders shows what the app did to it. No store is filled by hand.
 */
let local: LocalShopify;
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

async function placeInStore(o: ReturnType<typeof codOrder>) {
  const res = await fetch(`${local.origin}/local/orders?shop=${SHOP}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(o) });
  expect(res.status).toBe(200);
  await placeOrder(o);
}

/** The carrier's status: the store ships the order and keeps the event; the app hears it as Shopify delivers it. */
async function ship(o: ReturnType<typeof codOrder>, status: string) {
  const res = await fetch(`${local.origin}/local/orders/event?order=${o.admin_graphql_api_id.split("/").pop()}&status=${status}`, { method: "POST" });
  expect(res.status).toBe(200);
  expect((await carrierEvent(o, status)).status).toBe(200);
}

type StoreOrder = { id: string; tags: string[]; carrierEvents: string[]; note: string | null; deliveryAnswer: string | null; payment: { outstanding: number; refunds: { note: string | null }[] } | null };
async function storeOrder(id: string): Promise<StoreOrder> {
  const page = (await (await fetch(`${local.origin}/orders?format=json`)).json()) as { orders: StoreOrder[] };
  return page.orders.find((o) => o.id === id)!;
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
});
