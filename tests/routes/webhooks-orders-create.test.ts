import * as route from "~/routes/webhooks.orders.create";
import { prisma, watchQueries } from "~/core/db.server";
import { watchDirectStatements } from "~/core/db/sql.server";
import { recordSelection } from "~/otp/selection.server";
import { MAX_ATTEMPTS, pruneFinishedJobs, runDueJobs } from "~/core/jobs/queue.server";
import { JOB_KINDS } from "~/server-build";
import { pruneDeliveries } from "~/core/shopify/webhook-deliveries.server";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { clock } from "~/core/utils/clock.server";
import { useFakeShopify } from "../helpers/fake-shopify";
import { callRoute } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

const runDueTagJobs = (limit?: number, concurrency?: number) => runDueJobs(JOB_KINDS, limit, concurrency);

const PHONE = "+212600000002";
const tagged = new Map<string, Set<string>>();
const fake = useFakeShopify();

beforeEach(() => {
  tagged.clear();
  handlers.installDefaultHandlers(fake, {}, tagged);
});
afterEach(() => vi.restoreAllMocks());

/** The verification tags of a tagsAdd call; the COD risk tag is tested in tests/routes/risk-orders.test.ts. */
const withoutRisk = (tags: unknown) => (tags as string[]).filter((t) => !t.startsWith("cod-risk:"));

function deliver(payload: unknown, options: Parameters<typeof signedWebhook>[2] = {}) {
  return callRoute(route, signedWebhook("orders/create", payload, options));
}

async function selectionFor(shopId: string, mode: "cod" | "prepaid" | "partial", verified: boolean, extra: { cartToken?: string } = {}) {
  return recordSelection({ shopId, phone: PHONE, mode, source: verified ? "verify-otp" : "create-checkout", verified, ...extra });
}

describe("orders/create: authenticity", () => {
  it("answers 401 to a wrong HMAC and changes nothing", async () => {
    const shop = await installShop();
    await selectionFor(shop.id, "cod", true);
    const res = await deliver(orderCreatedPayload({ phone: PHONE }), { secret: "wrong" });
    expect(res.status).toBe(401);
    expect(await prisma.selection.count({ where: { orderGid: { not: null } } })).toBe(0);
    expect(await prisma.job.count({ where: { kind: "order-tags" } })).toBe(0);
  });

  it("answers 400 when a required header (X-Shopify-Webhook-Id) is missing", async () => {
    await installShop();
    const res = await deliver(orderCreatedPayload(), { headers: { "x-shopify-webhook-id": null } });
    expect(res.status).toBe(400);
  });
});

