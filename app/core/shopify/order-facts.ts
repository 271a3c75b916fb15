import { codMethodNames, normalizeMethodName } from "../../../extensions/cod-payment-customization/src/cart_payment_methods_transform_run";
import { PROOF_ATTRIBUTE } from "../../../extensions/cod-payment-customization/src/proof-format";
import { codMethodNameList } from "~/core/settings/cod-methods";
import { ATTRIBUTES } from "~/shared/payment-modes";
import { canonicalIp } from "~/shared/ip";
import { normalizePhoneIn, parseCountryList } from "~/shared/phone";
import type { OrderCreated } from "~/core/shopify/webhook-payloads";
import { parseTrafficSource, SOURCE_ATTRIBUTE, trafficSourceFromLanding, type TrafficSource } from "~/shared/traffic-source";

/**
 * One orders/create delivery, read once at the webhook's door: everything the re-check, the link,
 * the tags, the confirmation, the order record and the address check need, already normalised.
 * Nothing downstream reads the raw payload again.
 */
export type OrderFacts = {
  gid: string;
  name: string | null;
  /** When the order was placed (created_at; the delivery's arrival when Shopify sent none). */
  placedAt: Date;
  /** Every phone on the order in E.164, each once, in order of trust: the order's own, the customer's, the shipping then billing address's. */
  phones: string[];
  /** The number to text about the order's address, in the Admin API path's order: the order's own, the shipping address's, the customer's. */
  contactPhone: string | null;
  /** Our `_cod_proof` attribute as the order carries it (checked against the secret by the re-check). */
  proof: string | null;
  /** Our `_cod_selection` attribute, when it looks like one of our ids (a pointer only: it proves nothing). */
  selectionId: string | null;
  /** The cart and checkout tokens, to find the selection the shopper's browser made. */
  cartTokens: string[];
  /** Paid by one of the shop's cash-on-delivery methods: the checkout function's names and normalisation. */
  isCod: boolean;
  customer: { gid: string | null; tags: string[] };
  /** The discount codes used and what each took off (in the order's currency), for the deposit code's balance. */
  discountCodes: { code: string; amount: number }[];
  /** The currency the order was placed in (presentment, else shop). */
  currency: string | null;
  locale: string | null;
  /** What the address check reads (app/address-correction): the shipping address and whether the order can still change. */
  shippingAddress: OrderCreated["shipping_address"];
  state: { cancelledAt: string | null; closedAt: string | null; fulfillmentStatus: string | null };
  /** The order's total in the shop's currency (null when Shopify sent none or an unreadable one). */
  value: number | null;
  /** What the shopper paid at checkout in the shop's currency (total less outstanding); null when Shopify did not say. */
  paid: number | null;
  /**
   * The buyer's IP as Shopify saw it (`browser_ip`, else `client_details.browser_ip`), canonical; null
   * when the order has none (draft, POS, API orders) or an unreadable one. The risk score's velocity per
   * IP; stored only as a keyed hash (OrderRecord.ipHash).
   */
  browserIp: string | null;
  /**
   * Where the shopper came from: our `_cod_source` cart attribute (the session's first touch, kept by the
   * storefront block), else Shopify's own `landing_site` / `referring_site`; null when neither says.
   */
  trafficSource: TrafficSource | null;
  /** The titles of the order's products (a line with a product), each once, at most 10: the delivery analytics' product. */
  products: string[];
};

/** What the shop adds to the facts: its COD method names (settings) and its country, the last default region for national numbers. */
export type FactsShop = { codMethodNames: string | null; country: string | null; hosts?: (string | null)[] };

/**
 * The shop's country for national numbers: the one country its allow-list names (the only country whose
 * numbers can verify there), else the country Shopify gives for the shop (install and shop/update), or null.
 */
export function shopCountryOf(shop: { allowedCountries: string | null; country: string | null }): string | null {
  const allowed = parseCountryList(shop.allowedCountries);
  return allowed.length === 1 ? allowed[0] : shop.country || null;
}

