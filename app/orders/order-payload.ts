import { ATTRIBUTES, type PaymentMode } from "~/shared/payment-modes";
import { normalizePhone } from "~/shared/phone";
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
  return names.some((n) => /cash\s*on\s*delivery|\bcod\b|cash_on_delivery/i.test(n));
}

export type TagSettings = { tagOrders: boolean; tagVerified: string; tagUnverified: string; tagModePrefix: string };

/**
 * The tags an order gets. A linked selection gives `<prefix><mode>`, and for cod the verification
 * tag (verified or not, as recorded server-side). An order with no selection is left alone, unless it
 * is paid cash on delivery: then it is `cod-unverified`, since nobody verified its phone through us.
 */
export function tagsForOrder(
  settings: TagSettings,
  selection: { mode: string; verified: boolean } | null,
  order: OrderPayload,
): string[] {
  if (!settings.tagOrders) return [];
  if (selection) {
    const mode = selection.mode as PaymentMode;
    const tags = [`${settings.tagModePrefix}${mode}`];
    if (mode === "cod") tags.unshift(selection.verified ? settings.tagVerified : settings.tagUnverified);
    return tags.filter((t) => t.trim());
  }
  return isCashOnDelivery(order) && settings.tagUnverified.trim() ? [settings.tagUnverified] : [];
}
