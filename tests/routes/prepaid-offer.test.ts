import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as ordersPaid from "~/routes/webhooks.orders.paid";
import * as payLink from "~/routes/proxy.pp.$token";
import * as confirmPage from "~/routes/proxy.vc.$token";
import { prisma } from "~/core/db.server";
import { LOCK_MS, runDueJobs as runJobs } from "~/core/jobs/queue.server";
import { JOB_KINDS } from "~/server-build";
import { linkToken } from "~/orders/confirmation/confirmation.server";
import { incentiveFor, prepaidOfferSummary } from "~/orders/prepaid-offer.server";
import { incentiveNote } from "~/orders/prepaid-offer-paid.server";
import { clock } from "~/core/utils/clock.server";
import { verificationStatus } from "~/enforcement/pause.server";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import { FakePrepaidStore } from "../mocks/shopify/prepaid";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute, signedRequest } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { aroundShopMidnight, ZONES_FAR_FROM_UTC } from "../helpers/shop-midnight";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/**
 * Pay now after the order, through the real routes: orders/create (signed), the jobs, the pay-now link
 * through the app proxy (signed), orders/paid (signed), with Shopify and Twilio faked at the HTTP edge.
 * A shopper who pays gets the reward once; one who does not pay (or pays the courier in cash) never does.
 */
const PHONE = "+919876543210";
const shopify = useFakeShopify();
const twilio = useFakeTwilio();
let tagged: Map<string, Set<string>>;
let enforcement: FakeEnforcementStore;
let orders: FakePrepaidStore;
let offsetMs = 0;

beforeEach(() => {
  tagged = new Map();
  enforcement = new FakeEnforcementStore(tagged);
  orders = new FakePrepaidStore();
  handlers.installDefaultHandlers(shopify, {}, tagged);
  enforcement.install(shopify);
  orders.install(shopify);
  offsetMs = 0;
});
afterEach(() => vi.restoreAllMocks());

function later(ms: number) {
  offsetMs += ms;
  vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + offsetMs));
}

const runDueJobs = () => runJobs(JOB_KINDS);
/** The first day of the allowance's month (UTC), where a test writes the month's verifications. */
const thisMonth = () => `${clock.now().toISOString().slice(0, 7)}-01`;
async function work() {
  await runDueJobs();
  await runDueJobs();
}

/** A shop that offers pay-now with a 5 % reward capped at 20 INR; without verification after purchase unless told. */
function shopWithOffer(overrides: Parameters<typeof installShop>[0] = {}) {
  return installShop({
    currency: "INR",
    otpEnabled: false,
    prepaidOffer: true,
    prepaidOfferIncentiveType: "percentage",
    prepaidOfferIncentiveValue: 5,
    prepaidOfferIncentiveCap: 20,
    ...overrides,
  });
}

/** A COD order in India as Shopify sends orders/create (national phone on the address), known to the fake Shopify too. */
async function placeCodOrder(fake: Parameters<FakePrepaidStore["add"]>[1] = {}) {
  const order = orderCreatedPayload({
    phone: null,
    currency: "INR",
    presentment_currency: "INR",
    total_price: "499.00",
    customer: { id: 91, admin_graphql_api_id: "gid://shopify/Customer/91", phone: null, tags: "" },
    shipping_address: { first_name: "Asha", phone: "098765 43210", zip: "411001", country_code: "IN" },
    billing_address: { first_name: "Asha", phone: null, country_code: "IN" },
  });
  orders.add(order.admin_graphql_api_id, fake);
  expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
  return order;
}

/** orders/paid as Shopify sends it once the order is paid (REST Order, financial_status paid). */
async function paidWebhook(order: ReturnType<typeof orderCreatedPayload>) {
  const paid = { ...order, financial_status: "paid", updated_at: new Date().toISOString() };
  expect((await callRoute(ordersPaid, signedWebhook("orders/paid", paid))).status).toBe(200);
}

