/**
 * Every GraphQL operation the app sends to Shopify, each written once: its name (what Shopify's logs
 * and a test double key on) and its document. The callers own the variables and parse the replies.
 * Checkout's documents (the Storefront cart, the deposit's draft order, code and order edit) are in
 * checkout-operations.ts, named in the table below like the rest.
 * API version: the one `app.server.ts` configures (2026-10).
 */
export const OPERATIONS = {
  // Storefront API
  cartCreate: "CreateCheckoutCart",
  cartLinesUpdate: "SetCodFeeQuantity",
  // Admin API: checkout for the partial (deposit) mode
  draftOrderCreate: "CreateDepositDraftOrder",
  draftOrderCalculate: "CalculateDepositDraftOrder",
  paymentTermsTemplates: "FulfillmentPaymentTerms",
  // partial where the store has no draft-order deposits: a single-use code on the cart, then an order edit
  depositDiscountCreate: "CreateDepositDiscountCode",
  cartDiscountCodesUpdate: "ApplyDepositDiscountCode",
  orderBalanceLines: "DepositOrderBalance",
  orderEditBegin: "BeginDepositBalanceEdit",
  orderEditAddCustomItem: "AddDepositBalanceLine",
  orderEditCommit: "CommitDepositBalanceEdit",
  // Admin API: orders
  tagsAdd: "AddOrderTags",
  orderById: "AddressCorrectionOrder",
  latestOpenOrders: "AddressCorrectionOrdersByPhone",
  orderUpdate: "AddressCorrectionUpdateOrder",
  metafieldsSet: "AddressCorrectionRequestedAddress",
  // Admin API: the shop, read at install
  shopDetails: "ShopDetails",
  shopShipsTo: "ShopShipsToCountries",
  // Admin API: enforcement (the checkout function's payment customization, verification after purchase)
  paymentCustomizationCreate: "CreateCodPaymentCustomization",
  paymentCustomizationUpdate: "UpdateCodPaymentCustomization",
  orderFulfillmentOrders: "UnconfirmedOrderFulfillmentOrders",
  fulfillmentOrderHold: "HoldUnconfirmedOrder",
  fulfillmentOrderReleaseHold: "ReleaseConfirmedOrder",
  orderCancel: "CancelUnconfirmedOrder",
  tagsRemove: "RemoveOrderTags",
  // Admin API: the order's risk panel (app/risk)
  orderRiskAssessmentCreate: "RecordCodRiskAssessment",
  // Admin API: the blocklist (a blocked number loses the verified-customer tag)
  customersByPhone: "BlockedPhoneCustomers",
  // Admin API: usage charges past the plan's allowance (app/billing/usage-charges.server.ts)
  usageLineItem: "ActiveUsageLineItem",
  usageRecordCreate: "ChargeVerificationPastAllowance",
  // Admin API: the admin's onboarding checklist
  themeAppBlocks: "StorefrontThemeAppBlocks",
  recentOrderGateways: "RecentOrderPaymentGateways",
  // Admin API: the risk score's outcomes learnt from the shop's recent orders on install (app/risk/backfill.server.ts)
  recentOrderOutcomes: "RecentOrderOutcomes",
  // Admin API: Shopify Flow triggers (app/flow) and what a failed delivery's answer writes to the order (app/delivery)
  flowTriggerReceive: "StartFlowTrigger",
  orderNote: "DeliveryOrderNote",
  orderNoteUpdate: "RecordDeliveryAnswer",
  deliveryAnswerMetafield: "DeliveryAnswerMetafield",
  orderBalanceDue: "DeliveryBalanceDue",
  // Admin API: pay now after the order (app/orders/prepaid-offer.server.ts)
  prepaidOfferOrder: "PrepaidOfferOrder",
  orderInvoiceSend: "SendPrepaidOfferInvoice",
  prepaidIncentiveRefund: "RefundPrepaidIncentive",
  // Admin API: what a webhook's body claims, read back from the shop it names (app/http/webhook-trust.server.ts)
  subscriptionReadBack: "ReadBackAppSubscription",
  orderReadBack: "ReadBackOrderOwner",
} as const;

export type OperationKey = keyof typeof OPERATIONS;

/** Appends tags to an order (tags it already has stay once): the payment-mode tag and address-correction's tag. */
export const TAGS_ADD = `#graphql
mutation ${OPERATIONS.tagsAdd}($id: ID!, $tags: [String!]!) {
  tagsAdd(id: $id, tags: $tags) {
    node { id }
    userErrors { field message }
  }
}`;

