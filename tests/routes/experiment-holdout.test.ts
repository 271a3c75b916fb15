import * as settings from "~/routes/app.settings.$section";
import * as experimentPage from "~/routes/app.experiment";
import * as home from "~/routes/app._index";
import * as sendOtp from "~/routes/proxy.send-otp";
import * as createCheckout from "~/routes/proxy.create-checkout";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as cancelled from "~/routes/webhooks.orders.cancelled";
import * as fulfilled from "~/routes/webhooks.orders.fulfilled";
import { prisma } from "~/core/db.server";
import { clock } from "~/core/utils/clock.server";
import { blockPhone } from "~/otp/blocklist.server";
import { checkProof } from "~/otp/proof.server";
import type { ExperimentReport } from "~/experiment/report";
import { addDays, shopDay, shopDayStart } from "~/shared/shop-day";
import {
  cartPaymentMethodsTransformRun as run,
  type CartPaymentMethodsTransformRunInput as RunInput,
} from "../../extensions/cod-payment-customization/src/cart_payment_methods_transform_run";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/**
 * The holdout experiment through the real routes (docs/experiment.md): the merchant starts it on the
 * Settings page, send-otp assigns each shopper once and answers a held-out one as if codes were off,
 * create-checkout gives that shopper a holdout proof the checkout function accepts, orders/create tags
 * the order cod-holdout without a confirmation, and the outcomes Shopify sends make the report.
 */
const twilio = useFakeTwilio();
const shopify = useFakeShopify((f) => handlers.installDefaultHandlers(f));
beforeEach(() => handlers.installDefaultHandlers(shopify));
afterEach(() => vi.restoreAllMocks());

const phones = Array.from({ length: 40 }, (_, i) => `+9198${String(10_000_000 + i * 7919).padStart(8, "0")}`);
/** A full delivery address, so the order's own risk is not high (a high-risk order is never held out). */
const address = (phone: string) => ({ first_name: "Asha", phone, address1: "Flat 12, Shanti Apartments, MG Road", city: "Mumbai", province: "Maharashtra", zip: "400 001", country_code: "IN" });
const post = (route: typeof sendOtp | typeof createCheckout, path: string, body: Record<string, unknown>) => callRoute(route, signedRequest(path, { method: "POST", body }));
/** Each shopper from a network of their own, as real shoppers come (one network asking many numbers is a probe: experiment-probe.test.ts). */
const sendCode = (phone: string) =>
  callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone }, headers: { "x-forwarded-for": `198.18.${Number(phone.slice(-3)) % 250}.${(Number(phone.slice(-6, -3)) % 250) + 1}` } }));
const experimentForm = async (form: Record<string, string>) =>
  callAdminRoute<{ ok: boolean; message: string; errors: Record<string, string> }>(settings, await adminRequest("/app/settings/experiment", { form }), { section: "experiment" });
/** The costs the report counts money with, saved on the settings' Costs page. */
const saveCosts = async (form: Record<string, string>) => callAdminRoute<{ status: string }>(settings, await adminRequest("/app/settings/costs", { form }), { section: "costs" });
const webhook = (route: typeof ordersCreate | typeof cancelled | typeof fulfilled, topic: string, payload: unknown, id: string) =>
  callRoute(route, signedWebhook(topic, payload, { webhookId: id }));

/** The checkout function's input for a cart carrying `proof`, the buyer's phone `phone`, and a COD method. */
function functionInput(proof: string | null, phone: string): RunInput {
  return {
    cart: { proof: proof ? { value: proof } : null, buyerIdentity: { phone, customer: null }, deliveryGroups: [{ deliveryAddress: { phone } }] },
    paymentMethods: [{ id: "gid://shopify/PaymentCustomizationPaymentMethod/1", name: "Cash on Delivery (COD)" }],
    paymentCustomization: { metafield: { jsonValue: { codMethodNames: ["Cash on Delivery (COD)"], enforce: true } } },
    shop: { localTime: { date: new Date().toISOString().slice(0, 10) } },
  };
}

/** Starts an experiment at `percent` % through the Settings page and sends a code request for every phone; returns the arms seen. */
/**
 * Starts an experiment and sends a code to each of the 40 shoppers; with `atLeast`, to more shoppers (at most 40
 * more) until each arm has that many: the draw is random by the experiment's id, and a test that plans orders for
 * five held-out shoppers must not fail the runs where the first 40 held out only four.
 */
