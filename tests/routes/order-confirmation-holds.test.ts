import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as confirmPage from "~/routes/proxy.vc.$token";
import { prisma } from "~/core/db.server";
import { LOCK_MS, runDueJobs as runJobs } from "~/core/jobs/queue.server";
import { JOB_KINDS } from "~/server-build";
import { linkToken } from "~/orders/confirmation/confirmation.server";
import { shopifyCallLimits } from "~/core/shopify/graphql.server";
import { clock } from "~/core/utils/clock.server";
import * as handlers from "../mocks/shopify/handlers";
import type { Handler } from "../mocks/shopify/server";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

const runDueJobs = (limit?: number, concurrency?: number) => runJobs(JOB_KINDS, limit, concurrency);

/**
 * Holds and cancellation of verification after purchase when Shopify is slow or the app stops mid-call:
 * a hold Shopify placed is released on confirmation whether or not its answer reached the app (holds
 * are read back by handle, never taken from a list the app recorded), a failed tag removal does not
 * keep the order held, and an order already cancelled ends the deadline step. Orders without a phone
 * are left to the merchant, never cancelled.
 */
const PHONE = "+212600000047";
const shopify = useFakeShopify();
const twilio = useFakeTwilio();
let tagged: Map<string, Set<string>>;
let store: FakeEnforcementStore;
let offsetMs = 0;

beforeEach(() => {
  tagged = new Map();
  store = new FakeEnforcementStore(tagged);
  handlers.installDefaultHandlers(shopify, {}, tagged);
  store.install(shopify);
  offsetMs = 0;
});
afterEach(() => vi.restoreAllMocks());

/** Moves the app's clock `ms` further on (job backoff, lock expiry, the deadline). */
function later(ms: number) {
  offsetMs += ms;
  const at = new Date(Date.now() + offsetMs);
  vi.spyOn(clock, "now").mockReturnValue(at);
}

/** Shopify answers later than the app waits (the work is done all the same). */
function answersLate(operation: string, handler: Handler) {
  vi.spyOn(shopifyCallLimits, "timeoutMs", "get").mockReturnValue(200);
  shopify.on(operation, handlers.slow(600, handler), "admin");
}

async function placeOrder(overrides: Record<string, unknown> = {}) {
  const order = orderCreatedPayload({ phone: PHONE, customer: { id: 91, admin_graphql_api_id: "gid://shopify/Customer/91", phone: PHONE, tags: "" }, ...overrides });
  expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
  return order;
}

async function work() {
  await runDueJobs();
  await runDueJobs();
}

/** The verification tags; the COD risk tag (cod-risk:<band>) is tested in tests/routes/risk-orders.test.ts. */
const tagsOf = (gid: string) => [...(tagged.get(gid) ?? [])].filter((t) => !t.startsWith("cod-risk:")).sort();
const fulfillmentOrderOf = (gid: string) => store.order(gid).fulfillmentOrders[0];
const jobOf = (step: string) => prisma.job.findFirstOrThrow({ where: { kind: `order-confirmation.${step}` } });

function page(token: string, form?: Record<string, string>) {
  const init = form ? { method: "POST", body: new URLSearchParams(form).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } } : {};
  return callRoute(confirmPage, signedRequest(`/vc/${token}`, init), { token });
}
const nonceOf = (html: string) => /name="nonce" value="([^"]+)"/.exec(html)![1];

/** The shopper confirms on the hosted page: asks for a code and types it. */
async function confirmOnPage() {
  const token = linkToken((await prisma.orderConfirmation.findFirstOrThrow()).id);
  const codeForm = await (await page(token, { intent: "send", nonce: nonceOf(await (await page(token)).text()) })).text();
  const confirmed = await page(token, { intent: "confirm", nonce: nonceOf(codeForm), code: twilio.twilio.codeFor(PHONE) });
  expect(confirmed.status).toBe(200);
  expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ status: "confirmed" });
}

