import { FakeCustomerStore } from "./customers";
import { LOCAL_DEFAULTS } from "../../../app/server/app-proxy-signature.mjs";
import { z } from "zod";
import { FakeShopify, type Handler, type PageHandler } from "./server";
import {
  CHECKOUT_OPERATIONS,
  cartCreateUserErrors,
  cartLinesUpdate,
  draftOrderCalculate,
  draftOrderCreate,
  draftOrderCreateUserErrors,
  FAKE_UNIT_PRICE,
  graphqlErrors,
  installDefaultHandlers,
  OPERATIONS,
  paymentTermsTemplates,
  serverError,
  slow,
  tagsAdd,
  orderRiskAssessmentCreate,
  orderRiskAssessmentUserErrors,
  type FakeRiskAssessment,
  throttled,
  tooManyRequests,
  type CheckoutLinks,
  type CheckoutOperation,
} from "./handlers";
import { FakeOrderStore, fakeOrder } from "./orders";
import { ENFORCEMENT_USER_ERRORS, FakeEnforcementStore } from "./enforcement";
import { FakeBillingStore } from "./billing";
import { FakeDepositStore, orderEditRefused } from "./deposits";
import { installOnboardingHandlers } from "./onboarding";
import { FakeDeliveryStore } from "./delivery";
import { deliverWebhook, installLocalOrders, type LocalOrders } from "./local-orders";
import { orderLearners } from "./learnt-orders";
import { FakePrepaidStore } from "./prepaid";
import { FakeFlow } from "./flow";
import { cartPaymentMethodsTransformRun, shopDateOf, type FunctionConfiguration } from "../../../extensions/cod-payment-customization/src/cart_payment_methods_transform_run";

/**
 * Local mode's Shopify: the fake Shopify as a separate HTTP server that the app reaches through
 * SHOPIFY_API_ORIGIN, exactly as tests reach it. `npm run local` starts it (scripts/local.mjs) beside
 * the app. Besides the Admin and Storefront GraphQL endpoints it serves:
 *   GET  /local/checkout?c=...                    the stand-in for Shopify's checkout its carts and draft orders point at
 *   GET  /answers                                 how each checkout operation is answered now, and the possible answers
 *   POST /answers { operation, answer }           e.g. { "operation": "cartCreate", "answer": "throttled" }
 *   GET  /charges/confirm?id=<n>                  Shopify's page where the merchant approves a plan's charge
 *   POST /local/checkout/pay?c=...                pays a cart: the order is created (a deposit code counted as used)
 *   GET  /orders                                  what the app did to each order: tags, holds, cancellations, total/paid/outstanding,
 *                                                 and its payment customizations (HTML; JSON with Accept: application/json)
 * /local/checkout also runs the checkout function (extensions/cod-payment-customization) on the cart, so
 * the payment methods the shopper would be offered show before and after verifying,
 * and knows a demo order #1001 (id 1001) whose address the address-correction flow can fix.
 */
export const LOCAL_CHECKOUT_PATH = "/local/checkout";
export const LOCAL_FAKE_ANSWERS = ["ok", "user_errors", "graphql_errors", "throttled", "http_429", "http_503", "timeout", "dropped"] as const;
export type LocalFakeAnswer = (typeof LOCAL_FAKE_ANSWERS)[number];

export type LocalShopify = { fake: FakeShopify; origin: string; stop: () => Promise<void> };

