import type { PaymentMode } from "~/shared/payment-modes";

export type TagSettings = { tagOrders: boolean; tagVerified: string; tagUnverified: string; tagModePrefix: string };

/**
 * How the order was paid, as its `payment-mode:` tag names it. The gateway decides: a COD gateway is
 * `cod` whatever the linked selection named; another gateway keeps the selection's mode unless that
 * mode was `cod` (the shopper chose it, then paid otherwise). Null: nothing to tag (no selection).
 */
export function paymentModeOf(isCod: boolean, selection: { mode: string } | null): PaymentMode | null {
  if (!selection) return null;
  if (isCod) return "cod";
  return selection.mode === "prepaid" || selection.mode === "partial" ? selection.mode : null;
}

/**
 * The tags an order gets: a COD order its verification tag (`verified` is the order's re-check,
 * app/orders/order-verification.server.ts), and any order its payment mode when one is known.
 */
export function tagsForOrder(settings: TagSettings, order: { isCod: boolean; mode: PaymentMode | null; verified: boolean }): string[] {
  if (!settings.tagOrders) return [];
  const tags = [
    order.isCod ? (order.verified ? settings.tagVerified : settings.tagUnverified) : "",
    order.mode ? `${settings.tagModePrefix}${order.mode}` : "",
  ];
  return tags.filter((t) => t.trim());
}