describe("a hold the app did not see", () => {
  it("placed by Shopify but answered after the timeout: not placed twice, and released when the order is confirmed", async () => {
    await installShop({ holdUnverifiedCod: true });
    const order = await placeOrder();
    // After orders/create (its read-back must not meet the shortened timeout): the hold job answers late.
    answersLate(OPERATIONS.fulfillmentOrderHold, store.hold());
    await work();
    expect(await jobOf("hold")).toMatchObject({ doneAt: null, lastError: expect.stringMatching(/^timeout/) });
    expect(fulfillmentOrderOf(order.admin_graphql_api_id)).toMatchObject({ status: "ON_HOLD", holds: [expect.objectContaining({ handle: "cod-verify" })] });

    later(LOCK_MS); // the retry reads the hold back instead of asking for a second one
    await work();
    expect(await jobOf("hold")).toMatchObject({ doneAt: expect.any(Date) });
    expect(shopify.callsTo(OPERATIONS.fulfillmentOrderHold)).toHaveLength(1);

    await confirmOnPage();
    await work();
    expect(fulfillmentOrderOf(order.admin_graphql_api_id)).toMatchObject({ status: "OPEN", holds: [] });
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-verified"]);
  });

  it("placed by a process that stopped before recording anything: released when the order is confirmed", async () => {
    await installShop({ holdUnverifiedCod: true });
    const order = await placeOrder();
    // What a worker killed mid-call leaves: its claim on the hold job (until the lock expires) and, at
    // Shopify, the hold it asked for.
    await prisma.job.updateMany({ where: { kind: "order-confirmation.hold" }, data: { attempts: 1, lockedUntil: new Date(Date.now() + LOCK_MS) } });
    const fo = fulfillmentOrderOf(order.admin_graphql_api_id);
    fo.holds.push({ id: "gid://shopify/FulfillmentHold/990001", handle: "cod-verify", reason: "OTHER" });
    fo.status = "ON_HOLD";
    await work();

    await confirmOnPage();
    await work();
    expect(fulfillmentOrderOf(order.admin_graphql_api_id)).toMatchObject({ status: "OPEN", holds: [] });
    later(LOCK_MS + 1000); // the dead claim expires: the hold job runs, finds the order confirmed, holds nothing
    await work();
    expect(await jobOf("hold")).toMatchObject({ doneAt: expect.any(Date) });
    expect(fulfillmentOrderOf(order.admin_graphql_api_id)).toMatchObject({ status: "OPEN", holds: [] });
    expect(shopify.callsTo(OPERATIONS.fulfillmentOrderHold)).toHaveLength(0);
  });

  it("landing while the order is confirmed (confirmation released nothing yet): the hold job releases it", async () => {
    await installShop({ holdUnverifiedCod: true });
    let land!: () => void;
    const landed = new Promise<void>((resolve) => (land = resolve));
    const hold = store.hold();
    shopify.on(OPERATIONS.fulfillmentOrderHold, async (call) => (await landed, hold(call)), "admin");
    const order = await placeOrder();
    const holding = runDueJobs(20, 2);
    await vi.waitFor(() => expect(shopify.callsTo(OPERATIONS.fulfillmentOrderHold)).toHaveLength(1));
    // The confirmation's own text (its link) goes out in the same turn of jobs, beside the hold: the code
    // the page asks for below must come after it (the fake reads the code from the number's last message).
    await vi.waitFor(() => expect(twilio.twilio.messages.some((m) => m.to === PHONE && m.body.includes("/vc/"))).toBe(true));

    await confirmOnPage();
    await runDueJobs(); // the confirmed step reads the order back: nothing of ours on it yet
    expect((await jobOf("confirmed")).doneAt).not.toBeNull();
    land();
    await holding;
    expect(fulfillmentOrderOf(order.admin_graphql_api_id)).toMatchObject({ status: "OPEN", holds: [] });
  });

  it("confirmed by a process that stopped before queuing the confirmed step: the deadline step releases the hold and tags it", async () => {
    await installShop({ holdUnverifiedCod: true });
    const order = await placeOrder();
    await work();
    expect(fulfillmentOrderOf(order.admin_graphql_api_id).status).toBe("ON_HOLD");
    await confirmOnPage();
    // What a process stopped between the confirmation's UPDATE and its job leaves: no confirmed step.
    await prisma.job.deleteMany({ where: { kind: "order-confirmation.confirmed" } });

    later(25 * 3600_000);
    await work();
    await work();
    expect(fulfillmentOrderOf(order.admin_graphql_api_id)).toMatchObject({ status: "OPEN", holds: [] });
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-verified"]);
  });

  it("keeps the merchant's own hold and releases only ours", async () => {
    await installShop({ holdUnverifiedCod: true });
    const order = await placeOrder();
    const fo = fulfillmentOrderOf(order.admin_graphql_api_id);
    fo.holds.push({ id: "gid://shopify/FulfillmentHold/990002", handle: "", reason: "OTHER", byApp: false });
    fo.status = "ON_HOLD";
    await work();
    // Ours is added beside the merchant's: when the merchant releases theirs, the order still waits.
    expect(fo.holds.map((h) => h.handle)).toEqual(["", "cod-verify"]);
    await confirmOnPage();
    await work();
    expect(fo).toMatchObject({ status: "ON_HOLD", holds: [expect.objectContaining({ id: "gid://shopify/FulfillmentHold/990002" })] });
    expect(shopify.callsTo(OPERATIONS.fulfillmentOrderReleaseHold)[0].variables.holdIds).toEqual([expect.not.stringMatching(/990002/)]);
  });
});

