import crypto from "node:crypto";
import { OPERATIONS } from "../../../app/core/shopify/operations";
import { FakeFlow } from "./flow";
import type { FakeCall, FakeShopify, Handler, HandlerResult } from "./server";

export { OPERATIONS };

/**
 * Reusable answers of the fake Shopify for the operations the app makes, shaped like Shopify's real
 * payloads (Storefront `cartCreate`, Admin `draftOrderCreate`, `draftOrderCalculate`,
 * `paymentTermsTemplates`, `tagsAdd`), plus the usual ways they fail: user errors, GraphQL errors,
 * throttling, 5xx and slowness. Tests and local mode register them by operation name.
 */

/** The operations of checkout and order tagging, whose answers local mode lets a developer choose. */
export const CHECKOUT_OPERATIONS = [
  "cartCreate",
  "draftOrderCreate",
  "draftOrderCalculate",
  "paymentTermsTemplates",
  "tagsAdd",
  // Enforcement (tests/mocks/shopify/enforcement.ts)
  "paymentCustomizationCreate",
  "paymentCustomizationUpdate",
  "orderFulfillmentOrders",
  "fulfillmentOrderHold",
  "fulfillmentOrderReleaseHold",
  "orderCancel",
  "tagsRemove",
  "cartLinesUpdate",
  // partial without draft-order deposits (tests/mocks/shopify/deposits.ts)
  "depositDiscountCreate",
  "cartDiscountCodesUpdate",
  "orderBalanceLines",
  "orderEditBegin",
  "orderEditAddCustomItem",
  "orderEditCommit",
  // The order's risk panel (app/risk)
  "orderRiskAssessmentCreate",
] as const;
export type CheckoutOperation = (typeof CHECKOUT_OPERATIONS)[number];

/** The price the fake gives every variant (shop currency), so totals are predictable. */
export const FAKE_UNIT_PRICE = 25;

type Line = { merchandiseId?: string; variantId?: string; quantity?: number };

function money(amount: number, currencyCode = "USD") {
  return { shopMoney: { amount: amount.toFixed(2), currencyCode } };
}

/** Where the fake's checkouts point: Shopify's own domain by default, the local app's preview page in local mode. */
export type CheckoutLinks = { checkoutBase?: string };

function encodeForPreview(kind: string, payload: unknown) {
  return Buffer.from(JSON.stringify({ kind, ...(payload as object) })).toString("base64url");
}

/**
 * Variants the fake's store does not sell. Shopify's variant IDs are positive integers; any other, and
 * any a test retires here (a deleted product), does not exist: cartCreate answers Shopify's user error.
 */
export const RETIRED_VARIANTS = new Set<string>();
export function variantExists(id: string | undefined): boolean {
  return !!id && /^gid:\/\/shopify\/ProductVariant\/[1-9]\d{0,19}$/.test(id) && !RETIRED_VARIANTS.has(id);
}

/** Carts the fake created (cartLinesUpdate and cartDiscountCodesUpdate answer only these), by id without its key. */
const CARTS = new Set<string>();
export function cartExists(id: unknown): boolean {
  return typeof id === "string" && CARTS.has(id.split("?")[0]);
}

