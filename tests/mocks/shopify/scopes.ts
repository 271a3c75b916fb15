/**
 * The access scope each root field the app uses requires, as Shopify's reference says it ("Requires
 * `write_orders` access scope." on the field's page, 2026-10; `source` is that page). Alternatives are
 * any-of ("`read_locales` access scope or `read_markets_home` access scope"). A `write_` scope grants
 * its `read_` one too. Where the scope depends on the resource (tags, metafields), it is read from the
 * argument's global ID: the owner's type picks the scope, as the page says.
 *
 * The table is exact on purpose: a root field it does not know is refused by the fake and fails the
 * documents test, so a new operation cannot go out without its row. The introspection schemas do not
 * carry this; only the reference pages do.
 */
export type ScopeRule = {
  /** Any one of these satisfies the field; empty: no scope (billing, the shop itself, app installation). */
  anyOf?: string[];
  /** The scope depends on the resource named by this argument (a global ID, or a list of inputs with `ownerId`). */
  byResource?: { argument: string; idField?: string; scopes: Record<string, string[]> };
  source: string;
};

const ADMIN = "https://shopify.dev/docs/api/admin-graphql/2026-10";
const STOREFRONT = "https://shopify.dev/docs/api/storefront/2026-10";

/** The write scopes of the resources the app tags or sets metafields on (tagsAdd: "Order, DraftOrder, Customer, Product, Article"). */
const RESOURCE_WRITE: Record<string, string[]> = {
  Order: ["write_orders"],
  DraftOrder: ["write_draft_orders"],
  Customer: ["write_customers"],
  Product: ["write_products"],
  Article: ["write_content", "write_online_store_pages"],
};

export const ROOT_FIELD_SCOPES: Record<"admin" | "storefront", Record<string, ScopeRule>> = {
  admin: {
    // queries
    shop: { anyOf: [], source: `${ADMIN}/queries/shop` },
    shopLocales: { anyOf: ["read_locales", "read_markets_home"], source: `${ADMIN}/queries/shopLocales` },
    order: { anyOf: ["read_orders", "read_marketplace_orders"], source: `${ADMIN}/queries/order` },
    orders: { anyOf: ["read_orders", "read_marketplace_orders"], source: `${ADMIN}/queries/orders` },
    customers: { anyOf: ["read_customers"], source: `${ADMIN}/queries/customers` },
    themes: { anyOf: ["read_themes"], source: `${ADMIN}/queries/themes` },
    paymentTermsTemplates: { anyOf: [], source: `${ADMIN}/queries/paymentTermsTemplates` },
    currentAppInstallation: { anyOf: [], source: `${ADMIN}/queries/currentAppInstallation` },
    // mutations
    draftOrderCalculate: { anyOf: ["write_draft_orders"], source: `${ADMIN}/mutations/draftOrderCalculate` },
    draftOrderCreate: { anyOf: ["write_draft_orders"], source: `${ADMIN}/mutations/draftOrderCreate` },
    tagsAdd: { byResource: { argument: "id", scopes: RESOURCE_WRITE }, source: `${ADMIN}/mutations/tagsAdd` },
    tagsRemove: { byResource: { argument: "id", scopes: RESOURCE_WRITE }, source: `${ADMIN}/mutations/tagsRemove` },
    metafieldsSet: {
      // "Requires the same access level needed to mutate the owner resource."
      byResource: { argument: "metafields", idField: "ownerId", scopes: RESOURCE_WRITE },
      source: `${ADMIN}/mutations/metafieldsSet`,
    },
    orderUpdate: { anyOf: ["write_orders", "write_marketplace_orders"], source: `${ADMIN}/mutations/orderUpdate` },
    // The page names no scope; a trigger's order_reference field needs read_orders (shopify.dev/docs/apps/build/flow/triggers).
    flowTriggerReceive: { anyOf: [], source: `${ADMIN}/mutations/flowTriggerReceive` },
    orderCancel: { anyOf: ["write_orders", "write_marketplace_orders"], source: `${ADMIN}/mutations/orderCancel` },
    // Pay now after the order (app/orders/prepaid-offer.server.ts): Shopify's invoice, and the reward's refund.
    orderInvoiceSend: { anyOf: ["write_orders"], source: `${ADMIN}/mutations/orderInvoiceSend` },
    refundCreate: { anyOf: ["write_orders", "write_marketplace_orders"], source: `${ADMIN}/mutations/refundCreate` },
    orderRiskAssessmentCreate: { anyOf: ["write_orders"], source: `${ADMIN}/mutations/orderRiskAssessmentCreate` },
    orderEditBegin: { anyOf: ["write_order_edits"], source: `${ADMIN}/mutations/orderEditBegin` },
    orderEditAddCustomItem: { anyOf: ["write_order_edits"], source: `${ADMIN}/mutations/orderEditAddCustomItem` },
    orderEditCommit: { anyOf: ["write_order_edits"], source: `${ADMIN}/mutations/orderEditCommit` },
    fulfillmentOrderHold: {
      anyOf: ["write_merchant_managed_fulfillment_orders", "write_third_party_fulfillment_orders"],
      source: `${ADMIN}/mutations/fulfillmentOrderHold`,
    },
    fulfillmentOrderReleaseHold: {
      anyOf: ["write_merchant_managed_fulfillment_orders", "write_third_party_fulfillment_orders"],
      source: `${ADMIN}/mutations/fulfillmentOrderReleaseHold`,
    },
    paymentCustomizationCreate: { anyOf: ["write_payment_customizations"], source: `${ADMIN}/mutations/paymentCustomizationCreate` },
    paymentCustomizationUpdate: { anyOf: ["write_payment_customizations"], source: `${ADMIN}/mutations/paymentCustomizationUpdate` },
    discountCodeBasicCreate: { anyOf: ["write_discounts"], source: `${ADMIN}/mutations/discountCodeBasicCreate` },
    // Billing needs no scope (the library's own documents, and our usage record).
    appSubscriptionCreate: { anyOf: [], source: `${ADMIN}/mutations/appSubscriptionCreate` },
    appSubscriptionCancel: { anyOf: [], source: `${ADMIN}/mutations/appSubscriptionCancel` },
    appUsageRecordCreate: { anyOf: [], source: `${ADMIN}/mutations/appUsageRecordCreate` },
    appSubscriptionLineItemUpdate: { anyOf: [], source: `${ADMIN}/mutations/appSubscriptionLineItemUpdate` },
    appPurchaseOneTimeCreate: { anyOf: [], source: `${ADMIN}/mutations/appPurchaseOneTimeCreate` },
  },
  storefront: {
    // Not sent by the app; tests/routes/shopify-api-origin.test.ts reads a product to prove the Storefront client reaches the fake.
    products: { anyOf: ["unauthenticated_read_product_listings"], source: `${STOREFRONT}/queries/products` },
    cartCreate: { anyOf: ["unauthenticated_write_checkouts"], source: `${STOREFRONT}/mutations/cartCreate` },
    cartLinesUpdate: { anyOf: ["unauthenticated_write_checkouts"], source: `${STOREFRONT}/mutations/cartLinesUpdate` },
    cartDiscountCodesUpdate: { anyOf: ["unauthenticated_write_checkouts"], source: `${STOREFRONT}/mutations/cartDiscountCodesUpdate` },
  },
};