const offerTexts = () => twilio.twilio.messages.filter((m) => m.to === PHONE && /\/pp\//.test(m.body));
const tokenOf = (body: string) => /\/pp\/([A-Za-z0-9_-]{32})/.exec(body)![1];
const openLink = (token: string) => callRoute(payLink, signedRequest(`/pp/${token}`), { token });
const tagsOf = (gid: string) => [...(tagged.get(gid) ?? [])].filter((t) => !t.startsWith("cod-risk:")).sort();

describe("the reward", () => {
  it("is the fixed amount (never more than the amount) or the percentage under its cap, rounded down to the currency's unit", () => {
    const shop = (type: string, value: number, cap: number | null = null) => ({ prepaidOfferIncentiveType: type, prepaidOfferIncentiveValue: value, prepaidOfferIncentiveCap: cap });
    expect(incentiveFor(shop("none", 10), 499, "INR")).toBeNull();
    expect(incentiveFor(shop("fixed", 30), 499, "INR")).toBe(30);
    expect(incentiveFor(shop("fixed", 30), 20, "INR")).toBe(20);
    expect(incentiveFor(shop("percentage", 5), 499, "INR")).toBe(24.95);
    expect(incentiveFor(shop("percentage", 5, 20), 499, "INR")).toBe(20);
    expect(incentiveFor(shop("percentage", 3.33), 100.01, "JPY")).toBe(3);
    expect(incentiveFor(shop("percentage", 0), 499, "INR")).toBeNull();
  });
});

describe("a shopper who pays", () => {
  it("gets the link by SMS a minute after the order, opens it (counted once), pays on Shopify's page, and gets the reward back exactly once", async () => {
    const shop = await shopWithOffer();
    const order = await placeCodOrder();
    const gid = order.admin_graphql_api_id;
    await work();
    expect(offerTexts()).toHaveLength(0); // not before the minute

    later(61_000);
    await work();
    const [text] = offerTexts();
    expect(text.channel).toBe("sms");
    expect(text.body).toContain("₹499");
    expect(text.body).toContain("₹20 back");
    expect(await prisma.prepaidOffer.findFirstOrThrow()).toMatchObject({ status: "sent", channel: "sms", amount: 499, currency: "INR", incentive: 20, phone: PHONE });
    expect(await prisma.messageDelivery.findFirstOrThrow({ where: { purpose: "prepaid_offer" } })).toMatchObject({ orderGid: gid, channel: "sms" });

    const opened = await openLink(tokenOf(text.body));
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe(orders.orders.get(gid)!.url);
    const firstOpen = (await prisma.prepaidOffer.findFirstOrThrow()).openedAt;
    expect(firstOpen).toBeInstanceOf(Date);
    later(5_000);
    await openLink(tokenOf(text.body));
    expect((await prisma.prepaidOffer.findFirstOrThrow()).openedAt).toEqual(firstOpen);

    orders.pay(gid, "online");
    await paidWebhook(order);
    await work();
    const refunds = shopify.callsTo(OPERATIONS.prepaidIncentiveRefund);
    expect(refunds).toHaveLength(1);
    const sale = orders.orders.get(gid)!.transactions[0];
    expect(refunds[0].variables).toMatchObject({
      idempotencyKey: expect.stringMatching(/^prepaid-incentive-/),
      input: { orderId: gid, currency: "INR", transactions: [{ parentId: sale.id, amount: "20.00", gateway: "shopify_payments", kind: "REFUND" }] },
    });
    expect(orders.orders.get(gid)!.refunds).toHaveLength(1);
    const offer = await prisma.prepaidOffer.findFirstOrThrow();
    expect(offer).toMatchObject({ status: "paid", paidAt: expect.any(Date), incentiveRefundId: orders.orders.get(gid)!.refunds[0].id, incentiveError: null });
    expect(await prisma.orderRecord.findFirstOrThrow({ where: { shopId: shop.id, orderGid: gid } })).toMatchObject({ prepaidAt: expect.any(Date) });
    expect(tagsOf(gid)).toEqual(expect.arrayContaining(["cod-prepaid", "payment-mode:prepaid"]));
    expect(tagsOf(gid)).not.toContain("payment-mode:cod");

    // Shopify sends orders/paid again (another delivery); the link is opened after paying.
    await paidWebhook(order);
    await work();
    const afterPaying = await openLink(tokenOf(text.body));
    expect(afterPaying.status).toBe(200);
    expect(await afterPaying.text()).toContain("is paid");
    expect(shopify.callsTo(OPERATIONS.prepaidIncentiveRefund)).toHaveLength(1);
  });

  it("a refund whose answer was lost is found on the order by its note, never made twice", async () => {
    await shopWithOffer();
    const order = await placeCodOrder();
    const gid = order.admin_graphql_api_id;
    later(61_000);
    await work();
    orders.pay(gid);
    await paidWebhook(order);
    await work();
    expect(orders.orders.get(gid)!.refunds).toEqual([expect.objectContaining({ note: incentiveNote((await prisma.prepaidOffer.findFirstOrThrow()).id), amount: 20 })]);

    // What a process stopped between Shopify's refund and its own record leaves: the job due again, no refund id.
    await prisma.prepaidOffer.updateMany({ data: { incentiveRefundId: null } });
    await prisma.job.updateMany({ where: { kind: "prepaid-offer.paid" }, data: { doneAt: null, nextAttemptAt: new Date(0) } });
    later(LOCK_MS);
    await work();
    expect(shopify.callsTo(OPERATIONS.prepaidIncentiveRefund)).toHaveLength(1);
    expect(orders.orders.get(gid)!.refunds).toHaveLength(1);
    expect((await prisma.prepaidOffer.findFirstOrThrow()).incentiveRefundId).toBe(orders.orders.get(gid)!.refunds[0].id);
  });
});

describe("a shopper who does not pay", () => {
  it("never gets the reward, and the courier's cash recorded with Mark as paid is not a move to prepaid", async () => {
    const shop = await shopWithOffer();
    const order = await placeCodOrder();
    const gid = order.admin_graphql_api_id;
    later(61_000);
    await work();
    expect(offerTexts()).toHaveLength(1);

    later(3 * 86_400_000);
    await work();
    expect(shopify.callsTo(OPERATIONS.prepaidIncentiveRefund)).toHaveLength(0);

    // Delivered; the merchant records the cash (manual gateway): Shopify sends orders/paid.
    orders.pay(gid, "cash");
    await paidWebhook(order);
    await work();
    expect(shopify.callsTo(OPERATIONS.prepaidIncentiveRefund)).toHaveLength(0);
    expect(await prisma.prepaidOffer.findFirstOrThrow()).toMatchObject({ status: "sent", paidAt: null, incentiveRefundId: null });
    expect(await prisma.orderRecord.findFirstOrThrow({ where: { shopId: shop.id, orderGid: gid } })).toMatchObject({ prepaidAt: null });
    expect(tagsOf(gid)).not.toContain("cod-prepaid");
    expect(offerTexts()).toHaveLength(1); // sent once, however many runs
  });
});

describe("where Shopify gives the order no payment page", () => {
  it("sends Shopify's own invoice with the reward in its note", async () => {
    await shopWithOffer();
    const order = await placeCodOrder({ url: null });
    later(61_000);
    await work();
    expect(offerTexts()).toHaveLength(0);
    expect(orders.orders.get(order.admin_graphql_api_id)!.invoices).toEqual([{ customMessage: expect.stringContaining("₹20 is refunded") }]);
    expect(await prisma.prepaidOffer.findFirstOrThrow()).toMatchObject({ status: "invoiced", channel: "email" });
  });

  it("a number that asked the shop to stop gets no text: Shopify's invoice goes instead", async () => {
    const shop = await shopWithOffer();
    await prisma.contactOptOut.create({ data: { shopId: shop.id, phone: PHONE, channel: "all", source: "sms_stop" } });
    const order = await placeCodOrder();
    later(61_000);
    await work();
    expect(offerTexts()).toHaveLength(0);
    expect(orders.orders.get(order.admin_graphql_api_id)!.invoices).toHaveLength(1);
    expect(await prisma.prepaidOffer.findFirstOrThrow()).toMatchObject({ status: "invoiced", channel: "email" });
  });

  it("the text is the plan's: it counts one against the month's allowance, and once the allowance is used up Shopify's invoice goes instead", async () => {
    const shop = await shopWithOffer();
    await placeCodOrder();
    later(61_000);
    await work();
    expect(offerTexts()).toHaveLength(1);
    expect(await prisma.dailyStat.findMany({ where: { metric: "otp_verified", dimension: { not: "" } }, select: { dimension: true, count: true } })).toEqual([{ dimension: "prepaid_offer", count: 1 }]);

    const { allowance } = await verificationStatus(shop);
    await prisma.dailyStat.create({ data: { shopId: shop.id, metric: "otp_verified", day: thisMonth(), dimension: "", count: allowance } });
    const second = await placeCodOrder();
    later(2 * 61_000);
    await work();
    expect(offerTexts()).toHaveLength(1);
    expect(orders.orders.get(second.admin_graphql_api_id)!.invoices).toHaveLength(1);
    expect(await prisma.prepaidOffer.findFirstOrThrow({ where: { orderGid: second.admin_graphql_api_id } })).toMatchObject({ status: "invoiced", channel: "email" });
    expect(await prisma.dailyStat.count({ where: { metric: "otp_verified", dimension: "prepaid_offer" } })).toBe(1);
  });

  it("the allowance used up and no email: no offer, and the settings say the text was refused", async () => {
    const shop = await shopWithOffer();
    await placeCodOrder({ email: null });
    const { allowance } = await verificationStatus(shop);
    await prisma.dailyStat.create({ data: { shopId: shop.id, metric: "otp_verified", day: thisMonth(), dimension: "", count: allowance } });
    later(61_000);
    await work();
    expect(offerTexts()).toHaveLength(0);
    expect(await prisma.prepaidOffer.findFirstOrThrow()).toMatchObject({ status: "not_offered", reason: "text_refused" });
  });

  it("without an email either: no offer, and the settings say why", async () => {
    const shop = await shopWithOffer();
    await placeCodOrder({ url: null, email: null });
    later(61_000);
    await work();
    expect(shopify.callsTo(OPERATIONS.orderInvoiceSend)).toHaveLength(0);
    expect(await prisma.prepaidOffer.findFirstOrThrow()).toMatchObject({ status: "not_offered", reason: "no_collection_url" });
    const summary = await prepaidOfferSummary(shop.id);
    expect(summary.notOffered).toEqual([{ reason: "no_collection_url", count: 1, why: expect.stringContaining("no payment page") }]);
  });

  it("an order already shipped is not offered (its parcel carries the COD amount)", async () => {
    await shopWithOffer();
    await placeCodOrder({ displayFulfillmentStatus: "FULFILLED" });
    later(61_000);
    await work();
    expect(offerTexts()).toHaveLength(0);
    expect(await prisma.prepaidOffer.findFirstOrThrow()).toMatchObject({ status: "not_offered", reason: "fulfilled" });
  });
});

describe("with verification after purchase", () => {
  const confirmNonce = (html: string) => /name="nonce" value="([^"]+)"/.exec(html)![1];
  function page(token: string, form?: Record<string, string>) {
    const init = form ? { method: "POST", body: new URLSearchParams(form).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } } : {};
    return callRoute(confirmPage, signedRequest(`/vc/${token}`, init), { token });
  }

  it("the offer waits for the confirmation and goes once the shopper confirms", async () => {
    await shopWithOffer({ otpEnabled: true });
    await placeCodOrder();
    later(61_000);
    await work();
    expect(offerTexts()).toHaveLength(0);
    expect(await prisma.prepaidOffer.count()).toBe(0);

    const token = linkToken((await prisma.orderConfirmation.findFirstOrThrow()).id);
    const codeForm = await (await page(token, { intent: "send", nonce: confirmNonce(await (await page(token)).text()) })).text();
    expect((await page(token, { intent: "confirm", nonce: confirmNonce(codeForm), code: twilio.twilio.codeFor(PHONE) })).status).toBe(200);
    await work();
    expect(offerTexts()).toHaveLength(1);
  });

  it("paid online before confirming: the confirmation and the hold end, and the deadline cancels nothing", async () => {
    const shop = await shopWithOffer({ otpEnabled: true, holdUnverifiedCod: true, cancelUnconfirmed: true });
    const order = await placeCodOrder();
    const gid = order.admin_graphql_api_id;
    await work();
    expect(enforcement.order(gid).fulfillmentOrders[0].status).toBe("ON_HOLD");
    expect(tagsOf(gid)).toContain("cod-pending");

    // The shopper pays from the order status page; no offer was sent, so no reward is owed.
    orders.pay(gid);
    await paidWebhook(order);
    await work();
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ status: "paid", closedAt: expect.any(Date) });
    expect(enforcement.order(gid).fulfillmentOrders[0]).toMatchObject({ status: "OPEN", holds: [] });
    expect(tagsOf(gid)).not.toContain("cod-pending");
    expect(tagsOf(gid)).toContain("cod-prepaid");
    expect(await prisma.orderRecord.findFirstOrThrow({ where: { shopId: shop.id, orderGid: gid } })).toMatchObject({ status: "confirmed", verifiedBy: "payment", prepaidAt: expect.any(Date) });
    expect(shopify.callsTo(OPERATIONS.prepaidIncentiveRefund)).toHaveLength(0);

    later(25 * 3600_000);
    await work();
    expect(shopify.callsTo(OPERATIONS.orderCancel)).toHaveLength(0);
    expect(tagsOf(gid)).not.toContain("cod-unconfirmed");
    expect(offerTexts()).toHaveLength(0);
  });
});

