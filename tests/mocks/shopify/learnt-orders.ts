import crypto from "node:crypto";
import { z } from "zod";
import type { FakeDeliveryStore } from "./delivery";
import { FakeDepositStore, type FakeMoneyOrder } from "./deposits";
import type { FakeEnforcementStore } from "./enforcement";
import { fakeOrder, type FakeOrderStore } from "./orders";
import type { FakePrepaidStore } from "./prepaid";
import type { FakeShopify } from "./server";

/**
 * Orders the app learns about, known to the fake Shopify with the fields Shopify's order has: whatever
 * the app is told by an `orders/create` (local mode's `npm run local:order`, the storefront checkout's
 * pay button, a test's webhook) is first an order in the store, as on Shopify, where the order exists
 * before its webhook. One payload feeds every store that answers a read of it: the order and its
 * addresses (address correction, the risk backfill), its money and payment page (the delivery reminder,
 * the pay-now offer), its fulfillment order (holds, cancellation), and it belongs to the shop it was
 * placed in.
 */
const address = z
  .object({
    first_name: z.string().nullish(),
    last_name: z.string().nullish(),
    phone: z.string().nullish(),
    address1: z.string().nullish(),
    address2: z.string().nullish(),
    city: z.string().nullish(),
    province: z.string().nullish(),
    province_code: z.string().nullish(),
    zip: z.string().nullish(),
    country: z.string().nullish(),
    country_code: z.string().nullish(),
  })
  .nullish();

const orderCreatedFields = z.object({
  admin_graphql_api_id: z.string().regex(/^gid:\/\/shopify\/Order\/\d+$/),
  name: z.string(),
  created_at: z.string().optional(),
  phone: z.string().nullish(),
  email: z.string().nullish(),
  currency: z.string().length(3).default("INR"),
  presentment_currency: z.string().length(3).nullish(),
  total_price: z.coerce.number().nonnegative().optional(),
  financial_status: z.string().nullish(),
  payment_gateway_names: z.array(z.string()).default([]),
  customer: z.object({ admin_graphql_api_id: z.string().nullish(), phone: z.string().nullish() }).nullish(),
  shipping_address: address,
  discount_codes: z.array(z.object({ code: z.string(), amount: z.coerce.number() })).default([]),
  shipping_lines: z.array(z.object({ price: z.coerce.number() })).default([]),
  line_items: z
    .array(
      z.object({
        id: z.union([z.number(), z.string()]).nullish(),
        title: z.string().nullish(),
        variant_id: z.union([z.number(), z.string()]).nullish(),
        quantity: z.coerce.number().int().positive().default(1),
        price: z.coerce.number().nonnegative(),
        requires_shipping: z.boolean().nullish(),
        discount_allocations: z.array(z.object({ amount: z.coerce.number() })).default([]),
      }),
    )
    .default([]),
});
/**
 * A payload that leaves the total out (a test's shorter sample; Shopify always sends it) totals its lines, less
 * its codes, plus shipping, as Shopify's total is made.
 */
export const orderCreatedPayload = orderCreatedFields.transform((p) => ({
  ...p,
  total_price:
    p.total_price ??
    Math.round((p.line_items.reduce((s, l) => s + l.price * l.quantity, 0) - p.discount_codes.reduce((s, d) => s + d.amount, 0) + p.shipping_lines.reduce((s, l) => s + l.price, 0)) * 100) / 100,
}));
export type OrderCreatedPayload = z.infer<typeof orderCreatedPayload>;

export type OrderStores = {
  fake: FakeShopify;
  orders: FakeOrderStore;
  delivery: FakeDeliveryStore;
  prepaid: FakePrepaidStore;
  enforcement: FakeEnforcementStore;
  /** The order's money and lines (the deposit balance's reads and edits). */
  deposits: FakeDepositStore;
};

