import { ATTRIBUTES, type PaymentMode } from "~/shared/payment-modes";
import { normalizePhone } from "~/shared/phone";
import { isCodMethodName } from "~/settings/cod-methods";
import type { OrderCreated } from "~/shopify/webhook-payloads";

/** The orders/create payload, as app/shopify/webhook-payloads.ts parses it. */
export type OrderPayload = OrderCreated;

/** Every phone the order carries, in order of trust: the order's own, the customer's, then the addresses'. */
export function orderPhones(order: OrderPayload): string[] {
  const raw = [order.phone, order.customer?.phone, order.shipping_address?.phone, order.billing_address?.phone];
  return [...new Set(raw.map(normalizePhone).filter((p): p is string => !!p))];
}

export function attributeOf(order: OrderPayload, name: string): string | null {
  const found = order.note_attributes?.find((a) => a.name === name);
  return found?.value == null ? null : String(found.value);
}

/** Our selection id, as our cart or draft order attribute carried it (a pointer only: it proves nothing). */
export function selectionIdOf(order: OrderPayload): string | null {
  const id = attributeOf(order, ATTRIBUTES.selection);
  return id && /^[a-z0-9]{10,40}$/i.test(id) ? id : null;
}

/** Cash on delivery, by the payment gateway Shopify names ("Cash on Delivery (COD)" is Shopify's manual method). */
export function isCashOnDelivery(order: OrderPayload): boolean {
  const names = [...(order.payment_gateway_names ?? []), order.gateway ?? ""];
  return names.some(isCodMethodName);
}

export type TagSettings = { tagOrders: boolean; tagVerified: string; tagUnverified: string; tagModePrefix: string };

/** The customer's tags as the REST payload gives them ("a, b"). */
export function customerTags(order: OrderPayload): string[] {
  return (order.customer?.tags ?? "").split(",").map((t) => t.trim()).filter(Boolean);
}

/**
 * The tags an order gets. `verified` is the order's re-check (one of its phones proven through us,
 * app/orders/order-verification.server.ts), never the selection's own flag. A linked selection gives
 * `<prefix><mode>`, and for cod the verification tag. An order with no selection gets only the
 * verification tag, and only when it is paid cash on delivery.
 */
export function tagsForOrder(
  settings: TagSettings,
  selection: { mode: string } | null,
  order: OrderPayload,
  verified: boolean,
): string[] {
  if (!settings.tagOrders) return [];
  const verification = verified ? settings.tagVerified : settings.tagUnverified;
  if (selection) {
    const mode = selection.mode as PaymentMode;
    const tags = [`${settings.tagModePrefix}${mode}`];
    if (mode === "cod") tags.unshift(verification);
    return tags.filter((t) => t.trim());
  }
  return isCashOnDelivery(order) && verification.trim() ? [verification] : [];
}