describe("orders/paid for an order the app does not know as COD", () => {
  it("queues nothing", async () => {
    await shopWithOffer();
    const order = orderCreatedPayload({ shop: SHOP, financial_status: "paid", gateway: "shopify_payments", payment_gateway_names: ["shopify_payments"] });
    expect((await callRoute(ordersPaid, signedWebhook("orders/paid", order))).status).toBe(200);
    expect(await prisma.job.count({ where: { kind: "prepaid-offer.paid" } })).toBe(0);
  });
});

describe("the pay-now figures' 30 days, the shop's", () => {
  it.each(ZONES_FAR_FROM_UTC)(
    "%s: today and the 29 days before, from the first one's midnight, at both sides of the shop's midnight",
    async (zone) => {
      const shop = await shopWithOffer({ timezone: zone });
      const edges = aroundShopMidnight(zone, "2026-11-01", "2026-11-02");
      for (const [n, at] of edges.instants.entries()) {
        const orderGid = `gid://shopify/Order/${n}`;
        const time = new Date(at);
        await prisma.prepaidOffer.create({
          data: { id: `offer-${n}`, shopId: shop.id, orderGid, tokenHash: `hash-${n}`, status: "paid", sentAt: time, openedAt: time, paidAt: time, incentive: 10, currency: "INR", incentiveRefundId: `gid://shopify/Refund/${n}` },
        });
        await prisma.prepaidOffer.create({ data: { id: `none-${n}`, shopId: shop.id, orderGid: `${orderGid}1`, tokenHash: `none-${n}`, status: "not_offered", reason: "cancelled", createdAt: time } });
        await prisma.orderRecord.create({ data: { shopId: shop.id, orderGid, cod: true, status: "verified", placedAt: time, prepaidAt: time } });
      }
      const figures = (n: number) => ({ sent: n, opened: n, paid: n, moved: n, rewards: { amount: 10 * n, currency: "INR" }, notOffered: [{ reason: "cancelled", count: n, why: "the order was cancelled" }] });
      expect(await prepaidOfferSummary(shop.id, edges.before)).toEqual(figures(3));
      expect(await prepaidOfferSummary(shop.id, edges.after)).toEqual(figures(1));
    },
  );
});