/** Shopify's payment page for an order with something left to pay (local mode serves it at `paymentBase`). */
function paymentPage(shop: string, id: string, paymentBase?: string): string {
  const numeric = id.split("/").pop()!;
  const secret = crypto.createHash("sha256").update(id).digest("hex").slice(0, 16);
  return paymentBase ? `${paymentBase}?order=${numeric}&secret=${secret}` : `https://${shop}/${numeric}/order_payment/${numeric}?secret=${secret}`;
}

/** The order's lines, discount and shipping as Shopify's money fields hold them (the deposit balance reads and edits these). */
function moneyOrder(p: OrderCreatedPayload, pending: boolean): FakeMoneyOrder {
  const numeric = p.admin_graphql_api_id.split("/").pop()!;
  const code = p.discount_codes[0] ?? null;
  const order: FakeMoneyOrder = {
    id: p.admin_graphql_api_id,
    name: p.name,
    currency: p.presentment_currency ?? p.currency,
    shopCurrency: p.currency,
    rate: 1,
    lineItems: p.line_items.map((l, i) => ({
      id: `gid://shopify/LineItem/${l.id ?? `${numeric}${i}`}`,
      title: l.title ?? `Item ${l.variant_id ?? i + 1}`,
      variantId: l.variant_id == null ? null : `gid://shopify/ProductVariant/${l.variant_id}`,
      requiresShipping: l.requires_shipping ?? true,
      price: l.price,
      quantity: l.quantity,
      ...(l.discount_allocations.length ? { discount: l.discount_allocations.reduce((s, a) => s + a.amount, 0) } : {}),
    })),
    discount: code ? { code: code.code, amount: code.amount } : null,
    shipping: p.shipping_lines.reduce((s, l) => s + l.price, 0),
    paid: 0,
    cancelledAt: null,
    edits: 0,
  };
  // An order whose lines the payload leaves out is one line at its total, so its money adds up as Shopify's does.
  if (!order.lineItems.length) order.lineItems.push({ id: `gid://shopify/LineItem/${numeric}0`, title: p.name, variantId: null, requiresShipping: true, price: p.total_price + (order.discount?.amount ?? 0) - order.shipping, quantity: 1 });
  // A code's allocations, where the payload names only the code: all on the first line, as one-line orders have them.
  if (order.discount && !order.lineItems.some((l) => l.discount)) order.lineItems[0].discount = order.discount.amount;
  order.paid = pending ? 0 : FakeDepositStore.total(order);
  return order;
}

export function learnOrder(stores: OrderStores, shop: string, raw: unknown, options: { paymentBase?: string } = {}): OrderCreatedPayload {
  const p = orderCreatedPayload.parse(raw);
  const id = p.admin_graphql_api_id;
  const pending = !p.financial_status || ["pending", "authorized", "partially_paid"].includes(p.financial_status);
  const a = p.shipping_address;
  stores.orders.add(
    fakeOrder({
      id,
      name: p.name,
      phone: p.phone ?? null,
      email: p.email ?? null,
      createdAt: p.created_at ?? new Date().toISOString(),
      paymentGatewayNames: p.payment_gateway_names,
      displayFinancialStatus: pending ? "PENDING" : "PAID",
      customer: p.customer?.admin_graphql_api_id ? { id: p.customer.admin_graphql_api_id, phone: p.customer.phone ?? null } : null,
      shippingAddress: a
        ? {
            firstName: a.first_name ?? null,
            lastName: a.last_name ?? null,
            phone: a.phone ?? null,
            address1: a.address1 ?? null,
            address2: a.address2 ?? null,
            city: a.city ?? null,
            province: a.province ?? null,
            provinceCode: a.province_code ?? null,
            zip: a.zip ?? null,
            country: a.country ?? null,
            countryCodeV2: a.country_code ?? null,
          }
        : null,
    }),
  );
  const url = pending ? paymentPage(shop, id, options.paymentBase) : null;
  stores.delivery.add({ id, name: p.name, outstanding: (pending ? p.total_price : 0).toFixed(2), currency: p.currency, paymentUrl: url });
  stores.prepaid.add(id, {
    email: p.email ?? null,
    currency: p.currency,
    presentmentCurrency: p.presentment_currency ?? p.currency,
    total: p.total_price,
    url,
    displayFinancialStatus: pending ? "PENDING" : "PAID",
  });
  if (!pending) stores.prepaid.pay(id, "online");
  if (!stores.deposits.orders.has(id)) stores.deposits.orders.set(id, moneyOrder(p, pending));
  stores.enforcement.order(id);
  stores.fake.own(shop, id);
  if (p.customer?.admin_graphql_api_id) stores.fake.own(shop, p.customer.admin_graphql_api_id);
  return p;
}

