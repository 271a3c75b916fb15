import * as carrier from "~/routes/webhooks.fulfillment_events.create";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import { runDueJobs } from "~/core/jobs/queue.server";
import { JOB_KINDS } from "~/server-build";
import { callRoute } from "./proxy";
import { fulfillmentEventBody, orderCreatedPayload, signedWebhook } from "./webhooks";

/** A COD order in India as Shopify sends orders/create: the phone in national form on the shipping address. */
export const PHONE = "+919812345678";
export const ADDRESS = { first_name: "Asha", phone: "098123 45678", address1: "Flat 12, Shanti Apartments, MG Road", city: "Mumbai", province: "Maharashtra", zip: "400001", country_code: "IN" };

export function codOrder(overrides: Record<string, unknown> = {}) {
  return orderCreatedPayload({ phone: null, shipping_address: ADDRESS, billing_address: ADDRESS, total_price: "1299.00", currency: "INR", customer_locale: "en-IN", ...overrides });
}
export type Order = ReturnType<typeof codOrder>;

export async function placeOrder(o: Order) {
  const res = await callRoute(ordersCreate, signedWebhook("orders/create", o));
  expect(res.status).toBe(200);
}

/** A carrier's status for the order, signed as Shopify delivers fulfillment_events/create. */
export function carrierEvent(o: Order, status: string, webhookId?: string) {
  return callRoute(carrier, signedWebhook("fulfillment_events/create", null, { rawBody: fulfillmentEventBody(o.admin_graphql_api_id, status), webhookId }));
}

/** Runs the due jobs until none is left (the steps queue more). */
export async function work() {
  for (let i = 0; i < 5; i++) {
    const done = await runDueJobs(JOB_KINDS, 50);
    if (!done.claimed) break;
  }
}