describe("orders/create: linking the order to the selection", () => {
  it("links by our attribute first (even when the phone points at another selection) and tags cod-verified when a phone of the order is the verified one", async () => {
    const shop = await installShop();
    const mine = await selectionFor(shop.id, "cod", true);
    const other = await prisma.selection.create({ data: { shopId: shop.id, phone: "+212611111111", mode: "prepaid", source: "create-checkout" } });
    const order = orderCreatedPayload({
      phone: "+212611111111",
      shipping_address: { phone: PHONE },
      note_attributes: [{ name: "_cod_selection", value: mine.id }],
    });
    const res = await deliver(order);
    expect(res.status).toBe(200);
    expect(await prisma.selection.findUniqueOrThrow({ where: { id: mine.id } })).toMatchObject({
      orderGid: order.admin_graphql_api_id,
      orderName: order.name,
      linkedAt: expect.any(Date),
    });
    expect((await prisma.selection.findUniqueOrThrow({ where: { id: other.id } })).orderGid).toBeNull();

    // The webhook answered without calling Shopify; the worker adds the tags.
    expect(fake.callsTo(OPERATIONS.tagsAdd)).toHaveLength(0);
    // The order's tags, its COD risk assessment for Shopify's risk panel (app/risk), and its Flow trigger (verified: app/flow).
    expect(await runDueTagJobs()).toMatchObject({ done: 3 });
    const [call] = fake.callsTo(OPERATIONS.tagsAdd);
    expect(call.variables.id).toBe(order.admin_graphql_api_id);
    expect(withoutRisk(call.variables.tags)).toEqual(["cod-verified", "payment-mode:cod"]);
    expect(call.headers["x-shopify-access-token"]).toBe("shpat_test_token");
    expect(await prisma.job.findFirstOrThrow({ where: { kind: "order-tags" } })).toMatchObject({ doneAt: expect.any(Date), attempts: 1 });
  });

  it("never takes an attribute naming another shop's selection as a link", async () => {
    await installShop();
    const stranger = await installShop({ domain: "other-shop.myshopify.com" });
    const theirs = await prisma.selection.create({ data: { shopId: stranger.id, phone: PHONE, mode: "cod", verified: true, source: "verify-otp" } });
    await deliver(orderCreatedPayload({ note_attributes: [{ name: "_cod_selection", value: theirs.id }] }));
    expect((await prisma.selection.findUniqueOrThrow({ where: { id: theirs.id } })).orderGid).toBeNull();
    await runDueTagJobs();
    // The order carries no phone: its confirmation cannot text anyone, so the merchant is told.
    expect(withoutRisk(fake.callsTo(OPERATIONS.tagsAdd)[0].variables.tags)).toEqual(["cod-pending", "cod-no-phone"]);
  });

  it("links by cart token, then by checkout token", async () => {
    const shop = await installShop();
    const byCart = await selectionFor(shop.id, "prepaid", false, { cartToken: "cart-123" });
    const order = orderCreatedPayload({ cart_token: "cart-123", payment_gateway_names: ["shopify_payments"], gateway: "shopify_payments" });
    await deliver(order);
    expect((await prisma.selection.findUniqueOrThrow({ where: { id: byCart.id } })).orderGid).toBe(order.admin_graphql_api_id);
    await runDueTagJobs();
    expect(withoutRisk(fake.callsTo(OPERATIONS.tagsAdd)[0].variables.tags)).toEqual(["payment-mode:prepaid"]);
  });

  it("links by phone (in any of the order's phone fields, formatted as Shopify stores it) within the recent window", async () => {
    const shop = await installShop();
    const sel = await selectionFor(shop.id, "cod", false);
    const order = orderCreatedPayload({ shipping_address: { phone: "+212 600-000-002" } });
    await deliver(order);
    expect((await prisma.selection.findUniqueOrThrow({ where: { id: sel.id } })).orderGid).toBe(order.admin_graphql_api_id);
    await runDueTagJobs();
    expect(withoutRisk(fake.callsTo(OPERATIONS.tagsAdd)[0].variables.tags)).toEqual(["cod-pending", "payment-mode:cod"]);
  });

  it("does not link by phone a selection older than the window", async () => {
    const shop = await installShop();
    const sel = await selectionFor(shop.id, "cod", true);
    const later = new Date(Date.now() + 25 * 3600_000);
    await deliver(orderCreatedPayload({ phone: PHONE, created_at: later.toISOString() }));
    expect((await prisma.selection.findUniqueOrThrow({ where: { id: sel.id } })).orderGid).toBeNull();
  });

  it("leaves an order with no selection and no COD gateway alone (no tag job)", async () => {
    await installShop();
    await deliver(orderCreatedPayload({ payment_gateway_names: ["shopify_payments"], gateway: "shopify_payments" }));
    expect(await prisma.job.count({ where: { kind: "order-tags" } })).toBe(0);
  });

  it("uses the shop's own tag names, and none when tagging is off", async () => {
    const shop = await installShop({ tagVerified: "phone-ok", tagModePrefix: "mode/" });
    const sel = await selectionFor(shop.id, "cod", true);
    await deliver(orderCreatedPayload({ phone: PHONE, note_attributes: [{ name: "_cod_selection", value: sel.id }] }));
    await runDueTagJobs();
    expect(withoutRisk(fake.callsTo(OPERATIONS.tagsAdd)[0].variables.tags)).toEqual(["phone-ok", "mode/cod"]);

    await prisma.shop.update({ where: { id: shop.id }, data: { tagOrders: false } });
    const { clearShopCache } = await import("~/core/settings/shop.server");
    clearShopCache();
    await deliver(orderCreatedPayload());
    expect(await prisma.job.count({ where: { kind: "order-tags" } })).toBe(1);
  });
});

