import crypto from "node:crypto";
import { z } from "zod";
import type { FakeDeliveryStore } from "./delivery";
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

export const orderCreatedPayload = z.object({
  admin_graphql_api_id: z.string().regex(/^gid:\/\/shopify\/Order\/\d+$/),
  name: z.string(),
  created_at: z.string().optional(),
  phone: z.string().nullish(),
  email: z.string().nullish(),
  currency: z.string().length(3).default("INR"),
  presentment_currency: z.string().length(3).nullish(),
  total_price: z.coerce.number().nonnegative(),
  financial_status: z.string().nullish(),
  payment_gateway_names: z.array(z.string()).default([]),
  customer: z.object({ admin_graphql_api_id: z.string().nullish(), phone: z.string().nullish() }).nullish(),
  shipping_address: address,
});
export type OrderCreatedPayload = z.infer<typeof orderCreatedPayload>;

export type OrderStores = { fake: FakeShopify; orders: FakeOrderStore; delivery: FakeDeliveryStore; prepaid: FakePrepaidStore; enforcement: FakeEnforcementStore };

/** Shopify's payment page for an order with something left to pay (local mode serves it at `paymentBase`). */
function paymentPage(shop: string, id: string, paymentBase?: string): string {
  const numeric = id.split("/").pop()!;
  const secret = crypto.createHash("sha256").update(id).digest("hex").slice(0, 16);
  return paymentBase ? `${paymentBase}?order=${numeric}&secret=${secret}` : `https://${shop}/${numeric}/order_payment/${numeric}?secret=${secret}`;
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
