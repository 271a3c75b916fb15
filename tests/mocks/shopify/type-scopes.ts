/**
 * The access scope of every object type the app's documents reach, as each type's page in Shopify's
 * reference says it ("Requires `read_products` access scope." under the type's name, 2026-10), for the
 * nested selections a root field's scope does not cover: `order { lineItems { variant { id } } }` needs
 * `read_products` for the variant even though `order` needs only `read_orders`. Alternatives are any-of.
 * A type whose page names no scope (payloads, connections, money, addresses, the shop) has an empty row:
 * its fields are reached only through a field that needs one already.
 *
 * The table is exact on purpose, like the root fields' (./scopes.ts): a document that reaches a type with
 * no row is refused by the fake and fails tests/shopify/scope-table.test.ts, so a new selection cannot go
 * out without its row (and the scope that row names then has to be in shopify.app.toml).
 */
export type TypeScopeRule = { anyOf: string[]; source: string };

const ADMIN = "https://shopify.dev/docs/api/admin-graphql/2026-10";
const STOREFRONT = "https://shopify.dev/docs/api/storefront/2026-10";

/** The reference page of a type: payloads, connections, interfaces and unions have pages of their own kind. */
function page(base: string, name: string, kind: "objects" | "payloads" | "connections" | "interfaces" | "unions" = "objects"): string {
  return `${base}/${kind}/${name}`;
}

function kindOf(name: string): "objects" | "payloads" | "connections" {
  return name.endsWith("Payload") ? "payloads" : name.endsWith("Connection") ? "connections" : "objects";
}

/** Rows of types whose page names no access scope. */
function noScope(base: string, names: string[], kind?: "interfaces" | "unions"): Record<string, TypeScopeRule> {
  return Object.fromEntries(names.map((n) => [n, { anyOf: [], source: page(base, n, kind ?? kindOf(n)) }]));
}

const ORDERS = ["read_orders", "read_marketplace_orders"];
const FULFILLMENT_ORDERS = [
  "read_assigned_fulfillment_orders",
  "read_merchant_managed_fulfillment_orders",
  "read_third_party_fulfillment_orders",
  "read_marketplace_fulfillment_orders",
];

export const TYPE_SCOPES: Record<"admin" | "storefront", Record<string, TypeScopeRule>> = {
  admin: {
    Order: { anyOf: ORDERS, source: page(ADMIN, "Order") },
    LineItem: { anyOf: ORDERS, source: page(ADMIN, "LineItem") },
    OrderTransaction: { anyOf: ORDERS, source: page(ADMIN, "OrderTransaction") },
    Refund: { anyOf: ORDERS, source: page(ADMIN, "Refund") },
    Customer: { anyOf: ["read_customers"], source: page(ADMIN, "Customer") },
    DraftOrder: { anyOf: ["read_draft_orders"], source: page(ADMIN, "DraftOrder") },
    CalculatedDraftOrder: { anyOf: ["read_draft_orders"], source: page(ADMIN, "CalculatedDraftOrder") },
    FulfillmentOrder: { anyOf: FULFILLMENT_ORDERS, source: page(ADMIN, "FulfillmentOrder") },
    FulfillmentHold: { anyOf: FULFILLMENT_ORDERS, source: page(ADMIN, "FulfillmentHold") },
    CalculatedOrder: { anyOf: ["read_order_edits"], source: page(ADMIN, "CalculatedOrder") },
    CalculatedLineItem: { anyOf: ["read_order_edits"], source: page(ADMIN, "CalculatedLineItem") },
    PaymentCustomization: { anyOf: ["read_payment_customizations"], source: page(ADMIN, "PaymentCustomization") },
    PaymentTerms: { anyOf: ["read_payment_terms"], source: page(ADMIN, "PaymentTerms") },
    DiscountCodeNode: { anyOf: ["read_discounts"], source: page(ADMIN, "DiscountCodeNode") },
    OnlineStoreTheme: { anyOf: ["read_themes"], source: page(ADMIN, "OnlineStoreTheme") },
    OnlineStoreThemeFile: { anyOf: ["read_themes"], source: page(ADMIN, "OnlineStoreThemeFile") },
    ShopLocale: { anyOf: ["read_locales", "read_markets_home"], source: page(ADMIN, "ShopLocale") },
    // The deposit's balance line is found by its title and shipping flag, never by `variant`: this row is
    // why (app/orders/deposit-balance.server.ts).
    ProductVariant: { anyOf: ["read_products"], source: page(ADMIN, "ProductVariant") },
    Product: { anyOf: ["read_products"], source: page(ADMIN, "Product") },
    ...noScope(ADMIN, [
      "Shop", "ShopAddress", "ShopPlan", "Domain", "DomainLocalization", "MailingAddress", "MoneyBag", "MoneyV2",
      "PageInfo", "Job", "Metafield", "OrderPaymentCollectionDetails", "DiscountAllocation", "DiscountCodeApplication",
      "OrderRiskAssessment", "PaymentTermsTemplate", "OnlineStoreThemeFileBodyText",
      "AppInstallation", "AppSubscription", "AppSubscriptionLineItem", "AppPlanV2", "AppUsagePricing", "AppUsageRecord",
      "UserError", "DiscountUserError", "FulfillmentOrderHoldUserError", "FulfillmentOrderReleaseHoldUserError",
      "MetafieldsSetUserError", "OrderCancelUserError", "OrderInvoiceSendUserError", "OrderRiskAssessmentCreateUserError",
      "PaymentCustomizationError",
      "AppSubscriptionConnection", "CustomerConnection", "FulfillmentOrderConnection", "LineItemConnection", "OrderConnection",
      "OnlineStoreThemeConnection", "OnlineStoreThemeFileConnection",
      "AppUsageRecordCreatePayload", "DiscountCodeBasicCreatePayload", "DraftOrderCalculatePayload", "DraftOrderCreatePayload",
      "FlowTriggerReceivePayload", "FulfillmentOrderHoldPayload", "FulfillmentOrderReleaseHoldPayload", "MetafieldsSetPayload",
      "OrderCancelPayload", "OrderEditAddCustomItemPayload", "OrderEditBeginPayload", "OrderEditCommitPayload",
      "OrderInvoiceSendPayload", "OrderRiskAssessmentCreatePayload", "OrderUpdatePayload", "PaymentCustomizationCreatePayload",
      "PaymentCustomizationUpdatePayload", "RefundCreatePayload", "TagsAddPayload", "TagsRemovePayload",
    ]),
    ...noScope(ADMIN, ["Node", "DiscountApplication"], "interfaces"),
    // The library's billing documents (@shopify/shopify-api lib/billing): the app's own charges need no scope.
    ...noScope(ADMIN, [
      "AppRecurringPricing", "AppSubscriptionDiscount", "AppSubscriptionDiscountAmount", "AppSubscriptionDiscountPercentage",
      "AppPurchaseOneTime", "AppPurchaseOneTimeEdge", "AppSubscriptionEdge", "AppPurchaseOneTimeConnection",
      "AppSubscriptionCreatePayload", "AppSubscriptionCancelPayload", "AppSubscriptionLineItemUpdatePayload", "AppPurchaseOneTimeCreatePayload",
    ]),
    ...noScope(ADMIN, ["AppPricingDetails", "OnlineStoreThemeFileBody", "AppSubscriptionDiscountValue"], "unions"),
  },
  storefront: {
    Cart: { anyOf: ["unauthenticated_read_checkouts"], source: page(STOREFRONT, "Cart") },
    ProductVariant: { anyOf: ["unauthenticated_read_product_listings"], source: page(STOREFRONT, "ProductVariant") },
    Product: { anyOf: ["unauthenticated_read_product_listings"], source: page(STOREFRONT, "Product") },
    ...noScope(STOREFRONT, [
      "CartLine", "CartDiscountCode", "CartUserError", "CartWarning", "MoneyV2", "PageInfo",
      "BaseCartLineConnection", "ProductConnection",
      "CartCreatePayload", "CartLinesUpdatePayload", "CartDiscountCodesUpdatePayload",
    ]),
    ...noScope(STOREFRONT, ["BaseCartLine"], "interfaces"),
    ...noScope(STOREFRONT, ["Merchandise"], "unions"),
  },
};