export async function startLocalShopify(options: { port?: number; host?: string; callTimeoutMs?: number } = {}): Promise<LocalShopify> {
  const fake = new FakeShopify();
  // The demo shop's offline session (scripts/setup.mjs) holds this token; a shop installed through the token exchange gets its own.
  fake.issueToken(process.env.DEMO_SHOP || LOCAL_DEFAULTS.shop, "shpat_local_demo_token");
  // Shopify would refuse it: say so where the developer looks, as the real store's error would show.
  fake.onRefusal = (r) => process.stderr.write(`[fake Shopify] refused ${r.api} ${r.operationName ?? "(anonymous)"} as Shopify would: ${r.reason}\n`);
  const links: CheckoutLinks = {
    get checkoutBase() {
      return `${fake.origin}${LOCAL_CHECKOUT_PATH}`;
    },
  };
  const tagged = new Map<string, Set<string>>();
  const assessments = new Map<string, FakeRiskAssessment[]>();
  const callTimeoutMs = options.callTimeoutMs ?? 4000;
  installDefaultHandlers(fake, links, tagged, assessments);
  // Orders the store does not hold (every order the developer creates through a webhook) are tagged as before.
  const orderStore = new FakeOrderStore([fakeOrder({ id: "gid://shopify/Order/1001", name: "#1001" })]);
  // One tag map for the whole store: tags added to an order it holds show (and are removed) where every other tag is.
  orderStore.tagged = tagged;
  orderStore.install(fake, { tagsAdd: tagsAdd(tagged) });
  const enforcement = new FakeEnforcementStore(tagged);
  enforcement.install(fake);
  // partial without draft-order deposits: deposit codes, carts that remember their lines, order edits.
  const deposits = new FakeDepositStore(links);
  deposits.install(fake);
  // The store's customers (none in local mode): blocking a number searches them for the verified tag.
  new FakeCustomerStore([], tagged).install(fake);
  // The app's subscriptions, with Shopify's approval page at /charges/confirm.
  new FakeBillingStore().install(fake);
  // What the admin's onboarding reads: the live theme's templates, recent orders' gateways.
  installOnboardingHandlers(fake);
  // Shopify Flow's triggers (held to the deployed extensions) and orders after dispatch (balance, note, answer metafield).
  const flow = new FakeFlow().install(fake);
  const delivery = new FakeDeliveryStore().install(fake);
  // Pay now after the order: the order's payments, Shopify's invoice and the reward's refund.
  const prepaid = new FakePrepaidStore();
  prepaid.install(fake);
  // Whatever the app learns about is first an order here (POST /local/orders, the checkout's pay button).
  const learnt = installLocalOrders({ fake, orders: orderStore, delivery, prepaid, enforcement, deposits });
  // A test's own signed orders/create and fulfillment_events/create teach this store while it runs (tests/helpers/webhooks.ts).
  const learner = { orderPlaced: learnt.learnOnce, carrierEvent: learnt.carrierEvent };
  orderLearners().add(learner);

  const current = new Map<CheckoutOperation, LocalFakeAnswer>(CHECKOUT_OPERATIONS.map((op) => [op, "ok"]));
  const goodAnswers: Record<CheckoutOperation, () => Handler> = {
    cartCreate: () => deposits.cartCreate(),
    draftOrderCreate: () => draftOrderCreate(links),
    draftOrderCalculate: () => draftOrderCalculate(),
    paymentTermsTemplates: () => paymentTermsTemplates(),
    tagsAdd: () => tagsAdd(tagged),
    paymentCustomizationCreate: () => enforcement.paymentCustomizationCreate(),
    paymentCustomizationUpdate: () => enforcement.paymentCustomizationUpdate(),
    orderFulfillmentOrders: () => enforcement.fulfillmentOrders(),
    fulfillmentOrderHold: () => enforcement.hold(),
    fulfillmentOrderReleaseHold: () => enforcement.releaseHold(),
    orderCancel: () => enforcement.orderCancel(),
    tagsRemove: () => enforcement.tagsRemove(),
    cartLinesUpdate: () => cartLinesUpdate(),
    depositDiscountCreate: () => deposits.discountCodeBasicCreate(),
    cartDiscountCodesUpdate: () => deposits.cartDiscountCodesUpdate(),
    orderBalanceLines: () => deposits.orderBalanceLines(),
    orderEditBegin: () => deposits.orderEditBegin(),
    orderEditAddCustomItem: () => deposits.orderEditAddCustomItem(),
    orderEditCommit: () => deposits.orderEditCommit(),
    orderRiskAssessmentCreate: () => orderRiskAssessmentCreate(assessments),
  };
  const STOREFRONT_OPERATIONS = new Set<CheckoutOperation>(["cartCreate", "cartLinesUpdate", "cartDiscountCodesUpdate"]);
  const goodAnswer = (operation: CheckoutOperation): Handler => goodAnswers[operation]();
  const userErrors = (operation: CheckoutOperation): Handler => {
    if (operation === "cartCreate") return cartCreateUserErrors();
    if (operation === "draftOrderCreate") return draftOrderCreateUserErrors();
    if (operation === "cartLinesUpdate") {
      return () => ({ data: { cartLinesUpdate: { cart: null, userErrors: [{ field: ["lines", "0", "quantity"], message: "Quantity is invalid" }] } } });
    }
    if (operation === "depositDiscountCreate") {
      return () => ({ data: { discountCodeBasicCreate: { codeDiscountNode: null, userErrors: [{ field: ["basicCodeDiscount", "code"], message: "Code must be unique. Please try a different code.", code: "TAKEN" }] } } });
    }
    if (operation === "cartDiscountCodesUpdate") {
      return () => ({ data: { cartDiscountCodesUpdate: { cart: null, userErrors: [{ code: "INVALID", field: ["discountCodes"], message: "Discount code is invalid" }] } } });
    }
    if (operation === "orderEditBegin") return orderEditRefused();
    if (operation === "orderEditAddCustomItem") {
      return () => ({ data: { orderEditAddCustomItem: { calculatedLineItem: null, userErrors: [{ field: ["price"], message: "Price must be positive." }] } } });
    }
    if (operation === "orderEditCommit") {
      return () => ({ data: { orderEditCommit: { order: null, userErrors: [{ field: ["id"], message: "The order was modified since the edit began." }] } } });
    }
    if (operation === "orderRiskAssessmentCreate") return orderRiskAssessmentUserErrors();
    if (operation === "tagsAdd") {
      return () => ({ data: { tagsAdd: { node: null, userErrors: [{ field: ["id"], message: "Order does not exist" }] } } });
    }
    if (operation === "draftOrderCalculate") {
      return () => ({
        data: { draftOrderCalculate: { calculatedDraftOrder: null, userErrors: [{ field: ["input", "lineItems"], message: "Variant is not available" }] } },
      });
    }
    const refusal = ENFORCEMENT_USER_ERRORS[operation];
    if (refusal) return refusal;
    // Queries (paymentTermsTemplates, orderFulfillmentOrders) have no user errors, only GraphQL errors.
    return graphqlErrors(`Access denied for ${operation} field.`);
  };
  const dropped: Handler = () => {
    throw new Error("connection dropped");
  };
  const handlerFor = (operation: CheckoutOperation, answer: LocalFakeAnswer): Handler =>
    ({
      ok: () => goodAnswer(operation),
      user_errors: () => userErrors(operation),
      graphql_errors: () => graphqlErrors(),
      throttled: () => throttled(),
      http_429: () => tooManyRequests(),
      http_503: () => serverError(503),
      // Longer than the app's bound on a Shopify call, so the call is abandoned.
      timeout: () => slow(callTimeoutMs + 2_000, goodAnswer(operation)),
      dropped: () => dropped,
    })[answer]();

  const answerBody = z.object({ operation: z.enum(CHECKOUT_OPERATIONS), answer: z.enum(LOCAL_FAKE_ANSWERS) });
  const jsonPage = (status: number, body: unknown) => ({ status, type: "application/json; charset=utf-8", body: JSON.stringify(body) });
  fake.page("/answers", ({ method, body }) => {
    if (method === "GET") return jsonPage(200, { answers: Object.fromEntries(current), operations: CHECKOUT_OPERATIONS, possible: LOCAL_FAKE_ANSWERS });
    if (method !== "POST") return jsonPage(405, { error: "Use GET or POST.", code: "method_not_allowed" });
    let parsed;
    try {
      parsed = answerBody.safeParse(JSON.parse(body || "null"));
    } catch {
      return jsonPage(400, { error: "The body is not JSON.", code: "invalid_json" });
    }
    if (!parsed.success) return jsonPage(400, { error: "Give an operation and an answer from the lists.", code: "invalid_request", issues: parsed.error.issues });
    const { operation, answer } = parsed.data;
    fake.on(OPERATIONS[operation], handlerFor(operation, answer), STOREFRONT_OPERATIONS.has(operation) ? "storefront" : "admin");
    current.set(operation, answer);
    return jsonPage(200, { answers: Object.fromEntries(current) });
  });
  fake.page(LOCAL_CHECKOUT_PATH, (request) => checkoutPreview(request, enforcement, deposits));
  fake.page(`${LOCAL_CHECKOUT_PATH}/pay`, (request) => payCart(request, deposits, learnt));
  fake.page("/orders", ({ url }) => ordersPage(url, enforcement, tagged, deposits, assessments, flow, { delivery, prepaid, learnt, orders: orderStore }));

  const origin = await fake.start(options.port ?? 0, options.host ?? "127.0.0.1");
  return {
    fake,
    origin,
    stop: () => {
      orderLearners().delete(learner);
      return fake.stop();
    },
  };
}