describe("confirmation when tag removal fails", () => {
  it("releases the hold all the same, and removes cod-pending on a later try", async () => {
    await installShop({ holdUnverifiedCod: true });
    const order = await placeOrder();
    await work();
    expect(fulfillmentOrderOf(order.admin_graphql_api_id).status).toBe("ON_HOLD");
    shopify.on(OPERATIONS.tagsRemove, handlers.serverError(503), "admin");
    await confirmOnPage();
    await work();
    expect(fulfillmentOrderOf(order.admin_graphql_api_id)).toMatchObject({ status: "OPEN", holds: [] });
    expect(await jobOf("confirmed")).toMatchObject({ doneAt: expect.any(Date) });
    // The removal is the order's tag job's, retried until it goes through.
    const tagJob = () => prisma.job.findFirstOrThrow({ where: { kind: "order-tags" } });
    expect(await tagJob()).toMatchObject({ doneAt: null, lastError: expect.stringMatching(/http_error|503/) });
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-pending", "cod-verified"]);

    store.install(shopify);
    later(60_000);
    await work();
    expect(await tagJob()).toMatchObject({ doneAt: expect.any(Date) });
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-verified"]);
  });

  it("an add of cod-pending still in flight when the order is confirmed: the tag job's next run takes it off again", async () => {
    await installShop();
    const order = await placeOrder();
    // Shopify applies the first tagsAdd (cod-pending) only after the confirmation's step has run.
    let first = true;
    shopify.on(
      OPERATIONS.tagsAdd,
      async (call) => {
        if (first) {
          first = false;
          await new Promise((r) => setTimeout(r, 400));
        }
        return handlers.tagsAdd(tagged)(call);
      },
      "admin",
    );
    const inFlight = runDueJobs();
    await new Promise((r) => setTimeout(r, 50));
    // As above: the confirmation's link text first, then the page's code.
    await vi.waitFor(() => expect(twilio.twilio.messages.some((m) => m.to === PHONE && m.body.includes("/vc/"))).toBe(true));
    await confirmOnPage();
    await runDueJobs(); // the confirmed step, while the add is still in flight
    await inFlight;
    later(60_000);
    await work();
    await work();
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-verified"]);
  });
});

describe("cancelling at the deadline", () => {
  it("a cancel Shopify did but answered late: the retry finds it cancelled and the job is done, once", async () => {
    await installShop({ cancelUnconfirmed: true });
    const order = await placeOrder();
    await work();
    answersLate(OPERATIONS.orderCancel, store.orderCancel());
    later(25 * 3600_000);
    await work();
    expect(store.order(order.admin_graphql_api_id).cancelled).not.toBeNull();
    expect(await jobOf("deadline")).toMatchObject({ doneAt: null, failedAt: null });

    store.install(shopify);
    later(60_000);
    await work();
    expect(await jobOf("deadline")).toMatchObject({ doneAt: expect.any(Date), failedAt: null, lastError: null });
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ cancelledAt: expect.any(Date) });
    later(3600_000);
    await work();
    expect(shopify.callsTo(OPERATIONS.orderCancel)).toHaveLength(2);
  });

  it("an order the merchant cancelled first: the job is done with one call", async () => {
    await installShop({ cancelUnconfirmed: true });
    const order = await placeOrder();
    await work();
    store.order(order.admin_graphql_api_id).cancelled = { reason: "CUSTOMER", staffNote: null, notifyCustomer: false, at: new Date().toISOString() };
    later(25 * 3600_000);
    await work();
    expect(await jobOf("deadline")).toMatchObject({ doneAt: expect.any(Date), failedAt: null });
    expect(shopify.callsTo(OPERATIONS.orderCancel)).toHaveLength(1);
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-unconfirmed"]);
  });
});

describe("a COD order with no phone to text", () => {
  it("is tagged cod-no-phone for the merchant, texted nothing, and never cancelled at the deadline", async () => {
    await installShop({ cancelUnconfirmed: true });
    // A phone nowhere on the order, as Shopify sends an order placed without one (nulls and an empty string).
    const order = orderCreatedPayload({
      phone: null,
      customer: { id: 92, admin_graphql_api_id: "gid://shopify/Customer/92", phone: null, tags: "" },
      billing_address: { first_name: "Amina", phone: "", country_code: "MA" },
      shipping_address: { first_name: "Amina", phone: null, country_code: "MA" },
    });
    expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
    await work();
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-no-phone", "cod-pending"]);
    expect(twilio.twilio.attempts).toHaveLength(0);

    later(25 * 3600_000);
    await work();
    expect(shopify.callsTo(OPERATIONS.orderCancel)).toHaveLength(0);
    expect(store.order(order.admin_graphql_api_id).cancelled).toBeNull();
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-no-phone", "cod-unconfirmed"]);
    expect(await jobOf("deadline")).toMatchObject({ doneAt: expect.any(Date) });
  });
});
