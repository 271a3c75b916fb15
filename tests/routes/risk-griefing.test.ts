import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as ordersCancelled from "~/routes/webhooks.orders.cancelled";
import * as confirmPage from "~/routes/proxy.vc.$token";
import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import * as createCheckout from "~/routes/proxy.create-checkout";
import { prisma } from "~/core/db.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import { clock } from "~/core/utils/clock.server";
import { JOB_KINDS } from "~/server-build";
import * as handlers from "../mocks/shopify/handlers";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { orderCreatedPayload, provenOrderPayload, signedWebhook } from "../helpers/webhooks";

/**
 * A stranger cannot make a shopper risky (docs/risk.md, "Only what the phone proved"). The audit's
 * recipe: two COD orders placed with the victim's number and left unconfirmed (the deadline passes, the
 * shop cancels them), and four send-otp calls for the number from elsewhere. It used to score 65 (two
 * "refused" orders +50, "many codes" +15): the victim verified and was refused COD. Now none of it is
 * the victim's history: they verify and get COD, with and without answering "I did not place this order".
 */
const VICTIM = "+919812399001";
const ATTACKER_IP = { "x-forwarded-for": "198.51.100.66" };
const VICTIM_IP = { "x-forwarded-for": "203.0.113.21" };
const shopify = useFakeShopify();
const twilio = useFakeTwilio();
let now = Date.now();

beforeEach(() => {
  const tagged = new Map<string, Set<string>>();
  handlers.installDefaultHandlers(shopify, {}, tagged);
  new FakeEnforcementStore(tagged).install(shopify);
  now = Date.now();
  vi.spyOn(clock, "now").mockImplementation(() => new Date(now));
});
afterEach(() => vi.restoreAllMocks());

const later = (ms: number) => void (now += ms);
const work = async () => {
  await runDueJobs(JOB_KINDS);
  await runDueJobs(JOB_KINDS);
};
const post = (route: typeof sendOtp | typeof verifyOtp | typeof createCheckout, path: string, body: Record<string, unknown>, headers: Record<string, string>) =>
  callRoute(route, signedRequest(path, { method: "POST", body, headers }));

/** The attacker's part: two COD orders with the victim's number, never confirmed (cancelled at the deadline), four codes asked for it. */
async function attack(options: { disputeFirst?: boolean } = {}) {
  const orders = [orderCreatedPayload({ phone: VICTIM }), orderCreatedPayload({ phone: VICTIM })];
  for (const order of orders) expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
  await work();
  if (options.disputeFirst) {
    // The victim gets the confirmation link and answers "I did not place this order".
    const link = twilio.twilio.messages.filter((m) => m.to === VICTIM && /\/vc\//.test(m.body))[0];
    const token = /\/vc\/([A-Za-z0-9_-]{32})/.exec(link.body)![1];
    const page = await (await callRoute(confirmPage, signedRequest(`/vc/${token}`), { token })).text();
    const nonce = /name="nonce" value="([^"]+)"/.exec(page)![1];
    const form = { method: "POST", body: new URLSearchParams({ intent: "not_mine", nonce }).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } };
    expect(await (await callRoute(confirmPage, signedRequest(`/vc/${token}`, form), { token })).text()).toContain("Thank you for telling us");
  }
  later(25 * 3600_000); // past the 24-hour deadline
  await work();
  // Shopify tells the app of the cancellations it made.
  for (const [i, order] of orders.entries()) {
    await callRoute(ordersCancelled, signedWebhook("orders/cancelled", { ...order, cancelled_at: new Date(now).toISOString() }, { webhookId: `cancel-${i}` }));
  }
  for (let i = 0; i < 4; i++) {
    expect((await post(sendOtp, "/send-otp", { phone: VICTIM }, ATTACKER_IP)).status).toBe(200);
    later(11 * 60_000); // past the per-number window, so each is a real code
  }
  return orders;
}

/** The victim's part: a code, then COD at checkout. */
async function victimChecksOut() {
  later(3600_000);
  expect((await post(sendOtp, "/send-otp", { phone: VICTIM }, VICTIM_IP)).status).toBe(200);
  const verified = await jsonOf(await post(verifyOtp, "/verify-otp", { phone: VICTIM, otp: twilio.twilio.codeFor(VICTIM), selectedMode: "cod" }, VICTIM_IP));
  const checkout = await post(createCheckout, "/create-checkout", { phone: VICTIM, selectedMode: "cod", variantId: "1", proof: verified.proof }, VICTIM_IP);
  return { verified, checkout };
}

describe("the audit's griefing recipe", () => {
  it("GIVEN two unconfirmed, cancelled COD orders with the victim's number and four codes asked by someone else WHEN the victim verifies THEN the band is low and COD is offered", async () => {
    const shop = await installShop({ cancelUnconfirmed: true });
    const orders = await attack();
    // The attack landed as it did in the audit: both orders unconfirmed and learnt as failed, five codes for the number.
    expect(await prisma.orderRecord.findMany({ where: { shopId: shop.id }, select: { status: true } })).toEqual([{ status: "unconfirmed" }, { status: "unconfirmed" }]);
    expect(await prisma.orderOutcome.count({ where: { shopId: shop.id, phone: VICTIM, outcome: "failed" } })).toBe(orders.length);
    const { verified, checkout } = await victimChecksOut();
    expect(verified).toMatchObject({ success: true, allowedModes: expect.arrayContaining(["cod"]), risk: { band: "low", reasons: [] } });
    expect(checkout.status).toBe(200);
  });

  it("GIVEN the same attack WHEN the victim answered \"I did not place this order\" THEN the disputed order is out of the phone's history and the band is low", async () => {
    const shop = await installShop({ cancelUnconfirmed: true });
    await attack({ disputeFirst: true });
    expect(await prisma.orderConfirmation.count({ where: { shopId: shop.id, disputedAt: { not: null } } })).toBe(1);
    const { verified, checkout } = await victimChecksOut();
    expect(verified).toMatchObject({ allowedModes: expect.arrayContaining(["cod"]), risk: { band: "low", reasons: [] } });
    expect(checkout.status).toBe(200);
  });

  it("history the phone proved still counts: two COD orders placed with its proof and refused make it high at the merchant's 50", async () => {
    await installShop({ riskHighThreshold: 50 });
    for (const [i, order] of [provenOrderPayload(VICTIM), provenOrderPayload(VICTIM)].entries()) {
      expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
      await callRoute(ordersCancelled, signedWebhook("orders/cancelled", { ...order, cancelled_at: new Date(now).toISOString() }, { webhookId: `c-${i}` }));
    }
    const { verified, checkout } = await victimChecksOut();
    expect(verified).toMatchObject({ allowedModes: ["prepaid", "partial"], risk: { band: "high", reasons: [{ code: "rto_prone_phone" }] } });
    expect(checkout.status).toBe(403);
  });
});