/** Writes the app's COD risk assessment onto the order (Shopify's risk panel): a level and up to 20 facts. */
export const ORDER_RISK_ASSESSMENT_CREATE = `#graphql
mutation ${OPERATIONS.orderRiskAssessmentCreate}($input: OrderRiskAssessmentCreateInput!) {
  orderRiskAssessmentCreate(orderRiskAssessmentInput: $input) {
    orderRiskAssessment { riskLevel }
    userErrors { field message code }
  }
}`;

const ORDER_FIELDS = `
  id
  name
  phone
  cancelledAt
  closed
  displayFulfillmentStatus
  customer { phone }
  shippingAddress { firstName lastName phone address1 address2 city province provinceCode zip countryCodeV2 }`;

export const ORDER_BY_ID = `#graphql
query ${OPERATIONS.orderById}($id: ID!) { order(id: $id) { ${ORDER_FIELDS} } }`;

export const LATEST_OPEN_ORDERS = `#graphql
query ${OPERATIONS.latestOpenOrders}($query: String!) {
  orders(first: 5, sortKey: CREATED_AT, reverse: true, query: $query) { nodes { ${ORDER_FIELDS} } }
}`;

export const ORDER_UPDATE = `#graphql
mutation ${OPERATIONS.orderUpdate}($input: OrderInput!) {
  orderUpdate(input: $input) {
    order { id shippingAddress { address1 city zip countryCodeV2 } }
    userErrors { field message }
  }
}`;

export const METAFIELDS_SET = `#graphql
mutation ${OPERATIONS.metafieldsSet}($metafields: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $metafields) { metafields { id } userErrors { field message } }
}`;

/**
 * The shop as the app keeps it (app/core/settings/shop.server.ts readShopDetails). Only the `shop` root
 * field, which needs no access scope: the language is the primary domain's default locale
 * (`Domain.localization`), not `shopLocales`, which would need `read_locales`.
 */
export const SHOP_DETAILS = `#graphql
query ${OPERATIONS.shopDetails} {
  shop { name currencyCode primaryDomain { host localization { defaultLocale } } plan { shopifyPlus partnerDevelopment } shopAddress { countryCodeV2 } ianaTimezone }
}`;

/** The countries the shop ships to (the address-correction form offers them). The `shop` root field: no access scope. */
export const SHOP_SHIPS_TO = `#graphql
query ${OPERATIONS.shopShipsTo} {
  shop { shipsToCountries }
}`;

/** Creates the payment customization that runs our checkout function (extensions/cod-payment-customization). */
export const PAYMENT_CUSTOMIZATION_CREATE = `#graphql
mutation ${OPERATIONS.paymentCustomizationCreate}($input: PaymentCustomizationInput!) {
  paymentCustomizationCreate(paymentCustomization: $input) {
    paymentCustomization { id enabled }
    userErrors { code field message }
  }
}`;

export const PAYMENT_CUSTOMIZATION_UPDATE = `#graphql
mutation ${OPERATIONS.paymentCustomizationUpdate}($id: ID!, $input: PaymentCustomizationInput!) {
  paymentCustomizationUpdate(id: $id, paymentCustomization: $input) {
    paymentCustomization { id enabled }
    userErrors { code field message }
  }
}`;

/**
 * An order that waits for its shopper's confirmation as Shopify shows it now: cancelled or not, and its
 * fulfillment orders with their holds (2025-01+: several per fulfillment order, each with the handle its
 * app gave it), so holds are placed and released from what is there, never from what the app recorded.
 */
export const ORDER_FULFILLMENT_ORDERS = `#graphql
query ${OPERATIONS.orderFulfillmentOrders}($id: ID!) {
  order(id: $id) {
    id
    cancelledAt
    fulfillmentOrders(first: 20) { nodes { id status fulfillmentHolds { id handle reason heldByRequestingApp } } }
  }
}`;

export const FULFILLMENT_ORDER_HOLD = `#graphql
mutation ${OPERATIONS.fulfillmentOrderHold}($id: ID!, $fulfillmentHold: FulfillmentOrderHoldInput!) {
  fulfillmentOrderHold(id: $id, fulfillmentHold: $fulfillmentHold) {
    fulfillmentHold { id }
    fulfillmentOrder { id status }
    userErrors { field message code }
  }
}`;

