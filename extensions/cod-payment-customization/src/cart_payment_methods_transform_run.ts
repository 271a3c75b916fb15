import { parseProof, phoneMatchesProof, proofRefusesCod } from "./proof-format";

/**
 * Hides the merchant's cash-on-delivery payment methods unless the checkout is verified: the cart
 * carries an unexpired `cod` proof whose phone is the buyer's or a delivery address's phone, or the
 * buyer is a customer the app tagged as verified. The proof's signature is not checked here (no
 * affordable HMAC under the instruction limit); the app re-checks every COD order on orders/create
 * and sends an unverified one to verification after purchase. docs/decisions/checkout-enforcement.md
 */

/**
 * The input as src/cart_payment_methods_transform_run.graphql asks for it (the shape Shopify's
 * `shopify app function typegen` generates for that query, named as it names it).
 */
export type CartPaymentMethodsTransformRunInput = {
  cart: {
    proof: { value: string | null } | null;
    buyerIdentity: { phone: string | null; customer: { verified: boolean } | null } | null;
    deliveryGroups: { deliveryAddress: { phone: string | null } | null }[];
  };
  paymentMethods: { id: string; name: string }[];
  paymentCustomization: { metafield: { jsonValue: unknown } | null };
  shop: { localTime: { date: string } };
};

/**
 * The function's output on target `cart.payment-methods.transform.run` (schema.graphql,
 * `CartPaymentMethodsTransformRunResult`): each operation is one of Shopify's `Operation` variants; this
 * function only ever hides (`paymentMethodHide`, every placement).
 */
export type CartPaymentMethodsTransformRunResult = { operations: { paymentMethodHide: { paymentMethodId: string } }[] };

/**
 * What the app writes into the payment customization's metafield `$app:cod-verify.function-configuration`.
 * `enforce: false` while verification is paused (no plan, allowance used, codes off): shoppers cannot
 * get a proof then, so nothing is hidden. Absent means true (configurations written before it existed).
 * `utcOffsets`: the shop's time zone as the function can read it (it has no time zone database), the
 * offsets from UTC in minutes with the instant each starts (epoch seconds), valid until `utcOffsetsUntil`;
 * absent while the app does not know the shop's zone.
 */
export type FunctionConfiguration = { codMethodNames: string[]; enforce?: boolean; utcOffsets?: [number, number][]; utcOffsetsUntil?: number };

export const DEFAULT_COD_METHOD_NAMES = ["Cash on Delivery (COD)"];

const NO_CHANGES: CartPaymentMethodsTransformRunResult = { operations: [] };

export function normalizeMethodName(name: string): string {
  return name.trim().replace(/\s+/g, " ").toLowerCase();
}

/**
 * The one rule for which payment methods are cash on delivery, shared by this function and the app's
 * orders/create (app/core/shopify/order-facts.ts): the shop's configured names plus the built-in defaults,
 * each normalised (trimmed, spaces folded, lower case). Anything that is not a non-empty string is ignored.
 */
export function codMethodNames(configured: unknown): Set<string> {
  const listed = Array.isArray(configured) ? configured.filter((n): n is string => typeof n === "string" && n.trim() !== "") : [];
  return new Set([...listed, ...DEFAULT_COD_METHOD_NAMES].map(normalizeMethodName));
}

/** UTC+14: the latest date anywhere on Earth, in minutes. */
export const LATEST_UTC_OFFSET_MINUTES = 14 * 60;

/**
 * The shop's date at `epochSeconds` by the offsets the app wrote into the configuration (the one in force
 * then; the first one before them). Without usable offsets (the shop's zone unknown, a configuration
 * written before they existed, or an instant past `utcOffsetsUntil`), the date at UTC+14, the latest
 * anywhere: no shop's date is later, so a proof that has not expired is never read as expired.
 */
export function shopDateOf(epochSeconds: number, configuration: unknown): string {
  const { utcOffsets, utcOffsetsUntil } = (configuration ?? {}) as { utcOffsets?: unknown; utcOffsetsUntil?: unknown };
  let minutes = LATEST_UTC_OFFSET_MINUTES;
  if (Array.isArray(utcOffsets) && utcOffsets.length && typeof utcOffsetsUntil === "number" && epochSeconds < utcOffsetsUntil) {
    for (let i = 0; i < utcOffsets.length; i++) {
      const span = utcOffsets[i] as unknown;
      if (!Array.isArray(span) || typeof span[0] !== "number" || typeof span[1] !== "number" || !(Math.abs(span[1]) <= LATEST_UTC_OFFSET_MINUTES)) {
        minutes = LATEST_UTC_OFFSET_MINUTES;
        break;
      }
      if (i > 0 && span[0] > epochSeconds) break;
      minutes = span[1];
    }
  }
  return new Date((epochSeconds + minutes * 60) * 1000).toISOString().slice(0, 10);
}

/** Why COD stays visible, or null when it must be hidden. */
export function verifiedBy(input: CartPaymentMethodsTransformRunInput): "proof" | "returning_customer" | null {
  const { cart } = input;
  const proof = parseProof(cart.proof?.value);
  // A proof whose band refuses or prices COD (app/risk) hides it, even for a customer tagged verified:
  // a priced shopper pays the deposit through the partial checkout, never plain COD here (two comparisons,
  // so the function stays far inside its instruction limit).
  if (proof && proofRefusesCod(proof)) return null;
  if (cart.buyerIdentity?.customer?.verified) return "returning_customer";
  if (!proof || proof.mode !== "cod") return null;
  // The function has no clock, only the shop's date: a proof counts until the end of the shop's day
  // it expires (the app checks the exact time on the order).
  if (shopDateOf(proof.expiresAt, input.paymentCustomization.metafield?.jsonValue) < input.shop.localTime.date) return null;
  const phones = [cart.buyerIdentity?.phone, ...cart.deliveryGroups.map((g) => g.deliveryAddress?.phone)];
  return phones.some((p) => phoneMatchesProof(proof.phoneDigits, p)) ? "proof" : null;
}

/** The export Shopify runs (shopify.extension.toml: `export = "cart-payment-methods-transform-run"`). */
export function cartPaymentMethodsTransformRun(input: CartPaymentMethodsTransformRunInput): CartPaymentMethodsTransformRunResult {
  if ((input.paymentCustomization.metafield?.jsonValue as { enforce?: unknown } | null)?.enforce === false) return NO_CHANGES;
  const names = codMethodNames((input.paymentCustomization.metafield?.jsonValue as { codMethodNames?: unknown } | null)?.codMethodNames);
  const cod = input.paymentMethods.filter((m) => names.has(normalizeMethodName(m.name)));
  if (!cod.length || verifiedBy(input)) return NO_CHANGES;
  return { operations: cod.map((m) => ({ paymentMethodHide: { paymentMethodId: m.id } })) };
}
