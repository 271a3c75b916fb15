import * as ordersCreate from "~/routes/webhooks.orders.create";
import { prisma } from "~/core/db.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import { redirectShopifyApi } from "~/core/shopify/api-origin.server";
import { clock } from "~/core/utils/clock.server";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS, type FakeRiskAssessment } from "../mocks/shopify/handlers";
import { startLocalShopify } from "../mocks/shopify/local";
import { useFakeShopify } from "../helpers/fake-shopify";
import { callRoute } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";
import { JOB_KINDS } from "~/server-build";

/**
 * orders/create writes each COD order's risk assessment where the merchant already looks (docs/risk.md):
 * stored on the order's record, tagged cod-risk:<band>, and written to Shopify's risk panel
 * (orderRiskAssessmentCreate) by a durable job, once per order however often Shopify delivers it.
 */
const PHONE = "+919812345678";
const tagged = new Map<string, Set<string>>();
const assessments = new Map<string, FakeRiskAssessment[]>();
const fake = useFakeShopify();
beforeEach(() => {
  tagged.clear();
  assessments.clear();
  handlers.installDefaultHandlers(fake, {}, tagged, assessments);
});
afterEach(() => vi.restoreAllMocks());

const GOOD_ADDRESS = { first_name: "Asha", phone: PHONE, address1: "Flat 12, Shanti Apartments, MG Road", address2: "Near City Mall", city: "Mumbai", province: "Maharashtra", zip: "400001", country_code: "IN" };
const codOrder = (overrides: Record<string, unknown> = {}) =>
  orderCreatedPayload({ phone: PHONE, total_price: "1499.00", browser_ip: "203.0.113.9", shipping_address: GOOD_ADDRESS, billing_address: GOOD_ADDRESS, ...overrides });
const deliver = (payload: unknown, webhookId?: string) => callRoute(ordersCreate, signedWebhook("orders/create", payload, webhookId ? { webhookId } : {}));
const recordOf = (gid: string) => prisma.orderRecord.findFirstOrThrow({ where: { orderGid: gid } });

describe("orders/create: the COD order's risk", () => {
  it("a denied postal code: stored high with the rule, tagged cod-risk:high, written HIGH to Shopify's risk panel with the rule and the reasons as facts", async () => {
    await installShop({ riskDeniedPostalCodes: "4000*" });
    const order = codOrder({ shipping_address: { ...GOOD_ADDRESS, zip: "400 001" } });
    expect((await deliver(order)).status).toBe(200);
    const record = await recordOf(order.admin_graphql_api_id);
    expect(record).toMatchObject({ riskBand: "high", value: 1499 });
    expect(JSON.parse(record.riskReasons!)).toMatchObject({ rule: { code: "postal_code_denied" }, reasons: [{ code: "otp_unverified", points: 30 }, { code: "new_customer", points: 5 }] });
    expect(record.riskScore).toBe(35);

    // Nothing went to Shopify before the answer; the worker writes it.
    expect(fake.callsTo(OPERATIONS.orderRiskAssessmentCreate)).toHaveLength(0);
    await runDueJobs(JOB_KINDS);
    expect(assessments.get(order.admin_graphql_api_id)).toEqual([
      {
        riskLevel: "HIGH",
        facts: [
          { description: "COD Verify risk score 35/100 (high).", sentiment: "NEUTRAL" },
          { description: "Merchant rule: The shop does not deliver cash on delivery to this postal code.", sentiment: "NEGATIVE" },
          { description: "The phone number was not confirmed with a code.", sentiment: "NEGATIVE" },
          { description: "First order from this phone number in this shop.", sentiment: "NEGATIVE" },
        ],
      },
    ]);
    expect([...(tagged.get(order.admin_graphql_api_id) ?? [])]).toContain("cod-risk:high");

    // An order of the same shop not paid cash on delivery is not assessed.
    const card = codOrder({ gateway: "shopify_payments", payment_gateway_names: ["shopify_payments"] });
    await deliver(card);
    await runDueJobs(JOB_KINDS);
    expect(await recordOf(card.admin_graphql_api_id)).toMatchObject({ cod: false, riskScore: null, riskBand: null, value: null });
    expect(fake.callsTo(OPERATIONS.orderRiskAssessmentCreate)).toHaveLength(1);
  });

  it("a verified buyer with a complete address and a good history is low, and LOW goes to the panel", async () => {
    const shop = await installShop();
    await prisma.verifiedCustomer.create({ data: { shopId: shop.id, phone: PHONE, verifiedAt: new Date() } });
    await prisma.orderRecord.create({ data: { shopId: shop.id, orderGid: "gid://shopify/Order/1", phone: PHONE, cod: true, status: "confirmed", placedAt: new Date(Date.now() - 86_400_000) } });
    const order = codOrder({ customer: { id: 1, phone: PHONE, tags: "cod-verified-customer", admin_graphql_api_id: "gid://shopify/Customer/1" } });
    await deliver(order);
    await runDueJobs(JOB_KINDS);
    expect(await recordOf(order.admin_graphql_api_id)).toMatchObject({ status: "verified", riskBand: "low", riskScore: 0 });
    expect(assessments.get(order.admin_graphql_api_id)?.[0]).toMatchObject({
      riskLevel: "LOW",
      facts: [expect.anything(), { description: "1 earlier order with this phone was confirmed or delivered.", sentiment: "POSITIVE" }],
    });
    expect([...(tagged.get(order.admin_graphql_api_id) ?? [])]).toContain("cod-risk:low");
  });

  it("is assessed once per order: a redelivery (same or new webhook id, counters moved since) queues no second assessment and keeps the first", async () => {
    const shop = await installShop({ riskHighThreshold: 30 });
    const order = codOrder();
    await deliver(order, "w-1");
    const first = await recordOf(order.admin_graphql_api_id);
    // The number now looks like a burst, so a fresh score would differ.
    await prisma.rateCounter.create({ data: { key: `risk-codes:${shop.id}:${PHONE}`, windowStart: BigInt(Date.now()), count: 9, expiresAt: BigInt(Date.now() + 86_400_000) } });
    await deliver(order, "w-1");
    await deliver(order, "w-2");
    await Promise.all([deliver(order, "w-3"), deliver(order, "w-4")]);
    expect(await recordOf(order.admin_graphql_api_id)).toMatchObject({ riskScore: first.riskScore, riskBand: first.riskBand, riskReasons: first.riskReasons });
    expect(await prisma.job.count({ where: { kind: "order-risk-assessment" } })).toBe(1);
    await runDueJobs(JOB_KINDS);
    expect(fake.callsTo(OPERATIONS.orderRiskAssessmentCreate)).toHaveLength(1);
    expect([...(tagged.get(order.admin_graphql_api_id) ?? [])].filter((t) => t.startsWith("cod-risk:"))).toEqual([`cod-risk:${first.riskBand}`]);
  });
});