/** Storefront cartCreate: a cart whose checkoutUrl carries the lines, attributes and discount codes. */
export function cartCreate(links: CheckoutLinks = {}): Handler {
  return (call: FakeCall) => {
    const lines0 = ((call.variables.input ?? {}) as { lines?: Line[] }).lines ?? [];
    const unknown = lines0.findIndex((l) => !variantExists(l.merchandiseId));
    if (unknown >= 0) {
      // Shopify's answer to a line whose merchandise does not exist: no cart, the line's field named.
      return cartCreateUserErrors([{ code: "INVALID", field: ["input", "lines", String(unknown), "merchandiseId"], message: `The merchandise with id ${lines0[unknown].merchandiseId} does not exist.` }])(call);
    }
    const input = (call.variables.input ?? {}) as {
      lines?: Line[];
      attributes?: { key: string; value: string }[];
      discountCodes?: string[];
      buyerIdentity?: { phone?: string; countryCode?: string };
    };
    const token = crypto.randomBytes(12).toString("hex");
    const lines = input.lines ?? [];
    const subtotal = lines.reduce((s, l) => s + FAKE_UNIT_PRICE * (l.quantity ?? 1), 0);
    const cartLines = lines.map((l, i) => ({
      id: `gid://shopify/CartLine/${token}-${i}`,
      quantity: l.quantity ?? 1,
      merchandise: { id: l.merchandiseId, price: { amount: FAKE_UNIT_PRICE.toFixed(2), currencyCode: "USD" } },
    }));
    const checkoutUrl = links.checkoutBase
      ? `${links.checkoutBase}?c=${encodeForPreview("cart", { shop: call.shop, lines, attributes: input.attributes ?? [], discountCodes: input.discountCodes ?? [], buyerIdentity: input.buyerIdentity ?? null, subtotal })}`
      : `https://${call.shop}/cart/c/${token}?key=${token.slice(0, 8)}`;
    CARTS.add(`gid://shopify/Cart/c1-${token}`);
    return {
      data: {
        cartCreate: {
          cart: {
            id: `gid://shopify/Cart/c1-${token}?key=${token.slice(0, 8)}`,
            checkoutUrl,
            attributes: input.attributes ?? [],
            buyerIdentity: { phone: input.buyerIdentity?.phone ?? null, countryCode: input.buyerIdentity?.countryCode ?? null },
            discountCodes: (input.discountCodes ?? []).map((code) => ({ code, applicable: true })),
            cost: { subtotalAmount: { amount: subtotal.toFixed(2), currencyCode: "USD" } },
            lines: { nodes: cartLines },
          },
          userErrors: [],
          warnings: [],
        },
      },
    };
  };
}

/** Storefront cartLinesUpdate: the lines' new quantities, echoed back. */
export function cartLinesUpdate(): Handler {
  return (call: FakeCall) => {
    const lines = (call.variables.lines ?? []) as { id: string; quantity: number }[];
    if (!cartExists(call.variables.cartId)) {
      return { data: { cartLinesUpdate: { cart: null, userErrors: [{ code: "INVALID", field: ["cartId"], message: "The specified cart does not exist." }] } } };
    }
    return {
      data: {
        cartLinesUpdate: {
          cart: { id: call.variables.cartId, lines: { nodes: lines.map((l) => ({ id: l.id, quantity: l.quantity })) } },
          userErrors: [],
        },
      },
    };
  };
}

/** cartCreate refused: e.g. an unknown variant (`INVALID`, field lines.0.merchandiseId). */
export function cartCreateUserErrors(
  errors: { code?: string; field?: string[]; message: string }[] = [
    { code: "INVALID", field: ["input", "lines", "0", "merchandiseId"], message: "The merchandise with id gid://shopify/ProductVariant/1 does not exist." },
  ],
): Handler {
  return () => ({ data: { cartCreate: { cart: null, userErrors: errors, warnings: [] } } });
}

/** Draft order totals for the given line items (the fake prices every unit at FAKE_UNIT_PRICE). */
function totals(lines: Line[]) {
  const subtotal = lines.reduce((s, l) => s + FAKE_UNIT_PRICE * (l.quantity ?? 1), 0);
  return { subtotal, total: subtotal };
}

/** Admin draftOrderCalculate: the totals the draft order would have. */
export function draftOrderCalculate(): Handler {
  return (call) => {
    const input = (call.variables.input ?? {}) as { lineItems?: Line[] };
    const { subtotal, total } = totals(input.lineItems ?? []);
    return {
      data: {
        draftOrderCalculate: {
          calculatedDraftOrder: { subtotalPriceSet: money(subtotal), totalPriceSet: money(total) },
          userErrors: [],
        },
      },
    };
  };
}

let draftCounter = 1000;