type Preview = {
  kind?: string;
  /** The shop whose checkout this is (Shopify's checkout is on the shop's domain): the order placed is that shop's. */
  shop?: string;
  lines?: { merchandiseId?: string; variantId?: string; quantity?: number }[];
  attributes?: { key: string; value: string }[];
  discountCodes?: string[];
  /** The cart's buyer as cartCreate was given it: Shopify's checkout prefills its phone. */
  buyerIdentity?: { phone?: string; countryCode?: string } | null;
  /** The draft order's customer phone (draftOrderCreate `phone`). */
  phone?: string | null;
  total?: number;
  subtotal?: number;
  dueNow?: number;
  note?: string;
};

/** The payment methods local mode's store offers: a card, and the COD methods the app configured (Shopify's by default). */
function storePaymentMethods(config: FunctionConfiguration | null) {
  const cod = config?.codMethodNames.length ? config.codMethodNames : ["Cash on Delivery (COD)"];
  return [{ id: "gid://shopify/PaymentCustomizationPaymentMethod/1", name: "Credit card" }, ...cod.map((name, i) => ({ id: `gid://shopify/PaymentCustomizationPaymentMethod/${i + 2}`, name }))];
}

/**
 * The newest customization's state and configuration, as Shopify would hand it to the function. With
 * none yet (local mode's demo shop is seeded, not installed through OAuth; saving the settings creates
 * it), the function is shown with its default configuration.
 */
