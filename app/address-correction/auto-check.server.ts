import type { z } from "zod";
import { defineJob, orderJobKey, planJob, type PlannedJob } from "~/core/jobs/queue.server";
import { getShop, type Shop } from "~/core/settings/shop.server";
import { orderCreatedPayload } from "~/core/shopify/webhook-payloads";
import type { OrderFacts } from "~/core/shopify/order-facts";
import { log } from "~/core/utils/log.server";
import { normalizePhone } from "~/shared/phone";
import { fromOrderAddress, suspectAddressReason, type SuspectReason } from "~/core/places/address";
import { checkPinPlace, pinProblemReason } from "~/core/places/pin-directory.server";
import { requestAddressCorrection, type OrderToCorrect, type RequestOutcome } from "./address-correction.server";

/*
 * The orders/create hook: a new order whose shipping address fails the basic checks gets a correction
 * requested on its own, as a durable job, when the shop turned automatic requests on.
 */

/** The fields of the orders/create payload this hook reads (the rest is not stored with its job). */
const addressCheckPayload = orderCreatedPayload
  .pick({
    admin_graphql_api_id: true,
    name: true,
    phone: true,
    cancelled_at: true,
    closed_at: true,
    fulfillment_status: true,
    customer: true,
    shipping_address: true,
  })
  .strip();

/** The new order as the check reads it: the orders/create payload's own parsed type, cut to those fields. */
export type NewOrderToCheck = z.output<typeof addressCheckPayload>;

export type AutoRequestOutcome =
  | { requested: false; reason: "disabled" | "no_shipping_address" | "address_ok" }
  | { requested: true; check: SuspectReason; outcome: RequestOutcome };

/** Shopify's REST fulfillment states of an order that has shipped something (null: nothing yet). */
const SHIPPED = new Set(["fulfilled", "partial", "restocked"]);

/**
 * For the orders/create webhook: when the shop turned automatic requests on and the new order's
 * shipping address fails the basic checks (no house number, postal code missing or of the wrong
 * pattern for the country) or, in India, its PIN code does not match its place (unknown, of another
 * state, of another district or city), requests a correction, exactly as the request route would.
 */
export async function maybeRequestCorrectionForNewOrder(shop: Shop, order: NewOrderToCheck): Promise<AutoRequestOutcome> {
  if (!shop.autoAddressCorrection) return { requested: false, reason: "disabled" };
  if (!order.shipping_address) return { requested: false, reason: "no_shipping_address" };
  const address = fromOrderAddress(order.shipping_address);
  const check = suspectAddressReason(address) ?? pinProblemReason(checkPinPlace(address))?.code ?? null;
  if (!check) return { requested: false, reason: "address_ok" };
  const toCorrect: OrderToCorrect = {
    gid: order.admin_graphql_api_id,
    name: order.name ?? "",
    // The number to text, in the Admin API path's order: the order's own, the shipping address's, the customer's.
    phone: [order.phone, order.shipping_address.phone, order.customer?.phone].map(normalizePhone).find((p) => p !== null) ?? null,
    editable: !order.cancelled_at && !order.closed_at && !SHIPPED.has(order.fulfillment_status ?? ""),
    address,
  };
  const outcome = await requestAddressCorrection(shop, {}, { source: "auto", reason: check, order: toCorrect });
  return { requested: true, check, outcome };
}

/**
 * The automatic request as a background job (app/core/jobs), queued by orders/create and run after the
 * delivery is answered (an SMS provider can take seconds; Shopify waits 5 s at most). An SMS provider
 * outage is retried with the queue's backoff (nothing was stored or counted for it); every other
 * outcome is final. A correction still pending for the order is never duplicated.
 */
export const addressCheckJob = defineJob({
  kind: "address-correction.auto",
  payload: addressCheckPayload,
  maxAttempts: 5,
  run: async (payload, { shop: domain }) => {
    const shop = await getShop(domain);
    if (!shop) return { ok: true };
    const result = await maybeRequestCorrectionForNewOrder(shop, payload);
    if (!result.requested) return { ok: true };
    const outcome = result.outcome.ok ? result.outcome.status : result.outcome.code;
    log.info("automatic address correction", { shop: domain, order: payload.admin_graphql_api_id, check: result.check, outcome });
    return outcome === "sms_unavailable" ? { ok: false, error: "sms_unavailable" } : { ok: true };
  },
});

/**
 * orders/create's way in: the check's job when the shop asked for automatic requests, from the order's
 * facts (the number to text already normalised, national forms included); orders/create queues it with
 * the rest of the order's writes.
 */
export function addressCheckFor(shop: Pick<Shop, "domain" | "autoAddressCorrection">, facts: OrderFacts): PlannedJob | null {
  if (!shop.autoAddressCorrection || !facts.shippingAddress) return null;
  const payload: NewOrderToCheck = {
    admin_graphql_api_id: facts.gid,
    name: facts.name,
    phone: facts.contactPhone,
    cancelled_at: facts.state.cancelledAt,
    closed_at: facts.state.closedAt,
    fulfillment_status: facts.state.fulfillmentStatus,
    customer: null,
    shipping_address: facts.shippingAddress,
  };
  return planJob(addressCheckJob, { shop: shop.domain, key: orderJobKey(shop.domain, facts.gid), payload });
}
