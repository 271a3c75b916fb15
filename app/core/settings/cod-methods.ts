import { DEFAULT_COD_METHOD_NAMES, normalizeMethodName } from "../../../extensions/cod-payment-customization/src/cart_payment_methods_transform_run";

/** The payment methods that count as cash on delivery, one name a line as the settings page takes them. */
export const DEFAULT_COD_METHOD_NAMES_TEXT = DEFAULT_COD_METHOD_NAMES.join("\n");

/** Shop.codMethodNames (one name a line, as the settings page takes them) → the names, each once. */
export function codMethodNameList(text: string | null | undefined): string[] {
  const names = (text ?? "")
    .split(/\r?\n/)
    .map((n) => n.trim().replace(/\s+/g, " "))
    .filter(Boolean);
  return [...new Set(names)];
}

const DEFAULT_NAMES = new Set(DEFAULT_COD_METHOD_NAMES.map(normalizeMethodName));

/**
 * Whether a payment method or gateway name is cash on delivery: one of the checkout function's default
 * COD names (compared the way the function compares them), or a name that says so ("Cash on
 * delivery", "COD", `cash_on_delivery`). Onboarding suggests only such names, never a card gateway like
 * `shopify_payments`; orders/create decides with the shop's own list (app/core/shopify/order-facts.ts).
 */
export function isCodMethodName(name: string): boolean {
  return DEFAULT_NAMES.has(normalizeMethodName(name)) || /cash\s*on\s*delivery|\bcod\b|cash_on_delivery/i.test(name);
}
