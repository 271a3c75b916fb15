import { z } from "zod";
import { prisma } from "~/core/db.server";
import type { Shop } from "~/core/settings/shop.server";
import { shopifyGraphql, type ShopifyCallResult } from "~/core/shopify/graphql.server";
import { CART_CREATE, CART_DISCOUNT_CODES_UPDATE, DEPOSIT_DISCOUNT_CREATE } from "~/core/shopify/checkout-operations";
import { clock } from "~/core/utils/clock.server";
import { randomToken } from "~/core/utils/crypto.server";
import { buildCartInput, type CheckoutContext, type CheckoutItem } from "./checkout-request";
import { currencyDigits, DEPOSIT_CODE_PREFIX, depositSplit } from "~/shared/deposit";

/**
 * partial where the store has no draft-order deposit (every plan below Plus): a normal Storefront cart
 * of the real items with a code, created for this selection alone, that takes the balance off, so the
 * shopper pays the deposit (and shipping and taxes on it) through the store's own checkout. After
 * orders/create the balance is added back to the order as a line (app/orders/deposit-balance.server.ts),
 * which leaves one order at the full price, paid = the deposit, outstanding = the balance.
 * docs/decisions/partial-deposit-by-discount-and-edit.md
 */

/** How long a deposit code can be used: the checkout it was made for, not a code to keep. */
export const DEPOSIT_CODE_LIFETIME_MS = 2 * 60 * 60_000;

type Failure = { ok: false; cause: "user_errors" | "invalid_response" | "deposit_not_configured" | "deposit_currency" | Exclude<ShopifyCallResult<never>, { ok: true }>["cause"]; detail: string };
export type DepositCart = { ok: true; checkoutUrl: string; cartToken: string | null } | Failure;

const userError = z.object({ field: z.array(z.string()).nullish(), message: z.string(), code: z.string().nullish() });
const cartReply = z.object({
  cartCreate: z.object({
    cart: z
      .object({
        id: z.string(),
        checkoutUrl: z.string().url(),
        lines: z.object({ nodes: z.array(z.object({ quantity: z.number(), merchandise: z.object({ id: z.string().optional(), price: z.object({ amount: z.string(), currencyCode: z.string().optional() }).optional() }).passthrough() })) }),
      })
      .nullable(),
    userErrors: z.array(userError),
  }),
});
const discountReply = z.object({
  discountCodeBasicCreate: z.object({ codeDiscountNode: z.object({ id: z.string() }).nullable(), userErrors: z.array(userError) }),
});
const applyReply = z.object({
  cartDiscountCodesUpdate: z.object({
    cart: z.object({ checkoutUrl: z.string().url(), discountCodes: z.array(z.object({ code: z.string(), applicable: z.boolean() })) }).nullable(),
    userErrors: z.array(userError),
  }),
});

type MadeCart = NonNullable<z.infer<typeof cartReply>["cartCreate"]["cart"]>;
type Terms = { code: string; foreign: boolean; quantity: number; digits: number; split: NonNullable<ReturnType<typeof depositSplit>> };

export async function buildDepositDiscountCart(shop: Shop, items: CheckoutItem[], ctx: CheckoutContext, buyerIp: string | null, cartTokenOf: (id: string) => string | null): Promise<DepositCart> {
  const headers: Record<string, string> = buyerIp ? { "Shopify-Storefront-Buyer-IP": buyerIp } : {};
  const made = await createCart(shop, items, ctx, headers);
  if (!made.ok) return made;
  const terms = depositTerms(shop, items, made.cart);
  if (!terms.ok) return terms;
  const { code, split } = terms;
  // Recorded before Shopify knows the code: orders/create finds the selection by it, whatever happens next.
  await prisma.selection.update({
    where: { id: ctx.selectionId },
    data: { depositCode: code, depositAmount: split.deposit, balanceAmount: split.balance, depositCurrency: terms.currency },
  });
  const discount = await createDepositCode(shop, items, ctx, terms);
  if (!discount.ok) return discount;

  const applied = await shopifyGraphql<unknown>("storefront", shop.domain, CART_DISCOUNT_CODES_UPDATE, { variables: { cartId: made.cart.id, discountCodes: [code] }, headers });
  if (!applied.ok) return applied;
  const reply = applyReply.safeParse(applied.data);
  if (!reply.success) return { ok: false, cause: "invalid_response", detail: reply.error.message.slice(0, 300) };
  const { cart: withCode, userErrors: applyErrors } = reply.data.cartDiscountCodesUpdate;
  // A code Shopify will not apply would send the shopper to pay everything while choosing a deposit: fall back instead.
  if (applyErrors.length || !withCode?.discountCodes.some((d) => d.code === code && d.applicable)) {
    return { ok: false, cause: "user_errors", detail: `deposit code not applicable: ${JSON.stringify(applyErrors).slice(0, 300)}` };
  }
  return { ok: true, checkoutUrl: withCode.checkoutUrl, cartToken: cartTokenOf(made.cart.id) };
}

/**
 * The cart of the real items. The merchant's own partial code is not combined: one code, ours, decides the
 * deposit price. No proof rides on this cart: the deposit is paid online, so the checkout function hides
 * cash on delivery here (the order is still linked to the verified selection by its attribute).
 */