/** Releases only the holds named (ours, read back by handle), never the merchant's own: without holdIds Shopify releases all. */
export const FULFILLMENT_ORDER_RELEASE_HOLD = `#graphql
mutation ${OPERATIONS.fulfillmentOrderReleaseHold}($id: ID!, $holdIds: [ID!]) {
  fulfillmentOrderReleaseHold(id: $id, holdIds: $holdIds) {
    fulfillmentOrder { id status }
    userErrors { field message code }
  }
}`;

export const ORDER_CANCEL = `#graphql
mutation ${OPERATIONS.orderCancel}($orderId: ID!, $reason: OrderCancelReason!, $refundMethod: OrderCancelRefundMethodInput!, $restock: Boolean!, $notifyCustomer: Boolean, $staffNote: String) {
  orderCancel(orderId: $orderId, reason: $reason, refundMethod: $refundMethod, restock: $restock, notifyCustomer: $notifyCustomer, staffNote: $staffNote) {
    job { id done }
    orderCancelUserErrors { field message code }
  }
}`;

/** Removes tags from an order (cod-pending once the order is confirmed or the deadline passed). */
export const TAGS_REMOVE = `#graphql
mutation ${OPERATIONS.tagsRemove}($id: ID!, $tags: [String!]!) {
  tagsRemove(id: $id, tags: $tags) { node { id } userErrors { field message } }
}`;

/** The templates of the live theme where the app's block goes (onboarding: is the button on the storefront?). */
export const THEME_APP_BLOCKS = `#graphql
query ${OPERATIONS.themeAppBlocks} {
  themes(first: 1, roles: [MAIN]) {
    nodes {
      id
      name
      files(filenames: ["templates/product.json", "templates/cart.json"], first: 2) {
        nodes { filename body { ... on OnlineStoreThemeFileBodyText { content } } }
      }
    }
  }
}`;

/** The payment gateway names of the latest orders (onboarding: suggests the COD method names). */
export const RECENT_ORDER_GATEWAYS = `#graphql
query ${OPERATIONS.recentOrderGateways} {
  orders(first: 50, sortKey: CREATED_AT, reverse: true) { nodes { paymentGatewayNames } }
}`;

/** The customers carrying these phones (`phone:"+1..." OR ...`), with their tags: a blocked number loses cod-verified-customer. */
export const CUSTOMERS_BY_PHONE = `#graphql
query ${OPERATIONS.customersByPhone}($query: String!) {
  customers(first: 50, query: $query) { nodes { id phone tags } }
}`;

/** The active subscription's usage line item (the one that takes usage records), if it has one. */
export const ACTIVE_USAGE_LINE_ITEM = `#graphql
query ${OPERATIONS.usageLineItem} {
  currentAppInstallation {
    activeSubscriptions {
      id
      lineItems { id plan { pricingDetails { __typename ... on AppUsagePricing { cappedAmount { amount currencyCode } balanceUsed { amount currencyCode } } } } }
    }
  }
}`;

/**
 * One usage charge. Our own document rather than the library's billing.createUsageRecord: that one
 * needs a request's session, and its mutation does not declare `$idempotencyKey`, so the key would
 * not reach Shopify (@shopify/shopify-api 15.0.0, lib/billing/create-usage-record).
 */
export const USAGE_RECORD_CREATE = `#graphql
mutation ${OPERATIONS.usageRecordCreate}($subscriptionLineItemId: ID!, $description: String!, $price: MoneyInput!, $idempotencyKey: String!) {
  appUsageRecordCreate(subscriptionLineItemId: $subscriptionLineItemId, description: $description, price: $price, idempotencyKey: $idempotencyKey) {
    appUsageRecord { id idempotencyKey }
    userErrors { field message }
  }
}`;

