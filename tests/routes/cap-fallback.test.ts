import * as sendOtp from "~/routes/proxy.send-otp";
import * as createCheckout from "~/routes/proxy.create-checkout";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as home from "~/routes/app._index";
import { prisma } from "~/core/db.server";
import { runDueJobs as runJobs } from "~/core/jobs/queue.server";
import { log } from "~/core/utils/log.server";
import { checkProof, PROOF_ATTRIBUTE } from "~/otp/proof.server";
import { JOB_KINDS } from "~/server-build";
import {
  cartPaymentMethodsTransformRun as run,
  type CartPaymentMethodsTransformRunInput as RunInput,
} from "../../extensions/cod-payment-customization/src/cart_payment_methods_transform_run";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { useFakeShopify } from "../helpers/fake-shopify";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/**
 * A spent daily cap leaves honest shoppers a way to pay (docs/security.md, "When the daily cap is spent"):
 * the shop's fallback applies, by default cash on delivery confirmed after purchase (no code, a v4 proof
 * the checkout function accepts, a confirmation that opens on the order like any unverified one); or, as
 * the merchant chooses, prepaid only. Nothing is sent past the cap, refusals are counted, one log line a day.
 */
const twilio = useFakeTwilio();
const shopify = useFakeShopify();
let tagged: Map<string, Set<string>>;
beforeEach(() => {
  tagged = new Map();
  handlers.installDefaultHandlers(shopify, {}, tagged);
  new FakeEnforcementStore(tagged).install(shopify);
});
afterEach(() => vi.restoreAllMocks());

const send = (phone: string, ip = "198.51.100.7") =>
  callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone }, headers: { "x-forwarded-for": ip } }));
const checkout = (phone: string) => callRoute(createCheckout, signedRequest("/create-checkout", { method: "POST", body: { phone, selectedMode: "cod", variantId: "1" } }));
const numbers = (n: number) => Array.from({ length: n }, (_, i) => `+9198${String(30_000_000 + i * 1_013).padStart(8, "0")}`);

function functionInput(proof: string | null, phone: string): RunInput {
  return {
    cart: { proof: proof ? { value: proof } : null, buyerIdentity: { phone, customer: null }, deliveryGroups: [{ deliveryAddress: { phone } }] },
    paymentMethods: [{ id: "gid://shopify/PaymentCustomizationPaymentMethod/1", name: "Cash on Delivery (COD)" }],
    paymentCustomization: { metafield: { jsonValue: { codMethodNames: ["Cash on Delivery (COD)"], enforce: true } } },
    shop: { localTime: { date: new Date().toISOString().slice(0, 10) } },
  };
}

describe("at the shop's daily cap", () => {
  it("a shopper gets cash on delivery confirmed after purchase: no code, a cart COD shows on, an order confirmed like any unverified one", async () => {
    await installShop({ dailySendCap: 3, otpResendCooldownSeconds: 0 });
    const [a, b, c, shopper] = numbers(4);
    for (const [i, phone] of [a, b, c].entries()) expect((await send(phone, `198.51.${i}.7`)).status).toBe(200);
    const res = await send(shopper, "192.0.2.44");
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toMatchObject({ success: true, skipped: true, reason: "cap_fallback" });
    expect(twilio.twilio.messages).toHaveLength(3);

    const built = await checkout(shopper);
    expect(built.status).toBe(200);
    expect(await jsonOf(built)).toHaveProperty("checkoutUrl");
    const attrs = (shopify.callsTo(OPERATIONS.cartCreate).at(-1)!.variables.input as { attributes: { key: string; value: string }[] }).attributes;
    const proof = attrs.find((x) => x.key === PROOF_ATTRIBUTE)!.value;
    expect(proof.startsWith("v4.")).toBe(true);
    expect(checkProof(SHOP, proof)).toMatchObject({ ok: true, proof: { unverified: true, holdout: false, phone: shopper } });
    // The checkout function shows COD for it, and for no other phone.
    expect(run(functionInput(proof, shopper))).toEqual({ operations: [] });
    expect(run(functionInput(proof, a)).operations).toHaveLength(1);

    // The order: not verified by the proof; a confirmation opens (cod-pending), and its link is not texted past the cap.
    const order = orderCreatedPayload({ phone: shopper, note_attributes: [{ name: PROOF_ATTRIBUTE, value: proof }] });
    expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
    await runJobs(JOB_KINDS);
    await runJobs(JOB_KINDS);
    expect([...(tagged.get(order.admin_graphql_api_id) ?? [])]).toContain("cod-pending");
    expect(await prisma.orderConfirmation.count({ where: { phone: shopper } })).toBe(1);
    expect(twilio.twilio.messages).toHaveLength(3);
  });

  it("is counted, not logged one by one: 30 shoppers past the cap write one warning, and Home tells the merchant", async () => {
    await installShop({ dailySendCap: 2, otpResendCooldownSeconds: 0 });
    const warn = vi.spyOn(log, "warn");
    const phones = numbers(32);
    for (const [i, phone] of phones.entries()) await send(phone, `203.0.${i}.9`);
    expect(twilio.twilio.messages).toHaveLength(2);
    expect(warn.mock.calls.filter(([msg]) => String(msg).includes("daily send cap"))).toHaveLength(1);
    const stat = await prisma.dailyStat.findMany({ where: { metric: "otp_refused" } });
    expect(stat.map((s) => [s.dimension, s.count])).toEqual([["cap_fallback", 30]]);
    const page = await callAdminRoute<{ unusualUse: { capReachedToday: number } }>(home, await adminRequest("/app"));
    expect(page.data!.unusualUse.capReachedToday).toBe(30);
  });

  it("never sends past the cap, however many ask at once (both engines)", async () => {
    await installShop({ dailySendCap: 5, otpResendCooldownSeconds: 0 });
    const answers = await Promise.all(numbers(25).map((phone, i) => send(phone, `198.18.${i}.1`)));
    const bodies = await Promise.all(answers.map(jsonOf));
    // Exactly the cap's 5 passed (a provider too slow on a busy machine answers 502 and keeps its hit), never more texts.
    expect(twilio.twilio.messages.length).toBeLessThanOrEqual(5);
    expect(bodies.filter((b) => b.reason === "cap_fallback")).toHaveLength(20);
  });

  it("with the merchant's fallback set to prepaid only: 429 shop_daily_cap, and create-checkout keeps COD for verified shoppers only", async () => {
    await installShop({ dailySendCap: 1, capFallback: "prepaid_only" });
    const [a, shopper] = numbers(2);
    expect((await send(a)).status).toBe(200);
    const res = await send(shopper, "192.0.2.45");
    expect(res.status).toBe(429);
    expect(await jsonOf(res)).toMatchObject({ code: "shop_daily_cap" });
    expect((await checkout(shopper)).status).toBe(403);
  });

  it("below the cap an unverified shopper gets no COD at create-checkout (the fallback is the cap's only)", async () => {
    await installShop({ dailySendCap: 10 });
    expect((await checkout(numbers(1)[0])).status).toBe(403);
  });
});