async function createCart(shop: Shop, items: CheckoutItem[], ctx: CheckoutContext, headers: Record<string, string>): Promise<{ ok: true; cart: MadeCart } | Failure> {
  const input = buildCartInput(items, { ...ctx, discountCode: null, proof: null });
  const created = await shopifyGraphql<unknown>("storefront", shop.domain, CART_CREATE, { variables: { input }, headers });
  if (!created.ok) return created;
  const cart = cartReply.safeParse(created.data);
  if (!cart.success) return { ok: false, cause: "invalid_response", detail: cart.error.message.slice(0, 300) };
  const { cart: made, userErrors } = cart.data.cartCreate;
  if (userErrors.length || !made) return { ok: false, cause: "user_errors", detail: JSON.stringify(userErrors).slice(0, 500) };
  return { ok: true, cart: made };
}

/**
 * The deposit and balance of this cart, and the code that takes the balance off. The subtotal is as Shopify
 * priced the cart's items, in the cart's currency: the buyer's country (the phone's) picks the market, so a
 * store selling in several currencies may price it in another currency than its own.
 */
function depositTerms(shop: Shop, items: CheckoutItem[], made: MadeCart): ({ ok: true; currency: string | null } & Terms) | Failure {
  let subtotal = 0;
  let quantity = 0;
  let currency = shop.currency ?? null;
  for (const item of items) {
    const line = made.lines.nodes.find((l) => l.merchandise.id === item.variantId);
    if (!line?.merchandise.price) return { ok: false, cause: "invalid_response", detail: `no price for ${item.variantId}` };
    subtotal += Number(line.merchandise.price.amount) * item.quantity;
    quantity += item.quantity;
    currency = line.merchandise.price.currencyCode ?? currency;
  }
  const digits = currencyDigits(currency);
  // A code's fixed amount is in the shop's currency and Shopify converts it at checkout at its own rate
  // (help.shopify.com/en/manual/payments/shopify-payments/multi-currency/discounts): a fixed balance would
  // leave a deposit the shopper was not shown. In another currency the code is a percentage, which has
  // no currency: (100 − deposit %) % off each of the selection's lines. A fixed deposit is an amount of
  // the shop's currency the server cannot convert exactly: that checkout falls back.
  const foreign = !!currency && !!shop.currency && currency !== shop.currency;
  if (foreign && shop.depositType === "fixed") {
    return { ok: false, cause: "deposit_currency", detail: `a fixed deposit of ${shop.depositValue} ${shop.currency} on a cart priced in ${currency}` };
  }
  const split = depositSplit(shop.depositType, shop.depositValue, subtotal, digits);
  if (!split) return { ok: false, cause: "deposit_not_configured", detail: `${shop.depositType} ${shop.depositValue} on a subtotal of ${subtotal}` };
  const code = `${DEPOSIT_CODE_PREFIX}${randomToken(9).replace(/[^A-Za-z0-9]/g, "").toUpperCase()}`;
  return { ok: true, currency, code, foreign, quantity, digits, split };
}

/** The selection's one-use code in Shopify, for its checkout's lifetime. */
async function createDepositCode(shop: Shop, items: CheckoutItem[], ctx: CheckoutContext, terms: Terms): Promise<{ ok: true } | Failure> {
  const { code, foreign, quantity, digits, split } = terms;
  const now = clock.now();
  const discount = await shopifyGraphql<unknown>("admin", shop.domain, DEPOSIT_DISCOUNT_CREATE, {
    variables: {
      basicCodeDiscount: {
        title: `COD deposit ${ctx.selectionId}`,
        code,
        startsAt: now.toISOString(),
        endsAt: new Date(now.getTime() + DEPOSIT_CODE_LIFETIME_MS).toISOString(),
        usageLimit: 1,
        appliesOncePerCustomer: true,
        context: { all: "ALL" },
        // Only the selection's variants, only on a cart with at least their subtotal (a minimum in the shop's
        // currency) or, in another currency, their quantity: on a smaller cart it takes nothing.
        minimumRequirement: foreign
          ? { quantity: { greaterThanOrEqualToQuantity: String(quantity) } }
          : { subtotal: { greaterThanOrEqualToSubtotal: split.subtotal.toFixed(digits) } },
        customerGets: {
          value: foreign
            ? { percentage: (100 - shop.depositValue) / 100 }
            : { discountAmount: { amount: split.balance.toFixed(digits), appliesOnEachItem: false } },
          items: { products: { productVariantsToAdd: items.map((i) => i.variantId) } },
        },
        combinesWith: { orderDiscounts: false, productDiscounts: false, shippingDiscounts: true },
      },
    },
  });
  if (!discount.ok) return discount;
  const made = discountReply.safeParse(discount.data);
  if (!made.success) return { ok: false, cause: "invalid_response", detail: made.error.message.slice(0, 300) };
  if (made.data.discountCodeBasicCreate.userErrors.length || !made.data.discountCodeBasicCreate.codeDiscountNode) {
    return { ok: false, cause: "user_errors", detail: JSON.stringify(made.data.discountCodeBasicCreate.userErrors).slice(0, 500) };
  }
  return { ok: true };
}