function activeConfiguration(enforcement: FakeEnforcementStore): { enabled: boolean; created: boolean; config: FunctionConfiguration | null } {
  const list = [...enforcement.customizations.values()];
  const c = list[list.length - 1];
  if (!c) return { enabled: true, created: false, config: null };
  const m = c.metafields.find((x) => x.namespace === "$app:cod-verify" && x.key === "function-configuration");
  return { enabled: c.enabled, created: true, config: m ? (JSON.parse(m.value) as FunctionConfiguration) : null };
}

/** The checkout function run on this cart for a checkout phone: which methods are offered, which hidden. */
function paymentSection(attributes: { key: string; value: string }[], phone: string, enforcement: FakeEnforcementStore, url: URL): string {
  const { enabled, created, config } = activeConfiguration(enforcement);
  const methods = storePaymentMethods(config);
  const proof = attributes.find((a) => a.key === "_cod_proof")?.value ?? null;
  const out = enabled
    ? cartPaymentMethodsTransformRun({
        cart: { proof: proof === null ? null : { value: proof }, buyerIdentity: { phone: phone || null, customer: null }, deliveryGroups: [{ deliveryAddress: { phone: phone || null } }] },
        paymentMethods: methods,
        paymentCustomization: { metafield: config ? { jsonValue: config } : null },
        // Shopify gives the shop's date; the zone the app wrote into the configuration stands for the shop's.
        shop: { localTime: { date: config?.utcOffsets ? shopDateOf(Math.floor(Date.now() / 1000), config) : new Date().toISOString().slice(0, 10) } },
      })
    : { operations: [] };
  const hidden = new Set(out.operations.map((o) => o.paymentMethodHide.paymentMethodId));
  const rows = methods.map((m) => `<li>${esc(m.name)}: <strong>${hidden.has(m.id) ? "hidden" : "offered"}</strong></li>`).join("");
  const status = enabled
    ? proof
      ? "This cart carries a verification proof; cash on delivery is offered only when the checkout phone is the verified one."
      : "This cart carries no verification proof: cash on delivery is hidden."
    : "The app has disabled its payment customization in this store (setting, plan or phone verification off): the checkout function does not run.";
  const note = created ? "" : " (The app has not created its payment customization here yet: saving the settings does; shown with the default configuration.)";
  return `<h2>Payment methods at checkout</h2><p>${esc(status + note)}</p>
<form method="get"><input type="hidden" name="c" value="${esc(url.searchParams.get("c") ?? "")}"><label>Phone typed at checkout <input name="phone" value="${esc(phone)}"></label> <button>Run the checkout function</button></form>
<ul>${rows}</ul>`;
}

