/** How a shopper pays: on delivery, all now, or a deposit now and the rest on delivery. */
export const PAYMENT_MODES = ["cod", "prepaid", "partial"] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];

/**
 * Attribute keys we put on carts and draft orders; they reach the order as note attributes, where
 * orders/create reads them back. The leading _ hides them from buyers.
 */
export const ATTRIBUTES = {
  selection: "_cod_selection",
  mode: "_cod_payment_mode",
  verified: "_cod_phone_verified",
  phone: "_cod_phone",
} as const;