describe("Shopify refusing or failing the assessment", () => {
  it("a fulfilled order (ORDER_ALREADY_FULFILLED) is not retried; a throttle is, and then succeeds", async () => {
    await installShop();
    const fulfilled = codOrder();
    fake.on(OPERATIONS.orderRiskAssessmentCreate, handlers.orderRiskAssessmentUserErrors("ORDER_ALREADY_FULFILLED"), "admin");
    await deliver(fulfilled);
    await runDueJobs(JOB_KINDS);
    expect(await prisma.job.findFirstOrThrow({ where: { kind: "order-risk-assessment" } })).toMatchObject({
      attempts: 1,
      failedAt: expect.any(Date),
      lastError: expect.stringContaining("ORDER_ALREADY_FULFILLED"),
    });

    const throttled = codOrder();
    fake.on(OPERATIONS.orderRiskAssessmentCreate, handlers.throttled(), "admin");
    await deliver(throttled);
    expect(await runDueJobs(JOB_KINDS)).toMatchObject({ retried: 1 });
    handlers.installDefaultHandlers(fake, {}, tagged, assessments);
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 120_000));
    await runDueJobs(JOB_KINDS);
    expect(assessments.get(throttled.admin_graphql_api_id)).toHaveLength(1);
    expect(assessments.get(fulfilled.admin_graphql_api_id)).toBeUndefined();
  });
});

describe("local mode's Shopify", () => {
  it("shows each order's risk assessments (level and facts) beside its tags at /orders", async () => {
    const local = await startLocalShopify();
    redirectShopifyApi(local.origin);
    try {
      await installShop({ riskDeniedPostalCodes: "400001" });
      const order = codOrder();
      await deliver(order);
      await runDueJobs(JOB_KINDS);
      const view = (await (await fetch(`${local.origin}/orders?format=json`)).json()) as { orders: { id: string; tags: string[]; riskAssessments: FakeRiskAssessment[] }[] };
      const shown = view.orders.find((o) => o.id === order.admin_graphql_api_id);
      expect(shown?.tags).toContain("cod-risk:high");
      expect(shown?.riskAssessments).toEqual([expect.objectContaining({ riskLevel: "HIGH", facts: expect.arrayContaining([expect.objectContaining({ description: expect.stringContaining("postal code") })]) })]);
      const html = await (await fetch(`${local.origin}/orders`)).text();
      expect(html).toContain("<strong>HIGH</strong>");
    } finally {
      redirectShopifyApi(null);
      await local.stop();
    }
  });
});