/** GET /local/checkout?c=...: what the shopper would pay, as the fake's cart or draft order was given it. */
const checkoutPreview = ({ url }: Parameters<PageHandler>[0], enforcement: FakeEnforcementStore, deposits: FakeDepositStore): ReturnType<PageHandler> => {
  let data: Preview;
  try {
    data = JSON.parse(Buffer.from(url.searchParams.get("c") ?? "", "base64url").toString("utf8"));
  } catch {
    return { status: 400, type: "text/plain; charset=utf-8", body: "Bad Request" };
  }
  const lines = (data.lines ?? [])
    .map((l) => `<li>${esc(l.merchandiseId ?? l.variantId ?? "?")} × ${esc(l.quantity ?? 1)} at ${FAKE_UNIT_PRICE.toFixed(2)}</li>`)
    .join("");
  const attrs = (data.attributes ?? []).map((a) => `<li><code>${esc(a.key)}</code> = ${esc(a.value)}</li>`).join("");
  const total = data.total ?? data.subtotal ?? 0;
  const payment =
    data.kind === "draft"
      ? `<p>Due now (deposit): <strong>${esc((data.dueNow ?? total).toFixed(2))}</strong>. Due on delivery: <strong>${esc((total - (data.dueNow ?? total)).toFixed(2))}</strong>.</p><p>${esc(data.note ?? "")}</p>`
      : cartPayment(data, total, deposits, url);
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Local checkout preview</title></head><body style="font-family:system-ui;max-width:36rem;margin:2rem auto;padding:0 1rem">
<h1>Local checkout preview</h1><p>Local mode: this page stands in for Shopify's ${data.kind === "draft" ? "draft-order invoice" : "cart checkout"}.</p>
<h2>Items</h2><ul>${lines}</ul>${payment}
<h2>Buyer</h2><p>Phone: ${esc(prefilledPhone(data) || "none (the shopper types it)")}${data.buyerIdentity?.countryCode ? `, country ${esc(data.buyerIdentity.countryCode)}` : ""}</p>
<h2>Discount codes</h2><p>${esc((data.discountCodes ?? []).join(", ") || "none")}</p>
<h2>Attributes (carried to the order)</h2><ul>${attrs}</ul>
${paymentSection(data.attributes ?? [], url.searchParams.get("phone") ?? prefilledPhone(data), enforcement, url)}</body></html>`;
  return { status: 200, type: "text/html; charset=utf-8", body };
};

/**
 * A cart's payment: the total, and with one of the app's deposit codes that applies, the deposit paid
 * now and the balance the app adds to the order for delivery; a button places the order (as paying would).
 */
function cartPayment(data: Preview, total: number, deposits: FakeDepositStore, url: URL): string {
  const cart = { lines: (data.lines ?? []).map((l) => ({ merchandiseId: l.merchandiseId ?? "", quantity: l.quantity ?? 1 })), discountCodes: data.discountCodes ?? [] };
  const code = cart.discountCodes.find((c) => deposits.applicable(c, cart));
  const off = code ? deposits.takes(deposits.discounts.get(code.toUpperCase())!, cart.lines) : 0;
  const refused = cart.discountCodes.filter((c) => c !== code);
  const pay = `<form method="post" action="${LOCAL_CHECKOUT_PATH}/pay?c=${esc(url.searchParams.get("c") ?? "")}"><button>Pay ${esc((total - off).toFixed(2))} and place the order</button></form>`;
  return `<p>Total before discounts: <strong>${esc(total.toFixed(2))}</strong></p>${
    code ? `<p>Deposit code ${esc(code)}: −${esc(off.toFixed(2))}. Pay now (deposit): <strong>${esc((total - off).toFixed(2))}</strong>. The app then adds the balance, <strong>${esc(off.toFixed(2))}</strong>, to the order, due in cash on delivery.</p>` : ""
  }${refused.length ? `<p>Not applied (used up, expired, or not for this cart): ${esc(refused.join(", "))}</p>` : ""}${pay}`;
}

/** POST /local/checkout/pay?c=...: the shopper pays; the order is created in the fake store, orders/create is delivered to the app, and the payload shown. */
function payCart({ url, method }: Parameters<PageHandler>[0], deposits: FakeDepositStore, learnt: LocalOrders): ReturnType<PageHandler> {
  const asJson = url.searchParams.get("format") === "json";
  if (method !== "POST") return { status: 405, type: "text/plain; charset=utf-8", body: "Use POST." };
  let data: Preview;
  try {
    data = JSON.parse(Buffer.from(url.searchParams.get("c") ?? "", "base64url").toString("utf8"));
  } catch {
    return { status: 400, type: "text/plain; charset=utf-8", body: "Bad Request" };
  }
  const order = deposits.placeOrder({ lines: (data.lines ?? []).map((l) => ({ merchandiseId: l.merchandiseId ?? "", quantity: l.quantity ?? 1 })), discountCodes: data.discountCodes ?? [] });
  const payload = {
    id: Number(order.id.split("/").pop()),
    admin_graphql_api_id: order.id,
    name: order.name,
    created_at: new Date().toISOString(),
    currency: order.currency,
    presentment_currency: order.currency,
    financial_status: "paid",
    gateway: "bogus",
    payment_gateway_names: ["bogus"],
    phone: data.buyerIdentity?.phone ?? null,
    note_attributes: (data.attributes ?? []).map((a) => ({ name: a.key, value: a.value })),
    discount_codes: order.discount ? [{ code: order.discount.code, amount: order.discount.amount.toFixed(2), type: "fixed_amount" }] : [],
    total_price: FakeDepositStore.total(order).toFixed(2),
    shipping_address: data.buyerIdentity?.phone ? { phone: data.buyerIdentity.phone, country_code: data.buyerIdentity.countryCode ?? null } : null,
  };
  // The order exists in the store before its webhook, as on Shopify; then Shopify tells the app (LOCAL_APP_URL, as
  // `npm run local` sets it), signed with its secret.
  const shop = data.shop ?? LOCAL_DEFAULTS.shop;
  learnt.learn(shop, payload);
  const delivering = !!process.env.LOCAL_APP_URL;
  if (delivering) void deliverWebhook("orders/create", shop, payload);
  const ordersCreated = delivering ? "delivered to the app" : "not delivered: no app to deliver it to (LOCAL_APP_URL)";
  if (asJson) return { status: 200, type: "application/json; charset=utf-8", body: JSON.stringify({ order: { id: order.id, total: FakeDepositStore.total(order), paid: order.paid }, ordersCreated, ordersCreate: payload }) };
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Order placed</title></head><body style="font-family:system-ui;max-width:48rem;margin:2rem auto;padding:0 1rem">
<h1>Order ${esc(order.name)} placed</h1><p>Total ${esc(FakeDepositStore.total(order).toFixed(2))}, paid ${esc(order.paid.toFixed(2))}, outstanding ${esc(FakeDepositStore.outstanding(order).toFixed(2))} ${esc(order.currency)}.</p>
<p><code>orders/create</code> ${delivering ? "delivered to the app" : "not delivered (no LOCAL_APP_URL): deliver this payload to the app, signed with its secret"}; see the order at <a href="/orders">/orders</a>.</p>
<pre>${esc(JSON.stringify(payload, null, 2))}</pre></body></html>`;
  return { status: 200, type: "text/html; charset=utf-8", body };
}