describe("orders/create: duplicates and out-of-order deliveries", () => {
  it("a redelivery with the same webhook id does nothing more", async () => {
    const shop = await installShop();
    await selectionFor(shop.id, "cod", true);
    const order = orderCreatedPayload({ phone: PHONE });
    expect((await deliver(order, { webhookId: "wh-1" })).status).toBe(200);
    expect((await deliver(order, { webhookId: "wh-1" })).status).toBe(200);
    expect(await prisma.webhookDelivery.count()).toBe(1);
    expect(await prisma.job.count({ where: { kind: "order-tags" } })).toBe(1);
    await runDueTagJobs();
    await runDueTagJobs();
    expect(fake.callsTo(OPERATIONS.tagsAdd)).toHaveLength(1);
  });

  it("the same order under two webhook ids (two subscriptions) links once and tags once", async () => {
    const shop = await installShop();
    const sel = await selectionFor(shop.id, "cod", true);
    await selectionFor(shop.id, "cod", true); // updates the same journey row
    const order = orderCreatedPayload({ phone: PHONE });
    await Promise.all([deliver(order, { webhookId: "a" }), deliver(order, { webhookId: "b" })]);
    expect(await prisma.selection.count({ where: { orderGid: order.admin_graphql_api_id } })).toBe(1);
    expect((await prisma.selection.findUniqueOrThrow({ where: { id: sel.id } })).orderGid).toBe(order.admin_graphql_api_id);
    expect(await prisma.job.count({ where: { kind: "order-tags" } })).toBe(1);
    // Both deliveries done and recorded; the order recorded once.
    expect(await prisma.webhookDelivery.count()).toBe(2);
    expect(await prisma.orderRecord.count({ where: { orderGid: order.admin_graphql_api_id } })).toBe(1);
  });

  it("a second order naming the same selection does not steal the first order's link; it gets only what its own facts say", async () => {
    const shop = await installShop();
    const sel = await selectionFor(shop.id, "cod", true);
    const named = { phone: PHONE, note_attributes: [{ name: "_cod_selection", value: sel.id }] };
    const first = orderCreatedPayload(named);
    const second = orderCreatedPayload(named);
    await deliver(second, { webhookId: "second" }); // out of order: the later order arrives first
    await deliver(first, { webhookId: "first" });
    expect((await prisma.selection.findUniqueOrThrow({ where: { id: sel.id } })).orderGid).toBe(second.admin_graphql_api_id);
    await runDueTagJobs();
    const byOrder = Object.fromEntries(fake.callsTo(OPERATIONS.tagsAdd).map((c) => [c.variables.id, withoutRisk(c.variables.tags)]));
    expect(byOrder[second.admin_graphql_api_id]).toEqual(["cod-verified", "payment-mode:cod"]);
    expect(byOrder[first.admin_graphql_api_id]).toEqual(["cod-pending"]);
  });

  it("reads an order whose numeric ids exceed 2^53 by its GraphQL id", async () => {
    const shop = await installShop();
    const sel = await selectionFor(shop.id, "cod", true);
    const raw = `{"id":9007199254740993123,"admin_graphql_api_id":"gid://shopify/Order/9007199254740993123","name":"#1001","phone":"${PHONE}","payment_gateway_names":["Cash on Delivery (COD)"],"note_attributes":[]}`;
    expect((await deliver(null, { rawBody: raw })).status).toBe(200);
    expect((await prisma.selection.findUniqueOrThrow({ where: { id: sel.id } })).orderGid).toBe("gid://shopify/Order/9007199254740993123");
  });

  it("answers 200 to a payload it cannot read, and to an unknown shop", async () => {
    await installShop();
    expect((await deliver({ id: 1 })).status).toBe(200);
    expect((await deliver(orderCreatedPayload(), { shop: "unknown.myshopify.com" })).status).toBe(200);
    expect(await prisma.job.count({ where: { kind: "order-tags" } })).toBe(0);
  });
});