/** Admin draftOrderCreate: a draft order with an invoice URL; a deposit, when asked, shows as amountDueNow. */
export function draftOrderCreate(links: CheckoutLinks = {}): Handler {
  return (call) => {
    const input = (call.variables.input ?? {}) as {
      lineItems?: Line[];
      deposit?: { percentage: number };
      customAttributes?: { key: string; value: string }[];
      discountCodes?: string[];
      note?: string;
      phone?: string;
    };
    const id = ++draftCounter;
    const token = crypto.randomBytes(12).toString("hex");
    const { total } = totals(input.lineItems ?? []);
    const dueNow = input.deposit ? Math.round(total * input.deposit.percentage) / 100 : total;
    const invoiceUrl = links.checkoutBase
      ? `${links.checkoutBase}?c=${encodeForPreview("draft", { shop: call.shop, lines: input.lineItems ?? [], attributes: input.customAttributes ?? [], discountCodes: input.discountCodes ?? [], phone: input.phone ?? null, total, dueNow, note: input.note })}`
      : `https://${call.shop}/${id}/invoices/${token}`;
    return {
      data: {
        draftOrderCreate: {
          draftOrder: {
            id: `gid://shopify/DraftOrder/${id}`,
            name: `#D${id}`,
            invoiceUrl,
            totalPriceSet: money(total),
            paymentTerms: input.deposit ? { id: `gid://shopify/PaymentTerms/${id}`, paymentTermsType: "FULFILLMENT" } : null,
          },
          userErrors: [],
        },
      },
    };
  };
}

/** draftOrderCreate refused, as Shopify answers a shop that cannot take deposits (not on Plus). */
export function draftOrderCreateUserErrors(
  errors: { field?: string[]; message: string }[] = [{ field: ["deposit"], message: "Deposits are not available for this shop." }],
): Handler {
  return () => ({ data: { draftOrderCreate: { draftOrder: null, userErrors: errors } } });
}

/** paymentTermsTemplates(paymentTermsType: FULFILLMENT): Shopify's "Due on fulfillment" template. */
export function paymentTermsTemplates(): Handler {
  return () => ({
    data: {
      paymentTermsTemplates: [
        { id: "gid://shopify/PaymentTermsTemplate/7", name: "Due on fulfillment", paymentTermsType: "FULFILLMENT", dueInDays: null },
      ],
    },
  });
}

/** tagsAdd: accepted; the order's tags are remembered in `tagged` so local mode and tests can read them. */
export function tagsAdd(tagged: Map<string, Set<string>> = new Map()): Handler {
  return (call) => {
    const id = String(call.variables.id ?? "");
    const tags = (call.variables.tags ?? []) as string[];
    const set = tagged.get(id) ?? new Set<string>();
    for (const t of tags) set.add(t);
    tagged.set(id, set);
    return { data: { tagsAdd: { node: { id }, userErrors: [] } } };
  };
}

/** One risk assessment as the app wrote it to an order (level and facts), newest last. */
export type FakeRiskAssessment = { riskLevel: string; facts: { description: string; sentiment: string }[] };

/**
 * orderRiskAssessmentCreate: accepted and kept per order in `assessments` (local mode's /orders shows
 * them), checked as Shopify checks them: a known level, at most 20 facts, descriptions cut at 256.
 */
export function orderRiskAssessmentCreate(assessments: Map<string, FakeRiskAssessment[]> = new Map()): Handler {
  return (call) => {
    const input = (call.variables.input ?? {}) as { orderId?: string; riskLevel?: string; facts?: { description: string; sentiment: string }[] };
    if (!input.orderId || !["HIGH", "MEDIUM", "LOW", "NONE", "PENDING"].includes(String(input.riskLevel))) {
      return orderRiskAssessmentUserErrors("INVALID")(call);
    }
    if ((input.facts ?? []).length > 20) return orderRiskAssessmentUserErrors("TOO_MANY_FACTS")(call);
    const list = assessments.get(input.orderId) ?? [];
    list.push({ riskLevel: String(input.riskLevel), facts: (input.facts ?? []).map((f) => ({ description: f.description.slice(0, 256), sentiment: f.sentiment })) });
    assessments.set(input.orderId, list);
    return { data: { orderRiskAssessmentCreate: { orderRiskAssessment: { riskLevel: input.riskLevel }, userErrors: [] } } };
  };
}