export { CONFIG_SECTION_SCOPES, TYPE_SCOPES, INPUT_FIELD_SCOPES, WEBHOOK_TOPIC_SCOPES, type TypeScopeRule } from "./type-scopes";

/**
 * The resources each tags or metafields document writes (its `id` / `ownerId` names one), from its call
 * sites: the scope such a mutation needs is the resource's. The fake refuses a call whose resource is not
 * listed for its operation, so a new use on a new resource needs its row (and its scope).
 */
export const DOCUMENT_RESOURCES: Record<string, string[]> = {
  AddOrderTags: ["Order", "Customer"],
  RemoveOrderTags: ["Order", "Customer"],
  AddressCorrectionRequestedAddress: ["Order"],
  DeliveryAnswerMetafield: ["Order"],
};

/** The write scopes of the resources a tags or metafields mutation can name (for ./scope-table.test.ts). */
export function resourceScopes(resource: string): string[] | undefined {
  return RESOURCE_WRITE[resource];
}

/** The scopes a grant of `scopes` carries: each `write_x` (and `unauthenticated_write_x`) also grants `read_x`. */
export function effectiveScopes(scopes: string[]): Set<string> {
  const out = new Set(scopes);
  for (const s of scopes) if (s.includes("write_")) out.add(s.replace("write_", "read_"));
  return out;
}

/** "gid://shopify/Order/1" → "Order". */
function gidType(id: unknown): string | null {
  return typeof id === "string" ? (/^gid:\/\/shopify\/([A-Za-z]+)\//.exec(id)?.[1] ?? null) : null;
}

/**
 * What a root field needs, given its coerced arguments: a list of requirements, each any-of (all must
 * hold). `unknown` when the table has no row for the field (the fake refuses it), or when the resource
 * an argument names is not one the table knows.
 */
export function requiredAccess(
  api: "admin" | "storefront",
  field: string,
  args: Record<string, unknown>,
): { requirements: string[][]; source: string } | { unknown: string } {
  const rule = ROOT_FIELD_SCOPES[api][field];
  if (!rule) return { unknown: `no scope row for ${api} field ${field} (tests/mocks/shopify/scopes.ts)` };
  if (rule.anyOf) return { requirements: rule.anyOf.length ? [rule.anyOf] : [], source: rule.source };
  const { argument, idField, scopes } = rule.byResource!;
  const value = args[argument];
  const ids = idField ? (Array.isArray(value) ? value : [value]).map((v) => (v as Record<string, unknown> | null)?.[idField]) : [value];
  const requirements: string[][] = [];
  for (const id of ids) {
    const type = gidType(id);
    if (!type || !scopes[type]) return { unknown: `${field}: no scope row for the resource ${String(id)}` };
    requirements.push(scopes[type]);
  }
  return { requirements, source: rule.source };
}

/** Shopify's sentence for a requirement: "`read_locales` access scope or `read_markets_home` access scope." */
export function describeAccess(anyOf: string[]): string {
  return `${anyOf.map((s) => `\`${s}\` access scope`).join(" or ")}.`;
}