export function readOrderFacts(order: OrderCreated, shop: FactsShop, receivedAt: Date): OrderFacts {
  const ship = order.shipping_address;
  const bill = order.billing_address;
  // One order of trust for the default region of a national number: the shipping address's country,
  // the billing address's, then the shop's. An address's own phone is read with its own country first.
  const region = ship?.country_code || bill?.country_code || shop.country;
  const read = (raw: string | null | undefined, own?: string | null) => normalizePhoneIn(raw, own || region);
  const orderPhone = read(order.phone);
  const customerPhone = read(order.customer?.phone);
  const shipPhone = read(ship?.phone, ship?.country_code);
  const billPhone = read(bill?.phone, bill?.country_code);
  const customerGid = order.customer?.admin_graphql_api_id;
  return {
    gid: order.admin_graphql_api_id,
    name: order.name ?? null,
    placedAt: placedAt(order.created_at, receivedAt),
    phones: unique([orderPhone, customerPhone, shipPhone, billPhone]),
    contactPhone: orderPhone ?? shipPhone ?? customerPhone,
    proof: attributeOf(order, PROOF_ATTRIBUTE),
    selectionId: selectionIdOf(attributeOf(order, ATTRIBUTES.selection)),
    cartTokens: unique([order.cart_token, order.checkout_token]),
    isCod: isCodGateway([...(order.payment_gateway_names ?? []), order.gateway], shop.codMethodNames),
    customer: {
      gid: customerGid?.startsWith("gid://shopify/Customer/") ? customerGid : null,
      tags: (order.customer?.tags ?? "").split(",").map((t) => t.trim()).filter(Boolean),
    },
    discountCodes: (order.discount_codes ?? [])
      .map((d) => ({ code: d.code, amount: Number(d.amount ?? 0) }))
      .filter((d) => Number.isFinite(d.amount)),
    currency: order.presentment_currency ?? order.currency ?? null,
    locale: order.customer_locale ?? null,
    shippingAddress: ship ?? null,
    state: { cancelledAt: order.cancelled_at ?? null, closedAt: order.closed_at ?? null, fulfillmentStatus: order.fulfillment_status ?? null },
    value: amountOf(order.total_price),
    paid: paidOf(amountOf(order.total_price), amountOf(order.total_outstanding)),
    browserIp: canonicalIp(order.browser_ip) ?? canonicalIp(order.client_details?.browser_ip),
    trafficSource:
      parseTrafficSource(attributeOf(order, SOURCE_ATTRIBUTE)) ??
      trafficSourceFromLanding(order.landing_site, order.referring_site, (shop.hosts ?? []).filter((h): h is string => !!h)),
    products: unique((order.line_items ?? []).filter((l) => l.product_id != null).map((l) => l.title?.trim().slice(0, 100))).slice(0, 10),
  };
}

function paidOf(total: number | null, outstanding: number | null): number | null {
  return total == null || outstanding == null ? null : Math.max(0, Math.round((total - outstanding) * 100) / 100);
}

function amountOf(raw: string | number | null | undefined): number | null {
  const n = typeof raw === "number" ? raw : raw && /^\d{1,12}(\.\d{1,4})?$/.test(raw.trim()) ? Number(raw) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/**
 * Cash on delivery by the same rule as the checkout function (extensions/cod-payment-customization/src/cart_payment_methods_transform_run.ts):
 * a gateway whose name, normalised as the function normalises it, is one of the shop's configured COD
 * method names or the built-in defaults (Shopify's manual "Cash on Delivery (COD)").
 */
export function isCodGateway(gateways: (string | null | undefined)[], shopNames: string | null): boolean {
  const names = codMethodNames(codMethodNameList(shopNames));
  return gateways.some((g) => !!g && names.has(normalizeMethodName(g)));
}

function attributeOf(order: OrderCreated, name: string): string | null {
  const found = order.note_attributes?.find((a) => a.name === name);
  return found?.value == null ? null : String(found.value);
}

function selectionIdOf(id: string | null): string | null {
  return id && /^[a-z0-9]{10,40}$/i.test(id) ? id : null;
}

function placedAt(createdAt: string | null | undefined, receivedAt: Date): Date {
  const t = createdAt ? Date.parse(createdAt) : NaN;
  return Number.isFinite(t) ? new Date(t) : receivedAt;
}

function unique(values: (string | null | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => !!v))];
}