/** A page of the shop's recent orders, newest first, with what tells their outcome (app/risk/backfill.server.ts). */
export const RECENT_ORDER_OUTCOMES = `#graphql
query ${OPERATIONS.recentOrderOutcomes}($query: String!, $after: String) {
  orders(first: 100, after: $after, sortKey: CREATED_AT, reverse: true, query: $query) {
    nodes {
      id
      createdAt
      phone
      cancelledAt
      displayFulfillmentStatus
      displayFinancialStatus
      tags
      paymentGatewayNames
      customer { phone }
      shippingAddress { phone zip countryCodeV2 }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

/** Starts the shop's workflows that begin with the app's trigger `handle` (payload < 1 MB; no scope of its own). */
export const FLOW_TRIGGER_RECEIVE = `#graphql
mutation ${OPERATIONS.flowTriggerReceive}($handle: String!, $payload: JSON!) {
  flowTriggerReceive(handle: $handle, payload: $payload) { userErrors { field message } }
}`;

/** The order's note, read before a delivery answer is appended to it (orderUpdate replaces the whole note). */
export const ORDER_NOTE = `#graphql
query ${OPERATIONS.orderNote}($id: ID!) { order(id: $id) { id note } }`;

/** The note with the delivery answer appended. */
export const ORDER_NOTE_UPDATE = `#graphql
mutation ${OPERATIONS.orderNoteUpdate}($input: OrderInput!) {
  orderUpdate(input: $input) { order { id } userErrors { field message } }
}`;

/** The delivery answer as a JSON metafield a courier integration reads (cod_verify.delivery_answer). */
export const DELIVERY_ANSWER_METAFIELD = `#graphql
mutation ${OPERATIONS.deliveryAnswerMetafield}($metafields: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $metafields) { metafields { id } userErrors { field message code } }
}`;

/** What the shopper pays on delivery (the reminder's amount) and Shopify's payment page for it (pay online). */
export const ORDER_BALANCE_DUE = `#graphql
query ${OPERATIONS.orderBalanceDue}($id: ID!) {
  order(id: $id) {
    id
    name
    cancelledAt
    totalOutstandingSet { shopMoney { amount currencyCode } }
    paymentCollectionDetails { additionalPaymentCollectionUrl }
  }
}`;

/**
 * A COD order as the pay-now offer reads it, on every send, open and payment: whether it can still be paid
 * online (not cancelled, not shipped, an amount outstanding), Shopify's own payment page for it (documented
 * for orders that need more payment after an edit; read, never assumed), and the payments and refunds it has.
 */
export const PREPAID_OFFER_ORDER = `#graphql
query ${OPERATIONS.prepaidOfferOrder}($id: ID!) {
  order(id: $id) {
    id
    email
    cancelledAt
    displayFinancialStatus
    displayFulfillmentStatus
    currencyCode
    presentmentCurrencyCode
    totalOutstandingSet { presentmentMoney { amount currencyCode } shopMoney { amount currencyCode } }
    paymentCollectionDetails { additionalPaymentCollectionUrl }
    transactions(first: 50) { id kind status gateway manualPaymentGateway amountSet { presentmentMoney { amount currencyCode } } }
    refunds(first: 50) { id note }
  }
}`;

/** Shopify's own invoice for the order (the admin's "Send invoice" for a payment-pending order): the offer where the order has no payment page. */
export const ORDER_INVOICE_SEND = `#graphql
mutation ${OPERATIONS.orderInvoiceSend}($id: ID!, $email: EmailInput) {
  orderInvoiceSend(id: $id, email: $email) {
    order { id }
    userErrors { code field message }
  }
}`;

/** The pay-now reward given back once the order is paid online: a refund against that payment, once (Shopify's idempotency key, required since 2026-04). */
export const PREPAID_INCENTIVE_REFUND = `#graphql
mutation ${OPERATIONS.prepaidIncentiveRefund}($input: RefundInput!, $idempotencyKey: String!) {
  refundCreate(input: $input) @idempotent(key: $idempotencyKey) {
    refund { id note }
    userErrors { field message }
  }
}`;

/**
 * app_subscriptions/update, read back (the body is signed but names no shop, so it could be replayed
 * under another shop's header): the installation's active subscriptions, and its latest subscriptions
 * with their status, where the one the body names is found when it is this installation's. No scope needed.
 */
export const SUBSCRIPTION_READ_BACK = `#graphql
query ${OPERATIONS.subscriptionReadBack} {
  currentAppInstallation {
    activeSubscriptions { id name status }
    allSubscriptions(first: 25, sortKey: CREATED_AT, reverse: true) { nodes { id name status } }
  }
}`;

/** An order's outcome webhook, read back: the order as this shop sees it (null when it is not this shop's). read_orders. */
export const ORDER_READ_BACK = `#graphql
query ${OPERATIONS.orderReadBack}($id: ID!) {
  order(id: $id) { id }
}`;
