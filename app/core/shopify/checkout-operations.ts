import { OPERATIONS } from "./operations";

/**
 * The GraphQL documents of checkout (app/checkout, and the deposit's balance in app/orders), each
 * written once, named in operations.ts's OPERATIONS like every other: the Storefront API's cart for
 * cod and prepaid, and for partial the Admin API's draft order with Shopify's deposit, or a single-use
 * deposit code on the cart and an order edit that adds the balance line after the order.
 */

export const CART_CREATE = `#graphql
mutation ${OPERATIONS.cartCreate}($input: CartInput!) {
  cartCreate(input: $input) {
    cart {
      id
      checkoutUrl
      lines(first: 101) { nodes { id quantity merchandise { ... on ProductVariant { id price { amount currencyCode } } } } }
    }
    userErrors { code field message }
    warnings { code message target }
  }
}`;

/** Sets a cart line's quantity: the COD fee line, to the number of fee units that make up the fee. */
export const CART_LINES_UPDATE = `#graphql
mutation ${OPERATIONS.cartLinesUpdate}($cartId: ID!, $lines: [CartLineUpdateInput!]!) {
  cartLinesUpdate(cartId: $cartId, lines: $lines) {
    cart { id }
    userErrors { code field message }
  }
}`;

export const PAYMENT_TERMS_TEMPLATES = `#graphql
query ${OPERATIONS.paymentTermsTemplates} {
  paymentTermsTemplates(paymentTermsType: FULFILLMENT) { id name paymentTermsType }
}`;

export const DRAFT_ORDER_CALCULATE = `#graphql
mutation ${OPERATIONS.draftOrderCalculate}($input: DraftOrderInput!) {
  draftOrderCalculate(input: $input) {
    calculatedDraftOrder { totalPriceSet { shopMoney { amount currencyCode } } }
    userErrors { field message }
  }
}`;

export const DRAFT_ORDER_CREATE = `#graphql
mutation ${OPERATIONS.draftOrderCreate}($input: DraftOrderInput!) {
  draftOrderCreate(input: $input) {
    draftOrder { id name invoiceUrl totalPriceSet { shopMoney { amount currencyCode } } }
    userErrors { field message }
  }
}`;

/**
 * The code that grants one checkout the deposit price: a fixed amount off the selection's variants,
 * usable once, by one customer, for a short while, and only on a cart worth the selection's subtotal.
 */
export const DEPOSIT_DISCOUNT_CREATE = `#graphql
mutation ${OPERATIONS.depositDiscountCreate}($basicCodeDiscount: DiscountCodeBasicInput!) {
  discountCodeBasicCreate(basicCodeDiscount: $basicCodeDiscount) {
    codeDiscountNode { id }
    userErrors { field message code }
  }
}`;

export const CART_DISCOUNT_CODES_UPDATE = `#graphql
mutation ${OPERATIONS.cartDiscountCodesUpdate}($cartId: ID!, $discountCodes: [String!]!) {
  cartDiscountCodesUpdate(cartId: $cartId, discountCodes: $discountCodes) {
    cart { id checkoutUrl discountCodes { code applicable } }
    userErrors { code field message }
  }
}`;

/**
 * The order's lines and money as Shopify shows them now: whether the balance line is on it already. The
 * balance line is known by its title and by needing no shipping (the app adds it so), never by having
 * no `variant`: ProductVariant needs `read_products`, a scope the app has no other use for.
 */
export const ORDER_BALANCE_LINES = `#graphql
query ${OPERATIONS.orderBalanceLines}($id: ID!) {
  order(id: $id) {
    id
    cancelledAt
    presentmentCurrencyCode
    lineItems(first: 100) {
      nodes {
        id
        title
        requiresShipping
        discountAllocations {
          allocatedAmountSet { presentmentMoney { amount currencyCode } shopMoney { amount currencyCode } }
          discountApplication { ... on DiscountCodeApplication { code } }
        }
      }
    }
    currentTotalPriceSet { presentmentMoney { amount currencyCode } shopMoney { amount currencyCode } }
    totalOutstandingSet { presentmentMoney { amount currencyCode } shopMoney { amount currencyCode } }
  }
}`;

export const ORDER_EDIT_BEGIN = `#graphql
mutation ${OPERATIONS.orderEditBegin}($id: ID!) {
  orderEditBegin(id: $id) {
    calculatedOrder { id }
    userErrors { field message }
  }
}`;

export const ORDER_EDIT_ADD_CUSTOM_ITEM = `#graphql
mutation ${OPERATIONS.orderEditAddCustomItem}($id: ID!, $title: String!, $price: MoneyInput!, $quantity: Int!, $taxable: Boolean, $requiresShipping: Boolean) {
  orderEditAddCustomItem(id: $id, title: $title, price: $price, quantity: $quantity, taxable: $taxable, requiresShipping: $requiresShipping) {
    calculatedLineItem { id }
    userErrors { field message }
  }
}`;

export const ORDER_EDIT_COMMIT = `#graphql
mutation ${OPERATIONS.orderEditCommit}($id: ID!, $notifyCustomer: Boolean, $staffNote: String) {
  orderEditCommit(id: $id, notifyCustomer: $notifyCustomer, staffNote: $staffNote) {
    order { id totalOutstandingSet { shopMoney { amount currencyCode } } }
    userErrors { field message }
  }
}`;
