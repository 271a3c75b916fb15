import type { Shop } from "~/core/settings/shop.server";
import { chosenModes, type PaymentMode } from "~/shared/payment-modes";

export type OfferedMode = PaymentMode;

type OfferShop = Pick<
  Shop,
  | "paymentModes"
  | "depositsAvailable"
  | "currency"
  | "codFeeType"
  | "codFeeValue"
  | "codFeeVariantId"
  | "prepaidDiscountType"
  | "prepaidDiscountValue"
  | "discountCodePrepaid"
  | "depositType"
  | "depositValue"
>;

/**
 * The modes the modal offers: the merchant's choice. `partial` is offered on every plan: Shopify's
 * draft-order deposit where the store has it (Plus), a single-use deposit code and an order edit
 * elsewhere (docs/decisions/partial-deposit-by-discount-and-edit.md). Never empty: cash on delivery is
 * the app's reason to be.
 */
export function offeredModes(shop: Pick<OfferShop, "paymentModes">): OfferedMode[] {
  const modes = chosenModes(shop.paymentModes);
  return modes.length ? modes : ["cod"];
}

/** Which way this store builds a partial checkout (the settings page says it; create-checkout does it). */
export type DepositPattern = "draft-order-deposit" | "deposit-code" | "unknown";

/** How this store takes a deposit for `partial` (docs/decisions/partial-deposit-by-discount-and-edit.md). */
export function depositPattern(shop: Pick<Shop, "depositsAvailable">): DepositPattern {
  return shop.depositsAvailable === true ? "draft-order-deposit" : shop.depositsAvailable === false ? "deposit-code" : "unknown";
}

export type Adjustment = { type: "fixed" | "percentage"; value: number };

/**
 * What the modal needs to show each mode's amounts. Fixed values are in the shop's currency
 * (`currency`); the modal shows them only when the shopper pays in that currency.
 */
export function pricing(shop: OfferShop) {
  const adjustment = (type: string, value: number): Adjustment | null =>
    (type === "fixed" || type === "percentage") && value > 0 ? { type, value } : null;
  return {
    currency: shop.currency ?? null,
    // A fee is only charged where a fee variant is set: the modal never shows a fee the cart would not carry.
    codFee: shop.codFeeVariantId ? adjustment(shop.codFeeType, shop.codFeeValue) : null,
    // The saving is only shown where there is a code that gives it.
    prepaidDiscount: shop.discountCodePrepaid ? adjustment(shop.prepaidDiscountType, shop.prepaidDiscountValue) : null,
    deposit: adjustment(shop.depositType, shop.depositValue),
  };
}

/** The fee for a COD order whose items come to `itemsTotal` (shop currency), rounded to cents; 0 without a fee. */
export function codFeeAmount(fee: Adjustment | null, itemsTotal: number): number {
  if (!fee) return 0;
  const amount = fee.type === "fixed" ? fee.value : (itemsTotal * fee.value) / 100;
  return Math.round(amount * 100) / 100;
}
