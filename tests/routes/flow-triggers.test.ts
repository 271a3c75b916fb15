import * as confirmPage from "~/routes/proxy.vc.$token";
import * as fulfilled from "~/routes/webhooks.orders.fulfilled";
import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import { prisma } from "~/core/db.server";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import { FakeFlow } from "../mocks/shopify/flow";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { signedWebhook } from "../helpers/webhooks";
import { carrierEvent, codOrder, PHONE, placeOrder, work } from "../helpers/delivery";

/**
 * Shopify Flow triggers from outside: signed webhooks and the shopper's pages fire them, the job worker
 * sends them with flowTriggerReceive, and the fake Shopify holds each call to the trigger's deployed
 * extension (handle, field keys and types). Each starts the merchant's workflows once per order,
 * whatever Shopify redelivers; a Shopify that cannot be reached is retried.
 */
const shopify = useFakeShopify();
const twilio = useFakeTwilio();
let flow: FakeFlow;

beforeEach(() => {
  const tagged = new Map<string, Set<string>>();
  handlers.installDefaultHandlers(shopify, {}, tagged);
  new FakeEnforcementStore(tagged).install(shopify);
  flow = new FakeFlow().install(shopify);
});

const idOf = (gid: string) => gid.split("/").pop()!;
const payloadsOf = (handle: string) => flow.runsOf(handle).map((r) => r.payload);

describe("orders/create", () => {
  it("fires verified, unverified (pending the shopper's confirmation) and high risk for COD orders, once each, and nothing for a card order", async () => {
    await installShop({ riskDeniedPostalCodes: "400001" });
    // Verified: the shopper proved the phone through the storefront; the order carries the proof.
    expect((await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE } }))).status).toBe(200);
    const verified = await jsonOf(await callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body: { phone: PHONE, otp: twilio.twilio.codeFor(PHONE), selectedMode: "cod" } })));
    const proven = codOrder({ phone: PHONE, shipping_address: { first_name: "Asha", phone: PHONE, city: "Pune", zip: "411001", country_code: "IN" }, note_attributes: [{ name: "_cod_proof", value: verified.proof }] });
    const unproven = codOrder({ phone: "+919811122233" });
    const card = codOrder({ gateway: "shopify_payments", payment_gateway_names: ["shopify_payments"] });
    for (const o of [proven, unproven, card]) await placeOrder(o);
    await placeOrder(unproven);
    await Promise.all([placeOrder(proven), placeOrder(proven)]);
    await work();
    expect(payloadsOf("cod-order-verified")).toEqual([{ order_id: idOf(proven.admin_graphql_api_id), "payment mode": "cod", "verified by": "proof" }]);
    expect(payloadsOf("cod-order-unverified")).toEqual([{ order_id: idOf(unproven.admin_graphql_api_id), "payment mode": "", status: "pending" }]);
    // The unverified order ships to the denied postal code 400001: high, with the rule's code.
    expect(payloadsOf("cod-order-high-risk")).toEqual([{ order_id: idOf(unproven.admin_graphql_api_id), "risk score": expect.any(Number), "risk reasons": "postal_code_denied, otp_unverified, new_customer" }]);
    expect(flow.runs.every((r) => r.payload.order_id !== idOf(card.admin_graphql_api_id))).toBe(true);
  });

  it("keeps a trigger while Shopify cannot be reached and sends it once it can; Flow's refusal is not retried", async () => {
    await installShop({ otpEnabled: false });
    shopify.on(OPERATIONS.flowTriggerReceive, handlers.serverError(503), "admin");
    const o = codOrder();
    await placeOrder(o);
    await work();
    expect(flow.runs).toHaveLength(0);
    const job = await prisma.job.findFirstOrThrow({ where: { kind: "flow.trigger" } });
    expect(job).toMatchObject({ doneAt: null, failedAt: null, lastError: expect.stringMatching(/http_error|503/) });
    flow.install(shopify);
    await prisma.job.updateMany({ where: { kind: "flow.trigger" }, data: { nextAttemptAt: new Date() } });
    await work();
    expect(payloadsOf("cod-order-unverified")).toEqual([{ order_id: idOf(o.admin_graphql_api_id), "payment mode": "", status: "unverified" }]);

    // A payload Flow refuses (a trigger not deployed) fails at once: sending it again would be refused again.
    await prisma.job.create({
      data: { id: "refused", kind: "flow.trigger", key: "x", shop: "test-shop.myshopify.com", payload: JSON.stringify({ handle: "cod-not-deployed", orderGid: o.admin_graphql_api_id, fields: {} }), nextAttemptAt: new Date() },
    });
    await work();
    expect(await prisma.job.findUniqueOrThrow({ where: { id: "refused" } })).toMatchObject({ attempts: 1, failedAt: expect.any(Date), lastError: expect.stringContaining("No trigger with handle") });
  });
});

describe("after purchase and after delivery", () => {
  it("the shopper's confirmation on the texted link fires 'confirmed by the shopper' with its channel", async () => {
    await installShop();
    const o = codOrder({ phone: PHONE });
    await placeOrder(o);
    await work();
    const sms = twilio.twilio.messages.find((m) => /\/vc\//.test(m.body))!;
    const token = /\/vc\/([A-Za-z0-9_-]{32})/.exec(sms.body)![1];
    const form = (fields: Record<string, string>) =>
      callRoute(confirmPage, signedRequest(`/vc/${token}`, { method: "POST", body: new URLSearchParams(fields).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } }), { token });
    const nonce = /name="nonce" value="([^"]+)"/.exec(await (await callRoute(confirmPage, signedRequest(`/vc/${token}`), { token })).text())![1];
    expect((await form({ nonce, intent: "send" })).status).toBe(200);
    expect((await form({ nonce, intent: "confirm", code: twilio.twilio.codeFor(PHONE) })).status).toBe(200);
    await work();
    expect(payloadsOf("cod-order-shopper-answered")).toEqual([{ order_id: idOf(o.admin_graphql_api_id), answer: "confirmed", channel: "sms" }]);
  });

  it("an outcome learnt fires once per order and outcome: delivered, then the carrier's failure; redeliveries add nothing", async () => {
    await installShop({ otpEnabled: false });
    const o = codOrder();
    await placeOrder(o);
    // An orders/fulfilled body is a fulfilled order (Shopify's; the app ignores one that is not).
    for (let i = 0; i < 2; i++) expect((await callRoute(fulfilled, signedWebhook("orders/fulfilled", { ...o, fulfillment_status: "fulfilled" }))).status).toBe(200);
    await carrierEvent(o, "failure", "f-1");
    await carrierEvent(o, "failure", "f-2");
    // A delivery seen after the failure leaves the order failed: nothing new to tell.
    await carrierEvent(o, "delivered", "d-1");
    await work();
    expect(payloadsOf("cod-outcome-learnt")).toEqual([
      { order_id: idOf(o.admin_graphql_api_id), outcome: "delivered", reason: "fulfilled" },
      { order_id: idOf(o.admin_graphql_api_id), outcome: "failed", reason: "carrier:failure" },
    ]);
  });
});