async function startAndAssign(percent = "30", atLeast: { held: number; asked: number } = { held: 0, asked: 0 }) {
  const started = await experimentForm({ intent: "experiment-start", holdoutPercent: percent, days: "" });
  expect(started.status).toBe(200);
  expect(started.data).toMatchObject({ ok: true });
  const held: string[] = [];
  const asked: string[] = [];
  const more = Array.from({ length: 40 }, (_, i) => `+9197${String(10_000_000 + i * 7919).padStart(8, "0")}`);
  for (const phone of [...phones, ...more]) {
    if (!phones.includes(phone) && held.length >= atLeast.held && asked.length >= atLeast.asked) break;
    const res = await sendCode(phone);
    expect(res.status).toBe(200);
    const body = await jsonOf(res);
    if (body.skipped) {
      // Exactly what a shop that asks no code answers: nothing names the arm.
      expect(body).toEqual({ success: true, skipped: true, reason: "otp_disabled" });
      held.push(phone);
    } else asked.push(phone);
  }
  return { held, asked };
}

describe("the holdout experiment", () => {
  it("assigns each shopper once, stably, before answering; a held-out shopper gets no code and pays COD through a holdout proof", async () => {
    await installShop();
    const { held, asked } = await startAndAssign("30");
    // Random by the keyed hash: some of each at 30 % of 40 shoppers (none held out: 0.7^40, under one run in a million).
    expect(held.length).toBeGreaterThan(0);
    expect(asked.length).toBeGreaterThan(0);
    expect(twilio.twilio.messages.map((m) => m.to).sort()).toEqual([...asked].sort());
    const rows = await prisma.experimentAssignment.findMany();
    expect(rows).toHaveLength(phones.length);
    expect(rows.filter((r) => r.arm === "holdout").map((r) => r.phone).sort()).toEqual([...held].sort());
    // A held-out shopper has no pending code and the same arm on every later visit.
    expect(await prisma.otpChallenge.count({ where: { phone: { in: held } } })).toBe(0);
    // The dashboard counts the codes that went, not the held-out shoppers' (counted with the reservation, then taken back).
    const sent = await prisma.dailyStat.findMany({ where: { metric: "otp_sent" } });
    expect(sent.reduce((n, r) => n + r.count, 0)).toBe(asked.length);
    for (const phone of held.slice(0, 3)) expect(await jsonOf(await sendCode(phone))).toMatchObject({ skipped: true });
    expect(await prisma.experimentAssignment.count()).toBe(phones.length);

    // create-checkout: COD without a code, with a v3 proof on the cart that the checkout function accepts.
    const res = await post(createCheckout, "/create-checkout", { phone: held[0], selectedMode: "cod", variantId: "1" });
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toHaveProperty("checkoutUrl");
    const attrs = (shopify.callsTo(OPERATIONS.cartCreate).at(-1)!.variables.input as { attributes: { key: string; value: string }[] }).attributes;
    const proof = attrs.find((a) => a.key === "_cod_proof")!.value;
    expect(proof.startsWith("v3.")).toBe(true);
    expect(checkProof(SHOP, proof)).toMatchObject({ ok: true, proof: { holdout: true, phone: held[0] } });
    expect(run(functionInput(proof, held[0]))).toEqual({ operations: [] });
    // The same proof on another phone's checkout, or no proof, still hides COD.
    expect(run(functionInput(proof, asked[0])).operations).toHaveLength(1);
    expect(run(functionInput(null, held[0])).operations).toHaveLength(1);

    // A shopper asked to verify gets no COD without a code, and a holdout proof never stands for a verification.
    expect((await post(createCheckout, "/create-checkout", { phone: asked[0], selectedMode: "cod", variantId: "1" })).status).toBe(403);
    expect((await post(createCheckout, "/create-checkout", { phone: held[0], selectedMode: "cod", variantId: "1", proof })).status).toBe(200);
    const swapped = await post(createCheckout, "/create-checkout", { phone: asked[0], selectedMode: "cod", variantId: "1", proof });
    expect(swapped.status).toBe(403);

    // orders/create: the held-out order is tagged cod-holdout and opens no confirmation; the asked one is pending.
    const heldOrder = orderCreatedPayload({ phone: held[0], shipping_address: address(held[0]), note_attributes: [{ name: "_cod_proof", value: proof }] });
    const askedOrder = orderCreatedPayload({ phone: asked[0], shipping_address: address(asked[0]) });
    expect((await webhook(ordersCreate, "orders/create", heldOrder, "oc-held")).status).toBe(200);
    expect((await webhook(ordersCreate, "orders/create", askedOrder, "oc-asked")).status).toBe(200);
    expect(await prisma.orderConfirmation.count({ where: { orderGid: heldOrder.admin_graphql_api_id } })).toBe(0);
    expect(await prisma.orderConfirmation.count({ where: { orderGid: askedOrder.admin_graphql_api_id } })).toBe(1);
    const tagsOf = async (gid: string) =>
      (await prisma.job.findMany({ where: { kind: "order-tags" } })).map((j) => JSON.parse(j.payload) as { orderGid: string; tags: string[] }).find((p) => p.orderGid === gid)?.tags;
    expect(await tagsOf(heldOrder.admin_graphql_api_id)).toEqual(expect.arrayContaining(["cod-holdout"]));
    expect(await tagsOf(heldOrder.admin_graphql_api_id)).not.toContain("cod-unverified");
    expect(await tagsOf(askedOrder.admin_graphql_api_id)).not.toContain("cod-holdout");

    // A held-out shopper's order that is itself high risk (no street, no postal code) is never held out: confirmed after purchase.
    const risky = orderCreatedPayload({ phone: held[0], shipping_address: { first_name: "A", phone: held[0], country_code: "IN" }, note_attributes: [{ name: "_cod_proof", value: proof }] });
    expect((await webhook(ordersCreate, "orders/create", risky, "oc-risky")).status).toBe(200);
    expect(await prisma.orderConfirmation.count({ where: { orderGid: risky.admin_graphql_api_id } })).toBe(1);
    expect(await tagsOf(risky.admin_graphql_api_id)).not.toContain("cod-holdout");
  });

  it("never holds out a blocked number or a merchant rule's match (a high band), and records no arm for them", async () => {
    const [blocked, prepaidOnly] = phones;
    const shop = await installShop({ riskPrepaidPhones: prepaidOnly });
    await blockPhone(shop, blocked);
    // 30 %: with 40 shoppers some are held out, so an empty arm for these two is not luck of the draw.
    await experimentForm({ intent: "experiment-start", holdoutPercent: "30", days: "" });
    expect((await sendCode(blocked)).status).toBe(403);
    const rule = await jsonOf(await sendCode(prepaidOnly));
    expect(rule.skipped).toBeUndefined();
    expect(rule).toMatchObject({ risk: { band: "high" } });
    expect(await prisma.experimentAssignment.count({ where: { phone: { in: [blocked, prepaidOnly] } } })).toBe(0);
    // A held-out shopper who is blocked later gets no COD at checkout.
    for (const phone of phones.slice(2)) await sendCode(phone);
    const heldRow = await prisma.experimentAssignment.findFirstOrThrow({ where: { arm: "holdout" } });
    await blockPhone(shop, heldRow.phone);
    expect((await post(createCheckout, "/create-checkout", { phone: heldRow.phone, selectedMode: "cod", variantId: "1" })).status).toBe(403);
  });

  it("stops: the held-out shoppers are asked for a code again, and a second start while one runs is refused", async () => {
    await installShop();
    const { held } = await startAndAssign("30");
    expect(await experimentForm({ intent: "experiment-start", holdoutPercent: "10", days: "" })).toMatchObject({ status: 422, data: { ok: false } });
    expect((await experimentForm({ intent: "experiment-stop" })).data).toMatchObject({ ok: true });
    expect(await prisma.experiment.findFirstOrThrow()).toMatchObject({ runningShopId: null, stoppedAt: expect.any(Date) });
    const again = await jsonOf(await sendCode(held[0]));
    expect(again).toMatchObject({ success: true, expiresIn: 600 });
    expect(twilio.twilio.messages.map((m) => m.to)).toContain(held[0]);
  });

  it("assigns nobody while verification is paused (no plan): the other group would not be asked either", async () => {
    await installShop({ subscriptionStatus: "none" });
    await experimentForm({ intent: "experiment-start", holdoutPercent: "30", days: "" });
    for (const phone of phones.slice(0, 10)) expect((await sendCode(phone)).status).toBe(402);
    expect(await prisma.experimentAssignment.count()).toBe(0);
  });

  it("records one arm per shopper however many requests arrive at once", async () => {
    await installShop();
    await experimentForm({ intent: "experiment-start", holdoutPercent: "30", days: "" });
    const answers = await Promise.all(Array.from({ length: 8 }, () => sendCode(phones[0])).concat(Array.from({ length: 8 }, () => sendCode(phones[1]))));
    expect(answers.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    expect(await prisma.experimentAssignment.count()).toBe(2);
  });

  it("ends by itself after the period the merchant set: the report says stopped and shoppers are asked again", async () => {
    await installShop();
    const start = new Date();
    vi.spyOn(clock, "now").mockReturnValue(start);
    expect((await experimentForm({ intent: "experiment-start", holdoutPercent: "30", days: "2" })).data).toMatchObject({ ok: true });
    const held: string[] = [];
    for (const phone of phones) if ((await jsonOf(await sendCode(phone))).skipped) held.push(phone);
    expect(held.length).toBeGreaterThan(0);
    // Two whole days of the shop's after the start day: it ends at the midnight that ends the second.
    const end = shopDayStart(addDays(shopDay(start, null), 3), null);
    vi.spyOn(clock, "now").mockReturnValue(new Date(end.getTime() - 1000));
    expect(await jsonOf(await sendCode(held[0]))).toMatchObject({ skipped: true });
    vi.spyOn(clock, "now").mockReturnValue(new Date(end.getTime() + 1000));
    expect(await jsonOf(await sendCode(held[0]))).toMatchObject({ success: true, expiresIn: 600 });
    const page = await callAdminRoute<{ report: ExperimentReport }>(experimentPage, await adminRequest("/app/experiment"));
    expect(page.data!.report).toMatchObject({ running: false, endsAt: end.toISOString(), days: { first: shopDay(start, null), last: addDays(shopDay(start, null), 2) } });
    // A new experiment may start once the old one has ended.
    expect((await experimentForm({ intent: "experiment-start", holdoutPercent: "10", days: "" })).data).toMatchObject({ ok: true });
  });

  it("Settings says before the start whether a share and period can reach a result at the store's pace: 29 COD orders in 90 days cannot", async () => {
    await installShop();
    for (let i = 0; i < 29; i++) {
      const o = orderCreatedPayload({ phone: phones[i], shipping_address: address(phones[i]), billing_address: address(phones[i]) });
      expect((await callRoute(ordersCreate, signedWebhook("orders/create", o))).status).toBe(200);
    }
    const page = await callAdminRoute<{ experiment: { pace: { codOrders: number; paceDays: number; horizons: Record<number, number> } | null } }>(settings, await adminRequest("/app/settings/experiment"), { section: "experiment" });
    const pace = page.data!.experiment.pace!;
    expect(pace).toMatchObject({ codOrders: 29, paceDays: 90 });
    expect(pace.horizons[10]).toBe(990);
    const { experimentReach } = await import("~/experiment/reach");
    expect(experimentReach(pace, 10, 90)).toMatchObject({ kind: "never", needed: 990, suggestion: null });
    // A running experiment's card has no choice to judge.
    expect((await experimentForm({ intent: "experiment-start", holdoutPercent: "10", days: "" })).status).toBe(200);
    const running = await callAdminRoute<{ experiment: { pace: unknown } }>(settings, await adminRequest("/app/settings/experiment"), { section: "experiment" });
    expect(running.data!.experiment.pace).toBeNull();
  });

  it("plans with the shop's own failure rate from its newest 10,000 delivered or failed orders, however many it learnt", async () => {
    const shop = await installShop();
    const { plannedOrders, dropToFind } = await import("~/experiment/stats");
    const { RATE_OUTCOMES } = await import("~/experiment/experiment.server");
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000);
    // The oldest 500 all failed; of the newest 10,000, one in ten failed (and a few learnt nothing: none).
    const outcomes = [
      ...Array.from({ length: 500 }, (_, i) => ({ outcome: "failed", decidedAt: at(100_000 + i) })),
      ...Array.from({ length: RATE_OUTCOMES }, (_, i) => ({ outcome: i % 10 === 0 ? "failed" : "delivered", decidedAt: at(i + 10) })),
      ...Array.from({ length: 30 }, (_, i) => ({ outcome: "none", decidedAt: at(i) })),
    ];
    await prisma.orderOutcome.createMany({ data: outcomes.map((o, i) => ({ shopId: shop.id, orderGid: `gid://shopify/Order/${i}`, reason: "fulfilled", ...o })) });
    const page = await callAdminRoute<{ experiment: { pace: { horizons: Record<number, number> } } }>(settings, await adminRequest("/app/settings/experiment"), { section: "experiment" });
    const planned = (baseline: number) => plannedOrders({ baseline, drop: Math.min(dropToFind(baseline), baseline), holdoutShare: 0.1 });
    expect(page.data!.experiment.pace.horizons[10]).toBe(planned(0.1));
    expect(planned(0.1)).not.toBe(planned(1500 / 10_500));
  });

  it("refuses a share outside 5-30 % and a period past a year, and changes nothing", async () => {
    await installShop();
    const forms: Record<string, string>[] = [
      { intent: "experiment-start", holdoutPercent: "40", days: "" },
      { intent: "experiment-start", holdoutPercent: "4", days: "" },
      { intent: "experiment-start", holdoutPercent: "10", days: "400" },
      { intent: "experiment-start", holdoutPercent: "ten", days: "" },
    ];
    for (const form of forms) {
      const res = await experimentForm(form);
      expect(res.status, JSON.stringify(form)).toBe(422);
      expect(Object.keys(res.data!.errors).length).toBeGreaterThan(0);
    }
    expect(await prisma.experiment.count()).toBe(0);
  });

  it("reports per arm from the outcomes Shopify sends: counts, rates, the difference and money saved, on the report page and Home", async () => {
    await installShop({ currency: "INR", country: "IN" });
    const { held, asked } = await startAndAssign("30", { held: 5, asked: 11 });
    expect((await saveCosts({ codFailureCost: "250", messageCost: "0.5" })).data).toMatchObject({ status: "saved" });
    // Planted: of each arm's first orders, held-out shoppers fail 3 in 4, asked ones 1 in 5; one order per arm stays open.
    const plan: { phone: string; fate: "failed" | "delivered" | "open" }[] = [
      ...held.slice(0, 4).map((phone, i) => ({ phone, fate: i < 3 ? ("failed" as const) : ("delivered" as const) })),
      { phone: held[4], fate: "open" },
      ...asked.slice(0, 10).map((phone, i) => ({ phone, fate: i < 2 ? ("failed" as const) : ("delivered" as const) })),
      { phone: asked[10], fate: "open" },
    ];
    let n = 0;
    for (const { phone, fate } of plan) {
      const order = orderCreatedPayload({ phone, shipping_address: address(phone), cancelled_at: fate === "failed" ? new Date().toISOString() : null });
      expect((await webhook(ordersCreate, "orders/create", order, `oc-${n}`)).status).toBe(200);
      if (fate === "failed") expect((await webhook(cancelled, "orders/cancelled", order, `c-${n}`)).status).toBe(200);
      if (fate === "delivered") expect((await webhook(fulfilled, "orders/fulfilled", { ...order, fulfillment_status: "fulfilled" }, `f-${n}`)).status).toBe(200);
      n++;
    }
    const page = await callAdminRoute<{ report: ExperimentReport; sentence: string }>(experimentPage, await adminRequest("/app/experiment"));
    expect(page.status).toBe(200);
    const { report, sentence } = page.data!;
    expect(report.holdout).toMatchObject({ shoppers: held.length, codOrders: 5, delivered: 1, failed: 3, open: 1, messages: 0 });
    expect(report.verified).toMatchObject({ shoppers: asked.length, codOrders: 11, delivered: 8, failed: 2, open: 1 });
    // Every asked shopper got one code; the confirmation after purchase texted the open and failed orders' shoppers too.
    expect(report.verified.messages).toBeGreaterThanOrEqual(asked.length);
    expect(report.verified.messagesCost).toBeCloseTo(report.verified.messages * 0.5, 9);
    expect(report.holdout.rate.estimate).toBeCloseTo(0.75, 9);
    expect(report.verified.rate.estimate).toBeCloseTo(0.2, 9);
    expect(report.reading.difference.estimate).toBeCloseTo(0.55, 9);
    // 14 resolved orders are far from the planned horizon: no verdict, and the sentence says so.
    expect(report.reading.verdict).toBe("collecting");
    expect(report.reading.ordersToHorizon).toBe(report.horizon - 14);
    expect(sentence).toMatch(/^So far failed deliveries went from 75 % to 20 % \(95 % CI -?\d+(-| to )\d+ points\) over 16 COD orders; .*needs [\d,]+ more delivered or failed orders/);
    expect(report.saved!.estimate).toBeCloseTo(11 * 0.55 * 250 - report.verified.messages * 0.5, 6);
    const homePage = await callAdminRoute<{ experiment: { sentence: string; running: boolean } }>(home, await adminRequest("/app"));
    expect(homePage.data!.experiment).toEqual({ sentence, running: true });
  });
});