const RISK_ASSESSMENT_ERRORS: Record<string, string> = {
  INVALID: "Risk level is invalid",
  NOT_FOUND: "Order does not exist",
  ORDER_ALREADY_FULFILLED: "Cannot create a risk assessment for a fulfilled order",
  TOO_MANY_FACTS: "Too many facts",
};

/** orderRiskAssessmentCreate refused with a user error, by Shopify's codes (default: the order is already fulfilled). */
export function orderRiskAssessmentUserErrors(code: keyof typeof RISK_ASSESSMENT_ERRORS = "ORDER_ALREADY_FULFILLED"): Handler {
  return () => ({
    data: { orderRiskAssessmentCreate: { orderRiskAssessment: null, userErrors: [{ field: ["orderRiskAssessmentInput"], message: RISK_ASSESSMENT_ERRORS[code], code }] } },
  });
}

/** A GraphQL-level throttle, as the Admin API answers when the cost bucket is empty. */
export function throttled(): Handler {
  return () => ({
    data: null,
    errors: [{ message: "Throttled", extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" } }],
    extensions: { cost: { requestedQueryCost: 10, actualQueryCost: null, throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 0, restoreRate: 100 } } },
  });
}

/** An HTTP-level 429 with Retry-After, as the Storefront API answers a buyer IP over its limit. */
export function tooManyRequests(): Handler {
  return () => ({ status: 429, body: { errors: "Too Many Requests" }, headers: { "Retry-After": "2" } });
}

/** A 5xx from Shopify. */
export function serverError(status = 503): Handler {
  return () => ({ status, body: { errors: "Service Unavailable" } });
}

/** GraphQL errors with a 200 (e.g. a query Shopify rejects). */
export function graphqlErrors(message = "Field 'deposit' doesn't exist on type 'DraftOrderInput'"): Handler {
  return () => ({ data: null, errors: [{ message, extensions: { code: "undefinedField" } }] });
}

/** Answers after `ms` milliseconds (to exceed the app's bound). */
export function slow(ms: number, then: Handler): Handler {
  return async (call) => ({ delayMs: ms, then: (await then(call)) as HandlerResult });
}

/**
 * `ReadBackOrderOwner` (an outcome webhook's order, read back): Shopify answers `order(id:)` with the
 * order when it is the asking shop's, else null. Which shop an order belongs to is the fake's
 * (`FakeShopify.own`, or the first shop that named it).
 */
export function orderReadBack(): Handler {
  return (call) => {
    // Another shop's order reaches here as id 0 (FakeShopify.own: it does not exist for this shop), so null.
    const id = String(call.variables.id ?? "");
    return { data: { order: /^gid:\/\/shopify\/Order\/[1-9]\d*$/.test(id) ? { id } : null } };
  };
}

/** Every operation answered well: what local mode runs and what tests start from. */
export function installDefaultHandlers(
  fake: FakeShopify,
  links: CheckoutLinks = {},
  tagged = new Map<string, Set<string>>(),
  assessments = new Map<string, FakeRiskAssessment[]>(),
) {
  return fake
    .on(OPERATIONS.orderRiskAssessmentCreate, orderRiskAssessmentCreate(assessments), "admin")
    .on(OPERATIONS.cartCreate, cartCreate(links), "storefront")
    .on(OPERATIONS.cartLinesUpdate, cartLinesUpdate(), "storefront")
    .on(OPERATIONS.draftOrderCalculate, draftOrderCalculate(), "admin")
    .on(OPERATIONS.draftOrderCreate, draftOrderCreate(links), "admin")
    .on(OPERATIONS.paymentTermsTemplates, paymentTermsTemplates(), "admin")
    .on(OPERATIONS.tagsAdd, tagsAdd(tagged), "admin")
    // Shopify Flow's triggers, held to the app's deployed trigger extensions (a test that reads the runs installs its own FakeFlow).
    .on(OPERATIONS.flowTriggerReceive, new FakeFlow().flowTriggerReceive(), "admin")
    .on(OPERATIONS.orderReadBack, orderReadBack(), "admin");
}