describe("order tags: retried, not lost", () => {
  it("retries a failed tagsAdd with backoff, then succeeds", async () => {
    const shop = await installShop();
    await selectionFor(shop.id, "prepaid", true);
    await deliver(orderCreatedPayload({ phone: PHONE, payment_gateway_names: ["shopify_payments"], gateway: "shopify_payments" }));
    fake.on(OPERATIONS.tagsAdd, handlers.serverError(502), "admin");
    expect(await runDueTagJobs()).toMatchObject({ retried: 1 });
    let job = await prisma.job.findFirstOrThrow({ where: { kind: "order-tags" } });
    expect(job).toMatchObject({ attempts: 1, doneAt: null, lastError: expect.stringMatching(/http_error|network/) });
    expect(job.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 25_000);

    // Not due yet: nothing runs.
    expect(await runDueTagJobs()).toMatchObject({ claimed: 0 });

    fake.on(OPERATIONS.tagsAdd, handlers.throttled(), "admin");
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 31_000));
    expect(await runDueTagJobs()).toMatchObject({ retried: 1 });
    job = await prisma.job.findFirstOrThrow({ where: { kind: "order-tags" } });
    expect(job.lastError).toMatch(/throttled/);

    handlers.installDefaultHandlers(fake, {}, tagged);
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 200_000));
    expect(await runDueTagJobs()).toMatchObject({ done: 1 });
    expect(await prisma.job.findFirstOrThrow({ where: { kind: "order-tags" } })).toMatchObject({ attempts: 3, doneAt: expect.any(Date) });
    expect([...(tagged.values().next().value ?? [])]).toEqual(["payment-mode:prepaid"]);
  });

  it("gives up after MAX_ATTEMPTS and keeps the job and its last error", async () => {
    await installShop();
    await deliver(orderCreatedPayload());
    fake.on(OPERATIONS.tagsAdd, () => ({ data: { tagsAdd: { node: null, userErrors: [{ field: ["id"], message: "Order does not exist" }] } } }), "admin");
    let t = Date.now();
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      t += 2 * 3600_000;
      vi.spyOn(clock, "now").mockReturnValue(new Date(t));
      await runDueTagJobs();
    }
    const job = await prisma.job.findFirstOrThrow({ where: { kind: "order-tags" } });
    expect(job).toMatchObject({ attempts: MAX_ATTEMPTS, failedAt: expect.any(Date), lastError: expect.stringContaining("Order does not exist") });
    t += 2 * 3600_000;
    vi.spyOn(clock, "now").mockReturnValue(new Date(t));
    expect(await runDueTagJobs()).toMatchObject({ claimed: 0 });
  });

  it("two workers sweeping at once run a job once", async () => {
    await installShop();
    for (let i = 0; i < 5; i++) await deliver(orderCreatedPayload());
    const [a, b] = await Promise.all([runDueTagJobs(), runDueTagJobs()]);
    // Each COD order's tags, its risk assessment (app/risk) and its Flow triggers (unverified, high risk: app/flow).
    expect(a.claimed + b.claimed).toBe(20);
    expect(fake.callsTo(OPERATIONS.orderRiskAssessmentCreate)).toHaveLength(5);
    expect(fake.callsTo(OPERATIONS.tagsAdd)).toHaveLength(5);
  });
});

