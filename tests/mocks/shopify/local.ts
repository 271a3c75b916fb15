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
  throttled,
  tooManyRequests,
  type CheckoutLinks,
  type CheckoutOperation,
} from "./handlers";
import { FakeOrderStore, fakeOrder } from "./orders";

/**
 * Local mode's Shopify: the fake Shopify as a separate HTTP server that the app reaches through
 * SHOPIFY_API_ORIGIN, exactly as tests reach it. `npm run local` starts it (scripts/local.mjs) beside
 * the app. Besides the Admin and Storefront GraphQL endpoints it serves:
 *   GET  /local/checkout?c=...                    the stand-in for Shopify's checkout its carts and draft orders point at
 *   GET  /answers                                 how each checkout operation is answered now, and the possible answers
 *   POST /answers { operation, answer }           e.g. { "operation": "cartCreate", "answer": "throttled" }
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
  const callTimeoutMs = options.callTimeoutMs ?? 4000;
  installDefaultHandlers(fake, links, tagged);
  // Orders the store does not hold (every order the developer creates through a webhook) are tagged as before.
  new FakeOrderStore([fakeOrder({ id: "gid://shopify/Order/1001", name: "#1001" })]).install(fake, { tagsAdd: tagsAdd(tagged) });

  const current = new Map<CheckoutOperation, LocalFakeAnswer>(CHECKOUT_OPERATIONS.map((op) => [op, "ok"]));
  const goodAnswers: Record<CheckoutOperation, () => Handler> = {
    cartCreate: () => cartCreate(links),
    draftOrderCreate: () => draftOrderCreate(links),
    draftOrderCalculate: () => draftOrderCalculate(),
    paymentTermsTemplates: () => paymentTermsTemplates(),
    tagsAdd: () => tagsAdd(tagged),
    cartLinesUpdate: () => cartLinesUpdate(),
  };
  const goodAnswer = (operation: CheckoutOperation): Handler => goodAnswers[operation]();
  const userErrors = (operation: CheckoutOperation): Handler => {
    if (operation === "cartCreate") return cartCreateUserErrors();
    if (operation === "draftOrderCreate") return draftOrderCreateUserErrors();
    if (operation === "cartLinesUpdate") {
      return () => ({ data: { cartLinesUpdate: { cart: null, userErrors: [{ field: ["lines", "0", "quantity"], message: "Quantity is invalid" }] } } });
    }
    if (operation === "tagsAdd") {
      return () => ({ data: { tagsAdd: { node: null, userErrors: [{ field: ["id"], message: "Order does not exist" }] } } });
    }
    if (operation === "draftOrderCalculate") {
      return () => ({
        data: { draftOrderCalculate: { calculatedDraftOrder: null, userErrors: [{ field: ["input", "lineItems"], message: "Variant is not available" }] } },
      });
    }
    // paymentTermsTemplates is a query: it has no user errors, only GraphQL errors.
    return graphqlErrors("Access denied for paymentTermsTemplates field.");
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
  fake.page(LOCAL_CHECKOUT_PATH, checkoutPreview);

  const origin = await fake.start(options.port ?? 0, options.host ?? "127.0.0.1");
  return { fake, origin, stop: () => fake.stop() };
}

type Preview = {
  kind?: string;
  lines?: { merchandiseId?: string; variantId?: string; quantity?: number }[];
  attributes?: { key: string; value: string }[];
  discountCodes?: string[];
  total?: number;
  subtotal?: number;
  dueNow?: number;
  note?: string;
};

/** GET /local/checkout?c=...: what the shopper would pay, as the fake's cart or draft order was given it. */
const checkoutPreview: PageHandler = ({ url }) => {
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
<h2>Discount codes</h2><p>${esc((data.discountCodes ?? []).join(", ") || "none")}</p>
<h2>Attributes (carried to the order)</h2><ul>${attrs}</ul></body></html>`;
  return { status: 200, type: "text/html; charset=utf-8", body };
};

function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
