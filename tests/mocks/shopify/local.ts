import { FakeCustomerStore } from "./customers";
import { z } from "zod";
import { FakeShopify, type Handler, type PageHandler } from "./server";
import {
  CHECKOUT_OPERATIONS,
  cartCreate,
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
import { installOnboardingHandlers } from "./onboarding";
import { run, type FunctionConfiguration } from "../../../extensions/cod-payment-customization/src/run";

/**
 * Local mode's Shopify: the fake Shopify as a separate HTTP server that the app reaches through
 * SHOPIFY_API_ORIGIN, exactly as tests reach it. `npm run local` starts it (scripts/local.mjs) beside
 * the app. Besides the Admin and Storefront GraphQL endpoints it serves:
 *   GET  /local/checkout?c=...                    the stand-in for Shopify's checkout its carts and draft orders point at
 *   GET  /answers                                 how each checkout operation is answered now, and the possible answers
 *   POST /answers { operation, answer }           e.g. { "operation": "cartCreate", "answer": "throttled" }
 *   GET  /charges/confirm?id=<n>                  Shopify's page where the merchant approves a plan's charge
 *   GET  /orders                                  what the app did to each order: tags, holds, cancellations,
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
  new FakeOrderStore([fakeOrder({ id: "gid://shopify/Order/1001", name: "#1001" })]).install(fake, { tagsAdd: tagsAdd(tagged) });
  const enforcement = new FakeEnforcementStore(tagged);
  enforcement.install(fake);
  // The store's customers (none in local mode): blocking a number searches them for the verified tag.
  new FakeCustomerStore([], tagged).install(fake);
  // The app's subscriptions, with Shopify's approval page at /charges/confirm.
  new FakeBillingStore().install(fake);
  // What the admin's onboarding reads: the live theme's templates, recent orders' gateways.
  installOnboardingHandlers(fake);

  const current = new Map<CheckoutOperation, LocalFakeAnswer>(CHECKOUT_OPERATIONS.map((op) => [op, "ok"]));
  const goodAnswers: Record<CheckoutOperation, () => Handler> = {
    cartCreate: () => cartCreate(links),
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
    orderRiskAssessmentCreate: () => orderRiskAssessmentCreate(assessments),
  };
  const goodAnswer = (operation: CheckoutOperation): Handler => goodAnswers[operation]();
  const userErrors = (operation: CheckoutOperation): Handler => {
    if (operation === "cartCreate") return cartCreateUserErrors();
    if (operation === "draftOrderCreate") return draftOrderCreateUserErrors();
    if (operation === "cartLinesUpdate") {
      return () => ({ data: { cartLinesUpdate: { cart: null, userErrors: [{ field: ["lines", "0", "quantity"], message: "Quantity is invalid" }] } } });
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
    fake.on(OPERATIONS[operation], handlerFor(operation, answer), operation === "cartCreate" || operation === "cartLinesUpdate" ? "storefront" : "admin");
    current.set(operation, answer);
    return jsonPage(200, { answers: Object.fromEntries(current) });
  });
  fake.page(LOCAL_CHECKOUT_PATH, (request) => checkoutPreview(request, enforcement));
  fake.page("/orders", ({ url }) => ordersPage(url, enforcement, tagged, assessments));

  const origin = await fake.start(options.port ?? 0, options.host ?? "127.0.0.1");
  return { fake, origin, stop: () => fake.stop() };
}

type Preview = {
  kind?: string;
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
    ? run({
        cart: { proof: proof === null ? null : { value: proof }, buyerIdentity: { phone: phone || null, customer: null }, deliveryGroups: [{ deliveryAddress: { phone: phone || null } }] },
        paymentMethods: methods,
        paymentCustomization: { metafield: config ? { jsonValue: config } : null },
        shop: { localTime: { date: new Date().toISOString().slice(0, 10) } },
      })
    : { operations: [] };
  const hidden = new Set(out.operations.map((o) => o.hide.paymentMethodId));
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
const checkoutPreview = ({ url }: Parameters<PageHandler>[0], enforcement: FakeEnforcementStore): ReturnType<PageHandler> => {
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
      : `<p>Total before discounts: <strong>${esc(total.toFixed(2))}</strong></p>`;
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

/** The phone Shopify's checkout starts with: the cart's buyer identity, or the draft order's phone; never our own attributes. */
function prefilledPhone(data: Preview): string {
  return (data.kind === "draft" ? data.phone : data.buyerIdentity?.phone) ?? "";
}

function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** GET /orders: what the app did to each order in this store (tags, holds, cancellations) and its payment customizations. */
function ordersPage(
  url: URL,
  enforcement: FakeEnforcementStore,
  tagged: Map<string, Set<string>>,
  assessments: Map<string, FakeRiskAssessment[]>,
): ReturnType<PageHandler> {
  const ids = new Set([...tagged.keys(), ...enforcement.orders.keys(), ...assessments.keys()]);
  const orders = [...ids].map((id) => {
    const o = enforcement.orders.get(id);
    return {
      id,
      tags: [...(tagged.get(id) ?? [])],
      riskAssessments: assessments.get(id) ?? [],
      fulfillmentOrders: o?.fulfillmentOrders.map((f) => ({ id: f.id, status: f.status, holds: f.holds })) ?? [],
      cancelled: o?.cancelled ?? null,
    };
  });
  const customizations = [...enforcement.customizations.values()];
  if (url.searchParams.get("format") === "json") {
    return { status: 200, type: "application/json; charset=utf-8", body: JSON.stringify({ orders, paymentCustomizations: customizations }) };
  }
  const row = (o: (typeof orders)[number]) =>
    `<tr><td><code>${esc(o.id)}</code></td><td>${esc(o.tags.join(", ") || "none")}</td><td>${
      o.riskAssessments.map((r) => `<strong>${esc(r.riskLevel)}</strong><ul>${r.facts.map((f) => `<li>${esc(f.sentiment.toLowerCase())}: ${esc(f.description)}</li>`).join("")}</ul>`).join("") || "none"
    }</td><td>${esc(
      o.fulfillmentOrders.map((f) => `${f.status}${f.holds.length ? ` (${f.holds.length} hold)` : ""}`).join(", ") || "not read",
    )}</td><td>${o.cancelled ? esc(`${o.cancelled.reason}: ${o.cancelled.staffNote ?? ""}`) : "no"}</td></tr>`;
  const pcs = customizations
    .map((c) => `<li><code>${esc(c.id)}</code> ${esc(c.title)}: <strong>${c.enabled ? "enabled" : "disabled"}</strong>, ${esc(c.metafields.map((m) => m.value).join(" "))}</li>`)
    .join("");
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Local store: what the app did</title></head><body style="font-family:system-ui;max-width:60rem;margin:2rem auto;padding:0 1rem">
<h1>Local store: what the app did</h1>
<h2>Payment customizations</h2><ul>${pcs || "<li>none yet (the app creates one on install and when its settings are saved)</li>"}</ul>
<h2>Orders</h2><table border="1" cellpadding="6" style="border-collapse:collapse"><thead><tr><th>Order</th><th>Tags</th><th>Risk assessments</th><th>Fulfillment</th><th>Cancelled</th></tr></thead>
<tbody>${orders.map(row).join("") || '<tr><td colspan="5">no order touched yet</td></tr>'}</tbody></table>
<p><a href="/orders?format=json">JSON</a></p></body></html>`;
  return { status: 200, type: "text/html; charset=utf-8", body };
}
