import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as confirmPage from "~/routes/proxy.vc.$token";
import { prisma } from "~/core/db.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import { clock } from "~/core/utils/clock.server";
import { FREE_PLAN } from "~/shared/plans";
import { JOB_KINDS } from "~/server-build";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute, signedRequest } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/**
 * A paused shop never strands an order (docs/enforcement.md): while paused no confirmation opens and no
 * hold is placed; a confirmation opened before the pause can still be finished by the shopper (its
 * code is sent whatever the pause), so its order is never held and cancelled for a check nobody can pass.
 */
const PHONE = "+212600000031";
const MID_MONTH = new Date("2026-11-20T10:00:00Z");
const shopify = useFakeShopify();
const twilio = useFakeTwilio();
let tagged: Map<string, Set<string>>;
let store: FakeEnforcementStore;

beforeEach(() => {
  vi.spyOn(clock, "now").mockReturnValue(MID_MONTH);
  tagged = new Map();
  store = new FakeEnforcementStore(tagged);
  handlers.installDefaultHandlers(shopify, {}, tagged);
  store.install(shopify);
});

async function onFree(used: number, overrides: Parameters<typeof installShop>[0] = {}) {
  const shop = await installShop({ subscriptionPlan: FREE_PLAN.name, subscriptionId: "free", holdUnverifiedCod: true, cancelUnconfirmed: true, ...overrides });
  await prisma.dailyStat.create({ data: { shopId: shop.id, metric: "otp_verified", day: "2026-11-01", dimension: "", count: used } });
  return shop;
}
async function placeUnverifiedOrder() {
  const order = orderCreatedPayload({ phone: PHONE, customer: { id: 90, admin_graphql_api_id: "gid://shopify/Customer/90", phone: PHONE, tags: "" } });
  expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
  return order;
}
async function work() {
  await runDueJobs(JOB_KINDS);
  await runDueJobs(JOB_KINDS);
}
const tagsOf = (gid: string) => [...(tagged.get(gid) ?? [])].filter((t) => !t.startsWith("cod-risk:")).sort();
function page(token: string, form?: Record<string, string>) {
  return callRoute(
    confirmPage,
    signedRequest(`/vc/${token}`, form ? { method: "POST", body: new URLSearchParams(form).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } } : {}),
    { token },
  );
}
const nonceOf = (html: string) => /name="nonce" value="([^"]+)"/.exec(html)![1];
function textedToken() {
  const sms = twilio.twilio.messages.filter((m) => m.to === PHONE && /\/vc\//.test(m.body));
  expect(sms).toHaveLength(1);
  return /\/vc\/([A-Za-z0-9_-]{32})/.exec(sms[0].body)![1];
}

describe("while paused, no confirmation opens and nothing is held", () => {
  it("the allowance used up: an unverified COD order is tagged cod-unverified, not held, not texted, never cancelled", async () => {
    await onFree(FREE_PLAN.monthlyVerifications);
    const order = await placeUnverifiedOrder();
    await work();
    expect(await prisma.orderConfirmation.count()).toBe(0);
    expect(shopify.callsTo(OPERATIONS.fulfillmentOrderHold)).toHaveLength(0);
    expect(twilio.twilio.messages).toHaveLength(0);
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-unverified"]);
    // Days later nothing is due that could cancel it.
    vi.spyOn(clock, "now").mockReturnValue(new Date(MID_MONTH.getTime() + 5 * 86_400_000));
    await work();
    expect(shopify.callsTo(OPERATIONS.orderCancel)).toHaveLength(0);
  });

  it("one verification short of the allowance: the order still gets its confirmation and hold (the line is exact)", async () => {
    await onFree(FREE_PLAN.monthlyVerifications - 1);
    await placeUnverifiedOrder();
    await work();
    expect(await prisma.orderConfirmation.count()).toBe(1);
    expect(shopify.callsTo(OPERATIONS.fulfillmentOrderHold)).toHaveLength(1);
  });
});

describe("a confirmation opened before the pause can still be finished", () => {
  const pauses: [string, (shopId: string) => Promise<unknown>][] = [
    ["the allowance used up", (shopId) => prisma.dailyStat.updateMany({ where: { shopId, metric: "otp_verified" }, data: { count: FREE_PLAN.monthlyVerifications + 5 } })],
    ["the plan cancelled", () => prisma.shop.update({ where: { domain: SHOP }, data: { subscriptionStatus: "cancelled" } })],
    ["codes switched off", () => prisma.shop.update({ where: { domain: SHOP }, data: { otpEnabled: false } })],
  ];
  it.each(pauses)("%s: the page texts the code (no 503), the right code confirms the order and releases its hold", async (_, pause) => {
    const shop = await onFree(FREE_PLAN.monthlyVerifications - 1);
    const order = await placeUnverifiedOrder();
    await work();
    const token = textedToken();
    expect(store.order(order.admin_graphql_api_id).fulfillmentOrders[0].status).toBe("ON_HOLD");
    await pause(shop.id);
    const { clearShopCache } = await import("~/core/settings/shop.server");
    clearShopCache();

    const opened = await page(token);
    expect(opened.status).toBe(200);
    const sent = await page(token, { intent: "send", nonce: nonceOf(await opened.text()) });
    expect(sent.status).toBe(200);
    const codeForm = await sent.text();
    expect(codeForm).toMatch(/autocomplete="one-time-code"/i);
    const right = await page(token, { intent: "confirm", nonce: nonceOf(codeForm), code: twilio.twilio.codeFor(PHONE) });
    expect(right.status).toBe(200);
    expect(await right.text()).toContain("Order confirmed");
    await work();
    expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ status: "confirmed", holdsReleasedAt: expect.any(Date) });
    expect(store.order(order.admin_graphql_api_id).fulfillmentOrders[0]).toMatchObject({ status: "OPEN", holds: [] });
    expect(tagsOf(order.admin_graphql_api_id)).toEqual(["cod-verified"]);
  });

  it("its limits still hold while paused: the per-number limit refuses a fourth code", async () => {
    const shop = await onFree(FREE_PLAN.monthlyVerifications - 1, { otpResendCooldownSeconds: 0 });
    await placeUnverifiedOrder();
    await work();
    const token = textedToken();
    await pauses[0][1](shop.id);
    const nonce = nonceOf(await (await page(token)).text());
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await page(token, { intent: "send", nonce })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