/**
 * The shopper pays the order online on Shopify's payment page: the payment is recorded and the order's
 * balance is nothing (what Shopify then tells the app with orders/paid).
 */
export function payOrderOnline(stores: OrderStores, id: string): { ok: boolean; amount: number } {
  const order = stores.prepaid.orders.get(id);
  if (!order) return { ok: false, amount: 0 };
  const amount = stores.prepaid.outstanding(order);
  if (amount <= 0) return { ok: false, amount: 0 };
  stores.prepaid.pay(id, "online");
  const shipped = stores.delivery.orders.get(id);
  if (shipped) {
    shipped.outstanding = "0.00";
    shipped.paymentUrl = null;
  }
  const placed = stores.orders.get(id);
  if (placed) placed.displayFinancialStatus = "PAID";
  return { ok: true, amount };
}

/**
 * The stores running in this process that hold orders (local mode's fake Shopify registers itself while it
 * runs). A test's signed orders/create teaches them the order it delivers (tests/helpers/webhooks.ts,
 * tests/helpers/server.ts), through the same `learnOrder` that `npm run local:order` and the checkout's pay
 * button go through: the order is in the store before its webhook reaches the app, as on Shopify, with no
 * separate seeding step to forget or to fill differently. On globalThis so every copy of this module shares it.
 */
const LEARNERS_KEY = Symbol.for("cod-verify.fake-shopify.order-learners");
export type StoreLearner = {
  /** orders/create's payload: the order Shopify placed in `shop`. */
  orderPlaced: (shop: string, payload: unknown) => void;
  /** fulfillment_events/create: the carrier's status on an order of `shop` (the order ships). */
  carrierEvent: (shop: string, orderGid: string, status: string, eventGid: string | null) => void;
};
export function orderLearners(): Set<StoreLearner> {
  const g = globalThis as { [LEARNERS_KEY]?: Set<StoreLearner> };
  return (g[LEARNERS_KEY] ??= new Set());
}

/**
 * Shopify placed this order in `shop` (the orders/create payload the test is about to deliver): every running
 * store learns it. A body that is not an order Shopify could have sent (a test of the app's refusals) teaches
 * nothing; an order a store already holds stays as it is, and stays the shop's it was placed in.
 */
export function orderPlaced(shop: string, payload: unknown): void {
  for (const learner of orderLearners()) learner.orderPlaced(shop, payload);
}

/**
 * The carrier reported `status` on an order (the fulfillment_events/create body the test is about to deliver,
 * raw: its order_id passes 2^53): every running store that holds the order for `shop` ships it and keeps the event.
 */
export function carrierReported(shop: string, rawBody: string): void {
  const orderId = /"order_id"\s*:\s*"?(\d+)/.exec(rawBody)?.[1];
  const status = /"status"\s*:\s*"([a-z_]+)"/.exec(rawBody)?.[1];
  if (!orderId || !status) return;
  // A redelivery carries the same event: the store keeps it once.
  const eventGid = /"admin_graphql_api_id"\s*:\s*"(gid:\/\/shopify\/FulfillmentEvent\/\d+)"/.exec(rawBody)?.[1] ?? null;
  for (const learner of orderLearners()) learner.carrierEvent(shop, `gid://shopify/Order/${orderId}`, status, eventGid);
}
