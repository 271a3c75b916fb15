import type { Shop } from "~/settings/shop.server";
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
 * The modes the modal offers: the merchant's choice, without `partial` where the store cannot take
 * deposits (Shopify's draft-order deposits are a Shopify Plus feature; `depositsAvailable` is learnt
 * from the shop's plan, null until known). Never empty: cash on delivery is the app's reason to be.
 */
export function offeredModes(shop: Pick<OfferShop, "paymentModes" | "depositsAvailable">): OfferedMode[] {
  const modes = chosenModes(shop.paymentModes).filter((m) => m !== "partial" || shop.depositsAvailable === true);
  return modes.length ? modes : ["cod"];
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