describe("housekeeping", () => {
  it("an uninstalled shop's order is linked but not queued for tags", async () => {
    const shop = await installShop({ uninstalledAt: new Date() });
    const sel = await selectionFor(shop.id, "cod", true);
    const order = orderCreatedPayload({ phone: PHONE });
    await deliver(order);
    expect((await prisma.selection.findUniqueOrThrow({ where: { id: sel.id } })).orderGid).toBe(order.admin_graphql_api_id);
    expect(await prisma.job.count({ where: { kind: "order-tags" } })).toBe(0);
  });

  it("prunes delivery records older than a week and finished jobs older than 30 days", async () => {
    const pruneOld = async (now: Date) => ({ deliveries: await pruneDeliveries(now), jobs: await pruneFinishedJobs(now) });
    await installShop();
    await deliver(orderCreatedPayload(), { webhookId: "old" });
    await runDueTagJobs();
    expect(await pruneOld(new Date(Date.now() + 6 * 86_400_000))).toEqual({ deliveries: 0, jobs: 0 });
    // The order's tags, its risk assessment and its Flow triggers (unverified, high risk).
    expect(await pruneOld(new Date(Date.now() + 31 * 86_400_000))).toEqual({ deliveries: 1, jobs: 4 });
  });
});

describe("what a delivery costs the database", () => {
  it("is two round trips before the answer: one read, one write (a verified order; an unverified COD order linked by phone)", async () => {
    const shop = await installShop();
    await deliver(orderCreatedPayload({ phone: "+212600000099" })); // warms the shop cache
    const verified = await selectionFor(shop.id, "cod", true);
    const byPhone = await prisma.selection.create({ data: { shopId: shop.id, phone: "+212600000077", mode: "cod", source: "create-checkout" } });
    const orders = [
      { phone: PHONE, note_attributes: [{ name: "_cod_selection", value: verified.id }], customer: { id: 1153106273, admin_graphql_api_id: "gid://shopify/Customer/1153106273", phone: null } },
      { phone: "+212600000077", shipping_address: { first_name: "Amina", phone: null, country_code: "MA", zip: "20000" } },
    ];
    for (const order of orders) {
      const direct = watchDirectStatements();
      const payload = orderCreatedPayload(order);
      expect((await deliver(payload)).status).toBe(200);
      direct.stop();
      // The read: the delivery handled before?, the selection (by order, attribute, token, phone), the
      // phones' standing, the risk facts. The write: the claim, the jobs, the confirmation, the record and
      // the delivery (one statement on PostgreSQL, one transaction on SQLite).
      expect(direct.roundTrips).toBe(2);
      const all = direct.statements.join("\n");
      expect(all.match(/UPDATE "Selection"/g)).toHaveLength(1);
      expect(all.match(/INSERT INTO "OrderRecord"/g)).toHaveLength(1);
      expect(all.match(/INSERT INTO "WebhookDelivery"/g)).toHaveLength(1);
      expect(await prisma.selection.findFirst({ where: { orderGid: payload.admin_graphql_api_id } })).not.toBeNull();
      expect(await prisma.orderRecord.count({ where: { orderGid: payload.admin_graphql_api_id } })).toBe(1);
    }
    expect((await prisma.selection.findUniqueOrThrow({ where: { id: byPhone.id } })).orderGid).not.toBeNull();
    // The verified order: its tags, its risk, the customer's tag. The unverified one: its tags, its risk, its confirmation's text and deadline.
    const jobs = await prisma.job.findMany({ where: { key: { contains: "Order/" } }, select: { kind: true } });
    expect(jobs.map((j) => j.kind).sort()).toEqual(
      expect.arrayContaining(["order-confirmation.deadline", "order-confirmation.notify", "order-risk-assessment", "order-tags"]),
    );
    expect(await prisma.job.count({ where: { kind: "customer-verified-tag" } })).toBe(1);
    expect(await prisma.orderConfirmation.count()).toBe(2);
  });

  it("is one round trip for a redelivery, and a second delivery of the order merges its tags job after the write", async () => {
    await installShop();
    const payload = orderCreatedPayload({ phone: PHONE });
    await deliver(payload, { webhookId: "first" });
    const redelivery = watchDirectStatements();
    expect((await deliver(payload, { webhookId: "first" })).status).toBe(200);
    redelivery.stop();
    expect(redelivery.roundTrips).toBe(1);

    // Another delivery of the same order (another webhook id): its jobs find their rows; the tags job is
    // merged as enqueueJob merges it (nothing new here), the confirmation's steps scheduled from its row,
    // and only then is the delivery recorded.
    const second = watchDirectStatements();
    expect((await deliver(payload, { webhookId: "second" })).status).toBe(200);
    second.stop();
    expect(second.statements.filter((s) => /SELECT "id", "payload" FROM "Job"/.test(s)).length).toBeGreaterThan(0);
    expect(second.statements.at(-1)).toMatch(/INSERT INTO "WebhookDelivery"/);
    expect(await prisma.webhookDelivery.count()).toBe(2);
    expect(await prisma.job.count({ where: { kind: "order-tags" } })).toBe(1);
    expect(await prisma.orderConfirmation.count()).toBe(1);
  });

  it("runs no Prisma query before it answers, for a verified order and an unverified COD order alike", async () => {
    const shop = await installShop();
    await deliver(orderCreatedPayload({ phone: "+212600000099" })); // warms the shop cache
    const sel = await selectionFor(shop.id, "cod", true);
    for (const order of [{ phone: PHONE, note_attributes: [{ name: "_cod_selection", value: sel.id }] }, { phone: "+212600000077" }]) {
      const viaPrisma = watchQueries();
      const direct = watchDirectStatements();
      expect((await deliver(orderCreatedPayload(order))).status).toBe(200);
      viaPrisma.stop();
      direct.stop();
      expect(viaPrisma.queries).toEqual([]);
      // Every job is queued by one statement, and the delivery is recorded once.
      expect(direct.statements.filter((s) => s.includes('INSERT INTO "WebhookDelivery"'))).toHaveLength(1);
      expect(direct.statements.filter((s) => /INSERT INTO "Job"/.test(s)).length).toBeGreaterThan(0);
      expect(direct.statements.filter((s) => /SELECT "id", "payload" FROM "Job"/.test(s))).toHaveLength(0);
    }
    // The unverified one opened its confirmation, in one statement.
    expect(await prisma.orderConfirmation.count()).toBe(2);
  });

  it("claims each due job in one statement and finishes it in one more", async () => {
    await installShop();
    await deliver(orderCreatedPayload({ phone: PHONE }));
    // Its tags, and the confirmation's text (its deadline is a day away).
    const due = await prisma.job.count({ where: { doneAt: null, nextAttemptAt: { lte: new Date() } } });
    expect(due).toBeGreaterThan(1);
    const direct = watchDirectStatements();
    const viaPrisma = watchQueries();
    const summary = await runDueTagJobs(20, 1);
    direct.stop();
    viaPrisma.stop();
    expect(summary.claimed).toBe(due);
    const claims = direct.statements.filter((s) => /UPDATE "Job" SET "lockedUntil"/.test(s));
    expect(claims).toHaveLength(due + 1); // the last one finds nothing
    expect(direct.statements.filter((s) => /UPDATE "Job" SET "doneAt"/.test(s))).toHaveLength(due);
  });

  it("claims as many due jobs in one statement as run at a time, runs each once and records their ends in one more", async () => {
    await installShop();
    await deliver(orderCreatedPayload({ phone: PHONE }));
    await deliver(orderCreatedPayload({ phone: "+212600000077" }));
    const due = await prisma.job.count({ where: { doneAt: null, nextAttemptAt: { lte: new Date() } } });
    expect(due).toBeGreaterThan(4);
    const direct = watchDirectStatements();
    const summary = await runDueTagJobs(20, 4);
    direct.stop();
    expect(summary).toMatchObject({ claimed: due, done: due });
    const claims = direct.statements.filter((s) => /UPDATE "Job" SET "lockedUntil"/.test(s));
    expect(claims).toHaveLength(Math.ceil(due / 4) + 1); // the last one finds nothing
    expect(direct.statements.filter((s) => /UPDATE "Job" SET "doneAt"/.test(s))).toHaveLength(Math.ceil(due / 4));
    expect(await prisma.job.count({ where: { doneAt: null, nextAttemptAt: { lte: new Date() } } })).toBe(0);
  });
});
