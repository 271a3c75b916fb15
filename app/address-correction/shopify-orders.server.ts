import { z } from "zod";
import { shopifyGraphql } from "~/core/shopify/graphql.server";
import { LATEST_OPEN_ORDERS, METAFIELDS_SET, ORDER_BY_ID, ORDER_UPDATE, SHOP_SHIPS_TO, TAGS_ADD } from "~/core/shopify/operations";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import { mailingAddressSchema, type Address, toMailingAddressInput, formatAddress } from "~/core/places/address";
import { normalizePhone } from "~/shared/phone";

/**
 * The Admin API calls of address correction, through the library's GraphQL client (bounded in time
 * by `shopifyGraphql`). Replies are parsed with zod; every failure (timeout, network, HTTP, GraphQL
 * errors, a reply of the wrong shape) is the value `{ ok: false, code: "shopify_unavailable" }`.
 */



const orderSchema = z.object({
  id: z.string(),
  name: z.string(),
  phone: z.string().nullish(),
  cancelledAt: z.string().nullish(),
  closed: z.boolean().nullish(),
  displayFulfillmentStatus: z.string().nullish(),
  customer: z.object({ phone: z.string().nullish() }).nullish(),
  shippingAddress: mailingAddressSchema.nullish(),
});
export type ShopifyOrder = z.infer<typeof orderSchema>;

const userErrorsSchema = z.array(z.object({ field: z.array(z.string()).nullish(), message: z.string() }));
export type UserError = z.infer<typeof userErrorsSchema>[number];

type Unavailable = { ok: false; code: "shopify_unavailable"; detail: string };

async function call<S extends z.ZodTypeAny>(
  shop: string,
  query: string,
  variables: Record<string, unknown>,
  schema: S,
): Promise<{ ok: true; data: z.infer<S> } | Unavailable> {
  // The shared bounded call: the library's Admin client, a time limit, every failure as a value.
  const result = await shopifyGraphql<unknown>("admin", shop, query, { variables });
  if (!result.ok) {
    log.warn("address correction: Shopify call failed", { shop, cause: result.cause, detail: result.detail.slice(0, 200) });
    return { ok: false, code: "shopify_unavailable", detail: result.cause };
  }
  const parsed = schema.safeParse(result.data);
  if (!parsed.success) return { ok: false, code: "shopify_unavailable", detail: "unexpected reply shape" };
  return { ok: true, data: parsed.data };
}

/** `123`, `gid://shopify/Order/123` → `gid://shopify/Order/123`; anything else → null. Ids stay strings (they exceed JS safe integers). */
export function toOrderGid(value: string): string | null {
  const v = value.trim();
  if (/^\d{1,20}$/.test(v)) return `gid://shopify/Order/${v}`;
  if (/^gid:\/\/shopify\/Order\/\d{1,20}$/.test(v)) return v;
  return null;
}

export async function fetchOrder(shop: string, orderGid: string) {
  const result = await call(
    shop,
    ORDER_BY_ID,
    { id: orderGid },
    z.object({ order: orderSchema.nullable() }),
  );
  return result.ok ? { ok: true as const, order: result.data.order } : result;
}

/**
 * The newest open order whose phone (order, shipping address or customer) is `phone`. The orders
 * search has no documented phone filter, so the phone goes in as a free-text term beside
 * `status:open`, and the candidates are checked here against the number itself.
 */
export async function findLatestOpenOrderByPhone(shop: string, phone: string) {
  const result = await call(
    shop,
    LATEST_OPEN_ORDERS,
    { query: `status:open "${phone}"` },
    z.object({ orders: z.object({ nodes: z.array(orderSchema) }) }),
  );
  if (!result.ok) return result;
  const order = result.data.orders.nodes.find((o) => orderPhones(o).includes(phone) && !o.cancelledAt && !o.closed) ?? null;
  return { ok: true as const, order };
}

export function orderPhones(order: ShopifyOrder): string[] {
  return [order.phone, order.shippingAddress?.phone, order.customer?.phone]
    .map((p) => normalizePhone(p))
    .filter((p): p is string => Boolean(p));
}

/** The number to text about this order: the order's own, else the shipping address's, else the customer's. */
export function orderPhone(order: ShopifyOrder): string | null {
  return orderPhones(order)[0] ?? null;
}

/** Fulfilled (even partly), cancelled or closed orders keep their address. */
export function orderIsEditable(order: ShopifyOrder): boolean {
  if (order.cancelledAt || order.closed) return false;
  const status = order.displayFulfillmentStatus ?? "UNFULFILLED";
  return !["FULFILLED", "PARTIALLY_FULFILLED", "RESTOCKED", "IN_PROGRESS"].includes(status);
}

export async function updateOrderShippingAddress(shop: string, orderGid: string, address: Address) {
  const result = await call(
    shop,
    ORDER_UPDATE,
    { input: { id: orderGid, shippingAddress: toMailingAddressInput(address) } },
    z.object({ orderUpdate: z.object({ order: z.object({ id: z.string() }).passthrough().nullish(), userErrors: userErrorsSchema }) }),
  );
  if (!result.ok) return result;
  return { ok: true as const, userErrors: result.data.orderUpdate.userErrors };
}

export async function tagOrder(shop: string, orderGid: string, tags: string[]) {
  const result = await call(
    shop,
    TAGS_ADD,
    { id: orderGid, tags },
    z.object({ tagsAdd: z.object({ userErrors: userErrorsSchema }) }),
  );
  if (result.ok && result.data.tagsAdd.userErrors.length) {
    log.warn("address correction: tagsAdd refused", { shop, message: result.data.tagsAdd.userErrors[0].message });
  }
  return result.ok && !result.data.tagsAdd.userErrors.length;
}

/** Puts the address the shopper asked for on the order (a metafield the merchant sees in the admin) when it could not be applied. */
export async function recordRequestedAddress(shop: string, orderGid: string, address: Address) {
  const result = await call(
    shop,
    METAFIELDS_SET,
    {
      metafields: [
        {
          ownerId: orderGid,
          namespace: "cod_verify",
          key: "requested_address",
          type: "multi_line_text_field",
          value: formatAddress(address),
        },
      ],
    },
    z.object({ metafieldsSet: z.object({ userErrors: userErrorsSchema }) }),
  );
  return result.ok && !result.data.metafieldsSet.userErrors.length;
}

/** How long a shop's countries are kept in memory: a page view and its POST ask Shopify once. */
const SHIPS_TO_TTL_MS = 10 * 60_000;
const shipsTo = new Map<string, { at: number; countries: string[] }>();

/**
 * The countries the shop ships to (`shop.shipsToCountries`: ISO codes; "ZZ" stands for the rest of the
 * world, kept as it is for the caller to read), kept 10 minutes per shop. Shopify not answering is
 * `shopify_unavailable`, and nothing is kept.
 */
export async function shopShipsToCountries(shop: string): Promise<{ ok: true; countries: string[] } | Unavailable> {
  const now = clock.now().getTime();
  const known = shipsTo.get(shop);
  if (known && now - known.at < SHIPS_TO_TTL_MS) return { ok: true, countries: known.countries };
  const result = await call(shop, SHOP_SHIPS_TO, {}, z.object({ shop: z.object({ shipsToCountries: z.array(z.string()) }) }));
  if (!result.ok) return result;
  const countries = result.data.shop.shipsToCountries;
  if (shipsTo.size > 1000) shipsTo.clear();
  shipsTo.set(shop, { at: now, countries });
  return { ok: true, countries };
}