/** The phone Shopify's checkout starts with: the cart's buyer identity, or the draft order's phone; never our own attributes. */
function prefilledPhone(data: Preview): string {
  return (data.kind === "draft" ? data.phone : data.buyerIdentity?.phone) ?? "";
}

function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** What the store holds of an order the app learnt about: its name, its carrier's events, the delivery answer written to it, its payments. */
function learntView(id: string, known: { delivery: FakeDeliveryStore; prepaid: FakePrepaidStore; learnt: LocalOrders }) {
  const shipped = known.delivery.orders.get(id);
  const paid = known.prepaid.orders.get(id);
  return {
    name: shipped?.name ?? null,
    carrierEvents: known.learnt.fulfillments.get(id)?.events ?? [],
    note: shipped?.note ?? null,
    deliveryAnswer: shipped?.metafields.get("cod_verify.delivery_answer")?.value ?? null,
    payment: paid
      ? { outstanding: known.prepaid.outstanding(paid), transactions: paid.transactions.map((t) => ({ kind: t.kind, gateway: t.gateway, amount: t.amount })), refunds: paid.refunds, invoices: paid.invoices.length }
      : null,
  };
}

/** GET /orders: what the app did to each order in this store (tags, holds, cancellations) and its payment customizations. */
function ordersPage(
  url: URL,
  enforcement: FakeEnforcementStore,
  tagged: Map<string, Set<string>>,
  deposits: FakeDepositStore,
  assessments: Map<string, FakeRiskAssessment[]>,
  flow: FakeFlow,
  known: { delivery: FakeDeliveryStore; prepaid: FakePrepaidStore; learnt: LocalOrders; orders: FakeOrderStore },
): ReturnType<PageHandler> {
  const ids = new Set([...known.learnt.payloads.keys(), ...deposits.orders.keys(), ...tagged.keys(), ...enforcement.orders.keys(), ...assessments.keys()]);
  const orders = [...ids].map((id) => {
    const o = enforcement.orders.get(id);
    const m = deposits.orders.get(id);
    return {
      id,
      tags: [...(tagged.get(id) ?? [])],
      riskAssessments: assessments.get(id) ?? [],
      fulfillmentOrders: o?.fulfillmentOrders.map((f) => ({ id: f.id, status: f.status, holds: f.holds })) ?? [],
      cancelled: o?.cancelled ?? null,
      ...learntView(id, known),
      // Orders placed on /local/checkout: Shopify's money fields, and their lines (the balance line once added).
      money: m
        ? { currency: m.currency, total: FakeDepositStore.total(m), paid: m.paid, outstanding: FakeDepositStore.outstanding(m), discount: m.discount, lines: m.lineItems.map((l) => ({ title: l.title, price: l.price, quantity: l.quantity })) }
        : null,
    };
  });
  const customizations = [...enforcement.customizations.values()];
  if (url.searchParams.get("format") === "json") {
    return { status: 200, type: "application/json; charset=utf-8", body: JSON.stringify({ orders, paymentCustomizations: customizations, flowRuns: flow.runs }) };
  }
  const row = (o: (typeof orders)[number]) =>
    `<tr><td><code>${esc(o.id)}</code></td><td>${esc(o.tags.join(", ") || "none")}</td><td>${
      o.riskAssessments.map((r) => `<strong>${esc(r.riskLevel)}</strong><ul>${r.facts.map((f) => `<li>${esc(f.sentiment.toLowerCase())}: ${esc(f.description)}</li>`).join("")}</ul>`).join("") || "none"
    }</td><td>${esc(
      o.fulfillmentOrders.map((f) => `${f.status}${f.holds.length ? ` (${f.holds.length} hold)` : ""}`).join(", ") || "not read",
    )}</td><td>${o.cancelled ? esc(`${o.cancelled.reason}: ${o.cancelled.staffNote ?? ""}`) : "no"}</td><td>${
      o.money
        ? esc(`total ${o.money.total.toFixed(2)}, paid ${o.money.paid.toFixed(2)}, outstanding ${o.money.outstanding.toFixed(2)} ${o.money.currency}; lines: ${o.money.lines.map((l) => `${l.title} ${l.price.toFixed(2)}×${l.quantity}`).join("; ")}`)
        : "not placed here"
    }</td><td>${esc(
      [
        o.name,
        o.carrierEvents.length ? `carrier: ${o.carrierEvents.join(" → ")}` : "",
        o.note ? `note: ${o.note}` : "",
        o.deliveryAnswer ? `answer: ${o.deliveryAnswer}` : "",
        o.payment ? `outstanding ${o.payment.outstanding.toFixed(2)}; paid online ${o.payment.transactions.filter((t) => t.kind !== "REFUND").length}×; refunds ${o.payment.refunds.length}; invoices ${o.payment.invoices}` : "",
      ]
        .filter(Boolean)
        .join(" · ") || "—",
    )}</td></tr>`;
  const pcs = customizations
    .map((c) => `<li><code>${esc(c.id)}</code> ${esc(c.title)}: <strong>${c.enabled ? "enabled" : "disabled"}</strong>, ${esc(c.metafields.map((m) => m.value).join(" "))}</li>`)
    .join("");
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Local store: what the app did</title></head><body style="font-family:system-ui;max-width:60rem;margin:2rem auto;padding:0 1rem">
<h1>Local store: what the app did</h1>
<h2>Payment customizations</h2><ul>${pcs || "<li>none yet (the app creates one on install and when its settings are saved)</li>"}</ul>
<h2>Orders</h2><table border="1" cellpadding="6" style="border-collapse:collapse"><thead><tr><th>Order</th><th>Tags</th><th>Risk assessments</th><th>Fulfillment</th><th>Cancelled</th><th>Money</th><th>Delivery and payment</th></tr></thead>
<tbody>${orders.map(row).join("") || '<tr><td colspan="7">no order touched yet</td></tr>'}</tbody></table>
<h2>Shopify Flow triggers received</h2><ul>${flow.runs.map((r) => `<li><code>${esc(r.handle)}</code> ${esc(JSON.stringify(r.payload))}</li>`).join("") || "<li>none yet</li>"}</ul>
<p><a href="/orders?format=json">JSON</a></p></body></html>`;
  return { status: 200, type: "text/html; charset=utf-8", body };
}