/**
 * Input fields that need a scope beyond their mutation's: payment terms set through a draft order are
 * created as paymentTermsCreate creates them ("Requires `write_payment_terms` access scope"), the deposit's
 * due-on-fulfillment terms (app/checkout).
 */
export const INPUT_FIELD_SCOPES: Record<string, TypeScopeRule> = {
  "DraftOrderInput.paymentTerms": { anyOf: ["write_payment_terms"], source: `${ADMIN}/mutations/paymentTermsCreate` },
};

/**
 * The scope each webhook topic the app subscribes to needs (shopify.app.toml): Shopify delivers a topic only
 * to an app holding its scope (the topic's row in the webhooks reference).
 */
const WEBHOOKS = "https://shopify.dev/docs/api/webhooks/2026-10";
export const WEBHOOK_TOPIC_SCOPES: Record<string, TypeScopeRule> = {
  "app/uninstalled": { anyOf: [], source: `${WEBHOOKS}#list-app-uninstalled` },
  "app_subscriptions/update": { anyOf: [], source: `${WEBHOOKS}#list-app_subscriptions-update` },
  "shop/update": { anyOf: [], source: `${WEBHOOKS}#list-shop-update` },
  "orders/create": { anyOf: ["read_orders"], source: `${WEBHOOKS}#list-orders-create` },
  "orders/cancelled": { anyOf: ["read_orders"], source: `${WEBHOOKS}#list-orders-cancelled` },
  "orders/fulfilled": { anyOf: ["read_orders"], source: `${WEBHOOKS}#list-orders-fulfilled` },
  "orders/updated": { anyOf: ["read_orders"], source: `${WEBHOOKS}#list-orders-updated` },
  "orders/paid": { anyOf: ["read_orders"], source: `${WEBHOOKS}#list-orders-paid` },
  "fulfillment_events/create": { anyOf: ["read_fulfillments"], source: `${WEBHOOKS}#list-fulfillment_events-create` },
};

/** Sections of shopify.app.toml that need a scope of their own (the configuration reference's page for each). */
export const CONFIG_SECTION_SCOPES: Record<string, TypeScopeRule> = {
  app_proxy: { anyOf: ["write_app_proxy"], source: "https://shopify.dev/docs/apps/build/online-store/app-proxies" },
};
