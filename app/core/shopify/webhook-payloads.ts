import { z } from "zod";

/**
 * The webhook payloads the app reads, each parsed once by one zod schema at the route; everything
 * downstream takes the inferred type. Shopify sends the REST shapes; fields we do not read pass
 * through unchecked. Numeric ids exceed JavaScript's safe integers, so orders are keyed by
 * admin_graphql_api_id (the compliance topics' order id lists are read from the raw body instead).
 */

const attribute = z.object({ name: z.string(), value: z.union([z.string(), z.number(), z.boolean(), z.null()]) });

/** A REST MailingAddress: the fields the app reads (phone for linking, the rest for address correction). */
const mailingAddress = z
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
    country_code: z.string().nullish(),
  })
  .passthrough()
  .nullish();

/** orders/create (REST Order). */
export const orderCreatedPayload = z
  .object({
    admin_graphql_api_id: z.string().regex(/^gid:\/\/shopify\/Order\/\d+$/),
    name: z.string().nullish(),
    created_at: z.string().nullish(),
    cart_token: z.string().nullish(),
    checkout_token: z.string().nullish(),
    token: z.string().nullish(),
    phone: z.string().nullish(),
    cancelled_at: z.string().nullish(),
    closed_at: z.string().nullish(),
    fulfillment_status: z.string().nullish(),
    // What became of the order (orders/updated, app/risk/outcomes.server.ts): "a, b" and e.g. "refunded".
    tags: z.string().nullish(),
    financial_status: z.string().nullish(),
    note_attributes: z.array(attribute).nullish(),
    customer_locale: z.string().nullish(),
    payment_gateway_names: z.array(z.string()).nullish(),
    // The codes the shopper used and what each took off (a decimal string); the currency the order was placed in.
    discount_codes: z.array(z.object({ code: z.string(), amount: z.union([z.string(), z.number()]).nullish() }).passthrough()).nullish(),
    currency: z.string().nullish(),
    presentment_currency: z.string().nullish(),
    gateway: z.string().nullish(),
    // The risk score's order value and velocity per IP (app/risk): Shopify sends the total as a decimal string.
    total_price: z.union([z.string(), z.number()]).nullish(),
    // What is left to pay (shop currency): total_price less it is what the shopper paid at checkout (a priced deposit).
    total_outstanding: z.union([z.string(), z.number()]).nullish(),
    browser_ip: z.string().nullish(),
    client_details: z.object({ browser_ip: z.string().nullish() }).passthrough().nullish(),
    // When the order last changed (orders/updated): an older state than one already learnt is ignored.
    updated_at: z.string().nullish(),
    // Shopify's own first touch of the order's session: the landing path with its query (UTM parameters) and the referring site.
    landing_site: z.string().nullish(),
    // The delivery analytics' products (titles; a line without a product, e.g. a custom item, has none).
    line_items: z.array(z.object({ title: z.string().nullish(), product_id: z.union([z.number(), z.string()]).nullish() }).passthrough()).nullish(),
    referring_site: z.string().nullish(),
    // tags: "a, b" (the checkout function's verified-customer tag); the id, to tag a verified customer.
    customer: z.object({ phone: z.string().nullish(), tags: z.string().nullish(), admin_graphql_api_id: z.string().nullish() }).passthrough().nullish(),
    billing_address: mailingAddress,
    shipping_address: mailingAddress,
  })
  .passthrough();

export type OrderCreated = z.output<typeof orderCreatedPayload>;

/** app_subscriptions/update. */
export const appSubscriptionPayload = z.object({
  app_subscription: z.object({
    admin_graphql_api_id: z.string().min(1),
    name: z.string().nullish(),
    status: z.string().min(1),
  }),
});

export type AppSubscriptionUpdate = z.output<typeof appSubscriptionPayload>;

/** customers/data_request and customers/redact: the customer (the order ids come from the raw body). */
export const customerPrivacyPayload = z
  .object({
    customer: z
      .object({ phone: z.string().nullish(), id: z.union([z.number(), z.string()]).nullish(), email: z.string().nullish() })
      .passthrough()
      .nullish(),
    data_request: z.object({ id: z.union([z.number(), z.string()]).nullish() }).passthrough().nullish(),
  })
  .passthrough();

export type CustomerPrivacyRequest = z.output<typeof customerPrivacyPayload>;

/** fulfillment_events/create (REST FulfillmentEvent): a carrier's tracking status for one fulfillment of an order. */
export const fulfillmentEventPayload = z
  .object({
    id: z.union([z.number(), z.string()]).nullish(),
    // attempted_delivery, delivered, failure, in_transit, out_for_delivery, ... (Shopify's lower-case names)
    status: z.string().min(1),
    // A fulfilment event names its fulfilment: an order's or a fulfilment's body replayed to this topic does not.
    fulfillment_id: z.union([z.number(), z.string().regex(/^\d{1,20}$/)]),
    order_id: z.union([z.number(), z.string().regex(/^\d{1,20}$/)]),
    happened_at: z.string().nullish(),
  })
  .passthrough();

/** One carrier event as the app reads it: the order it is about (a GraphQL id) and its status, lower case. */
export type FulfillmentEvent = { orderGid: string; status: string };

/**
 * Reads a fulfillment_events/create delivery once: the payload parsed by its schema, and the order id's
 * digits taken from the raw body, since order ids exceed JavaScript's safe integers (a parsed number
 * loses its last digits). The raw digits must be the parsed number's, so a stray "order_id" elsewhere in
 * the body is never read. Null when the delivery does not say which order or what happened.
 */
export function readFulfillmentEvent(rawBody: string, payload: unknown): FulfillmentEvent | null {
  const parsed = fulfillmentEventPayload.safeParse(payload);
  if (!parsed.success) return null;
  const digits = [...rawBody.matchAll(/"order_id"\s*:\s*"?(\d{1,20})"?/g)].map((m) => m[1]).find((d) => Number(d) === Number(parsed.data.order_id));
  if (!digits) return null;
  return { orderGid: `gid://shopify/Order/${digits}`, status: parsed.data.status.trim().toLowerCase() };
}
