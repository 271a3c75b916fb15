import { prisma } from "~/core/db.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import { enqueueRiskBackfill, riskBackfillJob } from "~/risk/backfill.server";
import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import * as cancelled from "~/routes/webhooks.orders.cancelled";
import { JOB_KINDS } from "~/server-build";
import { OPERATIONS } from "~/core/shopify/operations";
import * as handlers from "../mocks/shopify/handlers";
import { FakeOrderStore, fakeOrder } from "../mocks/shopify/orders";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/**
 * The backfill on install (docs/risk.md): a durable job reads the shop's recent orders from Shopify
 * (paged) and learns each COD order's outcome (cancelled, a failure tag, refunded in whole: failed;
 * fulfilled: delivered) with the webhooks' own upsert, so a retry after a failure counts nothing twice
 * and the first score of a known phone already uses it.
 */
const PHONE = "+919812345678";
const twilio = useFakeTwilio();
const shopify = useFakeShopify((f) => handlers.installDefaultHandlers(f));
let store = new FakeOrderStore();
beforeEach(() => {
  handlers.installDefaultHandlers(shopify);
  store = new FakeOrderStore();
  store.install(shopify);
});

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
const address = (zip: string, phone: string | null = null) => ({ ...fakeOrder().shippingAddress!, zip, phone });
const outcomes = () => prisma.orderOutcome.findMany({ select: { orderGid: true, phone: true, postalCode: true, outcome: true, reason: true } });

describe("the outcomes backfill on install", () => {
  it("is one of the worker's job kinds", () => {
    expect(JOB_KINDS).toContain(riskBackfillJob);
  });

  it("learns each recent COD order's outcome over several pages, once, retried after Shopify failed, without overwriting a webhook's failure", async () => {
    await installShop();
    const cancelledOrder = store.add(fakeOrder({ phone: PHONE, cancelledAt: daysAgo(3), createdAt: daysAgo(4), shippingAddress: address("400 001") }));
    const rto = store.add(fakeOrder({ phone: PHONE, tags: ["vip", "RTO"], displayFulfillmentStatus: "FULFILLED", createdAt: daysAgo(5), shippingAddress: address("400001") }));
    const refunded = store.add(fakeOrder({ phone: "+919800000002", displayFinancialStatus: "REFUNDED", displayFulfillmentStatus: "FULFILLED", createdAt: daysAgo(6), shippingAddress: address("110001") }));
    const delivered = store.add(fakeOrder({ phone: "+919800000003", displayFulfillmentStatus: "FULFILLED", createdAt: daysAgo(7), shippingAddress: address("560001") }));
    // Not learnt: open, paid by card, older than 60 days.
    store.add(fakeOrder({ createdAt: daysAgo(1) }));
    store.add(fakeOrder({ paymentGatewayNames: ["shopify_payments"], cancelledAt: daysAgo(2), createdAt: daysAgo(2) }));
    store.add(fakeOrder({ cancelledAt: daysAgo(70), createdAt: daysAgo(71) }));
    // 150 more fulfilled COD orders: a second page.
    for (let i = 0; i < 150; i++) store.add(fakeOrder({ phone: `+9197${String(i).padStart(8, "0")}`, displayFulfillmentStatus: "FULFILLED", createdAt: daysAgo(10), shippingAddress: address("560002") }));
    // Before the job runs, a webhook says the fulfilled order was cancelled after all.
    const late = orderCreatedPayload({ admin_graphql_api_id: delivered.id, phone: "+919800000003", cancelled_at: daysAgo(0) });
    expect((await callRoute(cancelled, signedWebhook("orders/cancelled", late))).status).toBe(200);

    // Shopify fails the second page on the first run: the job is retried and reads from the start.
    let calls = 0;
    const pages = store.ordersPaged();
    shopify.on(OPERATIONS.recentOrderOutcomes, (call) => (++calls === 2 ? { status: 503 } : pages(call)), "admin");
    await enqueueRiskBackfill({ domain: SHOP });
    await enqueueRiskBackfill({ domain: SHOP }); // an install twice (concurrent first requests): one job
    expect(await runDueJobs([riskBackfillJob])).toMatchObject({ claimed: 1, retried: 1 });
    await prisma.job.updateMany({ where: { kind: riskBackfillJob.kind }, data: { nextAttemptAt: new Date(0) } });
    expect(await runDueJobs([riskBackfillJob])).toMatchObject({ claimed: 1, done: 1 });

    const rows = await outcomes();
    expect(rows).toHaveLength(154);
    const byGid = new Map(rows.map((r) => [r.orderGid, r]));
    expect(byGid.get(cancelledOrder.id)).toEqual({ orderGid: cancelledOrder.id, phone: PHONE, postalCode: "400001", outcome: "failed", reason: "cancelled" });
    expect(byGid.get(rto.id)).toMatchObject({ outcome: "failed", reason: "tag:RTO" });
    expect(byGid.get(refunded.id)).toMatchObject({ outcome: "failed", reason: "refunded" });
    expect(byGid.get(delivered.id)).toMatchObject({ outcome: "failed", reason: "cancelled" }); // the webhook's failure stands
    expect(rows.filter((r) => r.outcome === "delivered")).toHaveLength(150);
    expect(shopify.callsTo(OPERATIONS.recentOrderOutcomes)[0].variables.query).toBe(`created_at:>=${daysAgo(60).slice(0, 10)}`);

    // Orders from before the install proved nothing of their phone (anyone can type a number at
    // checkout): their failures teach the postal codes, never count against the phone.
    await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE } }));
    const verified = await jsonOf(await callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body: { phone: PHONE, otp: twilio.twilio.codeFor(PHONE) } })));
    expect(verified.risk).toMatchObject({ band: "low" });
    expect(JSON.stringify(verified.risk)).not.toContain("rto_prone_phone");
  });

  it("does nothing for a shop that uninstalled meanwhile", async () => {
    await installShop({ uninstalledAt: new Date() });
    store.add(fakeOrder({ cancelledAt: daysAgo(1) }));
    await enqueueRiskBackfill({ domain: SHOP });
    expect(await runDueJobs([riskBackfillJob])).toMatchObject({ done: 1 });
    expect(await outcomes()).toEqual([]);
    expect(shopify.callsTo(OPERATIONS.recentOrderOutcomes)).toEqual([]);
  });
});
