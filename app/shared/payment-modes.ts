/** How a shopper pays: on delivery, all now, or a deposit now and the rest on delivery. */
export const PAYMENT_MODES = ["cod", "prepaid", "partial"] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];

/** Shop.paymentModes ("cod, partial") → the known modes, in the fixed order, each once. */
export function chosenModes(value: string | null | undefined): PaymentMode[] {
  const words = (value ?? "").split(/[\s,]+/).map((w) => w.trim().toLowerCase());
  return PAYMENT_MODES.filter((m) => words.includes(m));
}

/**
 * Attribute keys we put on carts and draft orders; they reach the order as note attributes, where
 * orders/create reads them back. The leading _ hides them from buyers.
 */
export const ATTRIBUTES = {
  selection: "_cod_selection",
  mode: "_cod_payment_mode",
  verified: "_cod_phone_verified",
  phone: "_cod_phone",
  /**
   * The verification proof the checkout's payment customization function reads (only when the phone
   * was proven); the function's own name for it is PROOF_ATTRIBUTE (a test keeps the two equal).
   */
  proof: "_cod_proof",
  /** The COD fee the cart carries (an amount in the shop's currency, or "<n>%" of the items). */
  codFee: "_cod_fee",
} as const;
