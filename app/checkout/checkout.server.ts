import { z } from "zod";
import { prisma } from "~/core/db.server";
import { lastVerifiedAt, verifiedWithin } from "~/otp/verified-phones.server";
import { recordSelection } from "~/otp/selection.server";
import type { PaymentMode } from "~/shared/payment-modes";
import { hasActiveSubscription, updateShop, type Shop } from "~/core/settings/shop.server";
import { shopifyGraphql, type ShopifyFailureCause } from "~/core/shopify/graphql.server";
import { CART_CREATE, CART_LINES_UPDATE, DRAFT_ORDER_CALCULATE, DRAFT_ORDER_CREATE, PAYMENT_TERMS_TEMPLATES } from "~/core/shopify/checkout-operations";
import { clock } from "~/core/utils/clock.server";
import { codFeeAmount, pricing } from "~/storefront/offer";
import { log } from "~/core/utils/log.server";
import { checkProof, deriveProof, deviceTokenValid, issueHoldoutProof, issueProof, issueUnverifiedProof, proofOffer, proofVerifiedAt, stricterOffer, type Proof, type ProofOffer } from "~/otp/proof.server";
import { dailyCapSpent } from "~/otp/send-limits.server";
import { heldOutNow } from "~/experiment/experiment.server";
import { isPhoneBlocked } from "~/otp/blocklist.server";
import { ATTRIBUTES } from "~/shared/payment-modes";
import { buildDepositDiscountCart } from "./deposit-discount.server";
import { assessShopper, offerFor } from "~/risk/assess.server";
import { unusualHourFor } from "~/risk/calibration.server";
import type { RiskAssessment, RiskBand } from "~/risk/score";
import {
  buildCartInput,
  buildDraftOrderInput,
  depositPercentage,
  discountCodeFor,
  itemsOf,
  type CheckoutContext,
  type CheckoutItem,
  type CreateCheckoutBody,
} from "./checkout-request";

export type FallbackCause =
  | ShopifyFailureCause
  | "subscription_inactive"
  | "no_token"
  | "user_errors"
  | "deposit_not_configured"
  | "deposit_currency"
  | "deposits_unavailable"
  | "no_payment_terms_template";

export type CheckoutOutcome =
  | { kind: "checkout"; checkoutUrl: string; selectionId: string }
  | { kind: "fallback"; cause: FallbackCause; selectionId: string | null; proof: string | null }
  | { kind: "not_verified" }
  | { kind: "phone_blocked" }
  | { kind: "cod_not_allowed"; risk: RiskAssessment; band: RiskBand; offer: ProofOffer };

/** How the caller proved the phone: the proof it showed (derived proofs keep its expiry) or its remembered device. */
export type CallerProof =
  | { verified: true; verifiedAt: Date; proof: Proof | null }
  | { verified: false; verifiedAt: null; proof: null };

/**
 * Whether the caller proved this phone: a valid proof (verify-otp gave it, minutes ago) for this
 * shop and number, or this browser's remembered-device token while the number is within the shop's
 * returning-customer window. A phone someone else verified, however recently, does not count: the
 * journey's selection is never looked up by phone alone.
 */
export async function callerProvedPhone(
  shop: Pick<Shop, "id" | "domain" | "returningSkipDays">,
  phone: string,
  tokens: { proof?: string | null; deviceToken?: string | null },
): Promise<CallerProof> {
  const now = clock.now();
  const checked = tokens.proof ? checkProof(shop.domain, tokens.proof, now) : null;
  // A holdout proof (app/experiment) says the shopper was not asked: it proves nothing.
  if (checked?.ok && !checked.proof.holdout && !checked.proof.unverified && checked.proof.phone === phone) return { verified: true, verifiedAt: proofVerifiedAt(checked.proof), proof: checked.proof };
  if (tokens.deviceToken && deviceTokenValid(shop.domain, phone, tokens.deviceToken, now)) {
    // The remembered device proves the number again now (the window and the mark are re-read each time).
    if (verifiedWithin(await lastVerifiedAt(shop.id, phone), shop.returningSkipDays, now)) return { verified: true, verifiedAt: now, proof: null };
  }
  return { verified: false, verifiedAt: null, proof: null };
}

/**
 * POST /create-checkout's work: the COD gate, the selection record, then a Storefront cart (cod,
 * prepaid) or, for partial, a draft order with Shopify's deposit or a cart with a single-use deposit code. Any failure to build is a fallback with
 * its cause logged; it never throws for Shopify's sake.
 */
/**
 * What the caller stands on before a checkout: a number the merchant blocked proves nothing, whatever it
 * verified before the block; a shopper the holdout experiment held out pays cash on delivery unverified, as
 * if the app were off (app/experiment; never a blocked number, and a high band is refused as for anyone);
 * and with the shop's daily cap spent and its fallback COD confirmed after purchase no code could be sent,
 * so the shopper pays cash on delivery and the order is confirmed like any unverified one (app/otp/send-limits.server.ts).
 */
async function callerStanding(shop: Shop, body: CreateCheckoutBody) {
  const blocked = await isPhoneBlocked(shop.id, body.phone);
  const state: CallerProof = blocked
    ? { verified: false, verifiedAt: null, proof: null }
    : await callerProvedPhone(shop, body.phone, { proof: body.proof, deviceToken: body.deviceToken });
  const subscribed = hasActiveSubscription(shop);
  const unproven = subscribed && body.selectedMode === "cod" && shop.otpEnabled && !blocked && !state.verified;
  const heldOut = unproven && (await heldOutNow(shop.id, body.phone));
  const capped = unproven && !heldOut && shop.capFallback !== "prepaid_only" && (await dailyCapSpent(shop));
  return { blocked, state, subscribed, heldOut, capped };
}

/**
 * A proof for this selection and mode: on the cart we build, or for the modal to write onto the theme's
 * own cart when the store's checkout takes over. Derived from the caller's proof, it keeps that proof's
 * expiry (handing proofs back never extends a verification); a remembered device, re-checked against
 * the returning-customer window on every call, gets one from now.
 */
function cartProof(shop: Shop, standing: Awaited<ReturnType<typeof callerStanding>>, proofFor: Parameters<typeof issueProof>[1]): string | null {
  const { state } = standing;
  const { phone, selectionId } = proofFor;
  if (standing.heldOut) return issueHoldoutProof(shop.domain, { phone, selectionId }).token;
  if (standing.capped) return issueUnverifiedProof(shop.domain, { phone, selectionId }).token;
  if (!state.verified) return null;
  return state.proof ? deriveProof(shop.domain, state.proof, proofFor).token : issueProof(shop.domain, proofFor).token;
}

export async function createCheckout(input: {
  shop: Shop;
  accessToken: string | undefined;
  body: CreateCheckoutBody;
  buyerIp: string | null;
}): Promise<CheckoutOutcome> {
  const { shop, body } = input;
  const mode = body.selectedMode;
  const items = itemsOf(body);
  const standing = await callerStanding(shop, body);
  const { state, heldOut, capped, subscribed } = standing;
  // An unpaid app never stands in the shopper's way: the store's own checkout takes over.
  const guarded = subscribed && mode === "cod" && shop.otpEnabled;
  if (guarded && standing.blocked) return { kind: "phone_blocked" };
  if (guarded && !state.verified && !heldOut && !capped) return { kind: "not_verified" };
  // The caller proved the number, so its history counts. A high band refuses COD (docs/risk.md); so does a
  // proof issued high: the band given at verification stands for the proof's life.
  const risk = subscribed && shop.otpEnabled ? await assessShopper(shop, { phone: body.phone, ip: input.buyerIp, withHistory: state.verified, otpVerified: state.verified ? true : null, count: { ip: true }, source: body.source, behaviour: { unusualHour: unusualHourFor(shop, clock.now()) } }) : null;
  const band = state.proof?.band === "h" ? "high" : risk?.band;
  // What the band does (docs/risk.md): refused or priced, plain COD is not offered; priced, partial carries the deposit.
  // The proof's offer (verify-otp's, with what the modal measured) stands for the proof's life: the stricter
  // of it and today's wins, and of two deposits the larger, so a priced shopper never comes back to plain COD.
  const fresh = risk && band ? offerFor(shop, risk, band) : null;
  const offer = risk ? stricterOffer(fresh && { action: fresh.action, deposit: fresh.deposit }, state.proof ? proofOffer(state.proof) : null) : null;
  const codTaken = offer?.action === "refuse" || offer?.action === "price";
  if (risk && band && offer && mode === "cod" && codTaken) return { kind: "cod_not_allowed", risk: { ...risk, band }, band, offer };
  const checkoutShop = mode === "partial" && offer?.action === "price" && offer.deposit != null ? { ...shop, depositType: "fixed", depositValue: offer.deposit } : shop;

  const selection = await recordSelection({
    shopId: shop.id,
    phone: body.phone,
    mode,
    source: "create-checkout",
    verified: state.verified,
    verifiedAt: state.verifiedAt,
    cartToken: body.cartToken ?? null,
    items,
  });
  // The proof says what the band does (refused, priced with its deposit, confirmed), so the checkout function hides
  // plain COD for a refusal or a price and orders/create checks the deposit or opens the confirmation.
  const proof = cartProof(shop, standing, { phone: body.phone, mode, selectionId: selection.id, band, offer });
  return buildCheckout({ ...input, checkoutShop, selectionId: selection.id, proof, verified: state.verified, subscribed });
}

/** The checkout built for a recorded selection (a cart, or a draft order for a deposit), or the store's own checkout as the fallback. */
async function buildCheckout(input: {
  shop: Shop;
  checkoutShop: Shop;
  accessToken: string | undefined;
  body: CreateCheckoutBody;
  buyerIp: string | null;
  selectionId: string;
  proof: string | null;
  verified: boolean;
  subscribed: boolean;
}): Promise<CheckoutOutcome> {
  const { shop, body, selectionId, proof } = input;
  const mode = body.selectedMode;
  const fallback = (cause: FallbackCause, detail?: string): CheckoutOutcome => {
    log.warn("create-checkout fell back to the store's checkout", { shop: shop.domain, mode, cause, detail, selectionId });
    return { kind: "fallback", cause, selectionId, proof };
  };
  if (!input.subscribed) return fallback("subscription_inactive", `subscription status ${shop.subscriptionStatus}`);
  if (!input.accessToken) return fallback("no_token");
  const ctx: CheckoutContext = {
    selectionId,
    mode,
    phone: body.phone,
    verified: input.verified,
    proof,
    source: body.source,
    discountCode: discountCodeFor(shop, mode),
  };
  const items = itemsOf(body);
  const fee = mode === "cod" ? codFeeOf(shop) : null;
  const built = mode === "partial" ? await buildPartial(input.checkoutShop, items, ctx, input.buyerIp) : await buildCart(shop.domain, items, ctx, input.buyerIp, fee);
  if (!built.ok) return fallback(built.cause, built.detail);

  await prisma.selection.update({
    where: { id: selectionId },
    data: {
      checkoutUrl: built.checkoutUrl,
      ...(built.draftOrderGid ? { draftOrderGid: built.draftOrderGid } : {}),
      // The new cart's token, which the order reports as cart_token: one more way to link it.
      ...(built.cartToken && !body.cartToken ? { cartToken: built.cartToken } : {}),
    },
  });
  log.info("create-checkout built a checkout", { shop: shop.domain, mode, selectionId, draftOrderGid: built.draftOrderGid });
  return { kind: "checkout", checkoutUrl: built.checkoutUrl, selectionId };
}

type Built =
  | { ok: true; checkoutUrl: string; draftOrderGid?: string; cartToken?: string | null }
  | { ok: false; cause: FallbackCause; detail: string };

/**
 * partial: Shopify's draft-order deposit where the store has it (Plus), otherwise, or once Shopify
 * refuses the deposit, a cart with a single-use deposit code (docs/decisions/partial-deposit-by-discount-and-edit.md).
 */
async function buildPartial(shop: Shop, items: CheckoutItem[], ctx: CheckoutContext, buyerIp: string | null): Promise<Built> {
  if (shop.depositsAvailable !== false) {
    const draft = await buildDepositDraftOrder(shop, items, ctx);
    if (draft.ok || draft.cause !== "deposits_unavailable") return draft;
  }
  return buildDepositDiscountCart(shop, items, ctx, buyerIp, cartTokenOf);
}

const userError = z.object({ field: z.array(z.string()).nullish(), message: z.string(), code: z.string().nullish() });

const cartLine = z.object({
  id: z.string(),
  quantity: z.number(),
  merchandise: z.object({ id: z.string().optional(), price: z.object({ amount: z.string(), currencyCode: z.string().optional() }).optional() }).passthrough(),
});

const cartCreateReply = z.object({
  cartCreate: z.object({
    cart: z
      .object({ id: z.string(), checkoutUrl: z.string().url(), lines: z.object({ nodes: z.array(cartLine) }).optional() })
      .nullable(),
    userErrors: z.array(userError),
  }),
});


const linesUpdateReply = z.object({ cartLinesUpdate: z.object({ userErrors: z.array(userError) }) });

/**
 * The shop's COD fee as the cart carries it: a line of the merchant's fee variant. `currency`: the shop's,
 * which a fixed fee's value is an amount of (null: not known yet).
 */
export type CodFee = { variantId: string; type: "fixed" | "percentage"; value: number; currency: string | null };

function codFeeOf(shop: Shop): CodFee | null {
  const fee = pricing(shop).codFee;
  return fee && shop.codFeeVariantId ? { variantId: shop.codFeeVariantId, ...fee, currency: shop.currency } : null;
}

/**
 * A fixed fee (an amount of the shop's currency) on a cart Shopify priced in another currency: the fee
 * variant's price in the cart is the market's (converted at Shopify's rate, rounded, or a fixed market
 * price), and neither the Storefront nor the Admin API gives the rate, so no quantity of fee units can be
 * said to carry the fee. Such a cart is built without the fee (docs/decisions/partial-deposit-by-discount-and-edit.md).
 */
export function fixedFeeInOtherCurrency(fee: CodFee, lines: z.infer<typeof cartLine>[]): string | null {
  if (fee.type !== "fixed" || !fee.currency) return null;
  const currency = lines.find((l) => l.merchandise.id === fee.variantId)?.merchandise.price?.currencyCode;
  return currency && currency !== fee.currency ? currency : null;
}

async function buildCart(
  shop: string,
  items: CheckoutItem[],
  ctx: CheckoutContext,
  buyerIp: string | null,
  fee: CodFee | null = null,
  withBuyer = true,
): Promise<Built> {
  // Storefront limits are per buyer IP when the app passes it on.
  const headers: Record<string, string> = buyerIp ? { "Shopify-Storefront-Buyer-IP": buyerIp } : {};
  const input = buildCartInput(items, ctx, withBuyer);
  if (fee) {
    // The fee is a product line (works on every plan, and the order shows it), first at quantity 1;
    // the fee variant's price is the unit, so the quantity is set to carry the fee below.
    input.lines.push({ merchandiseId: fee.variantId, quantity: 1 });
    input.attributes.push({ key: ATTRIBUTES.codFee, value: `${fee.type === "fixed" ? fee.value : `${fee.value}%`}` });
  }
  const result = await shopifyGraphql<unknown>("storefront", shop, CART_CREATE, { variables: { input }, headers });
  if (!result.ok) return result;
  const reply = cartCreateReply.safeParse(result.data);
  if (!reply.success) return { ok: false, cause: "invalid_response", detail: reply.error.message.slice(0, 300) };
  const { cart, userErrors } = reply.data.cartCreate;
  if (fee && userErrors.some((e) => e.field?.includes(String(input.lines.length - 1)))) {
    // The fee variant is gone or unavailable: the sale goes on without the fee.
    log.warn("create-checkout: the COD fee variant was refused; cart built without the fee", { shop, variant: fee.variantId, detail: JSON.stringify(userErrors) });
    return buildCart(shop, items, ctx, buyerIp, null, withBuyer);
  }
  if (withBuyer && userErrors.some((e) => e.field?.includes("buyerIdentity"))) {
    // Shopify refused the phone as a buyer's: the sale goes on, the shopper types it at checkout.
    log.warn("create-checkout: the buyer's phone was refused; cart built without it", { shop, detail: JSON.stringify(userErrors).slice(0, 300) });
    return buildCart(shop, items, ctx, buyerIp, fee, false);
  }
  if (userErrors.length || !cart) return { ok: false, cause: "user_errors", detail: JSON.stringify(userErrors).slice(0, 500) };
  const otherCurrency = fee ? fixedFeeInOtherCurrency(fee, cart.lines?.nodes ?? []) : null;
  if (fee && otherCurrency) {
    // The cart is left as it is (Shopify expires an abandoned cart); a new one is built without the fee.
    log.warn("create-checkout: a fixed COD fee in the shop's currency cannot be charged on a cart in another currency; cart built without the fee", {
      shop,
      fee: `${fee.value} ${fee.currency}`,
      cartCurrency: otherCurrency,
    });
    return buildCart(shop, items, ctx, buyerIp, null, withBuyer);
  }
  if (fee) {
    const quantity = feeQuantity(fee, items, cart.lines?.nodes ?? []);
    const line = cart.lines?.nodes.find((l) => l.merchandise.id === fee.variantId);
    if (line && quantity !== null && quantity !== line.quantity) {
      const updated = await shopifyGraphql<unknown>("storefront", shop, CART_LINES_UPDATE, {
        variables: { cartId: cart.id, lines: [{ id: line.id, quantity }] },
        headers,
      });
      const parsed = updated.ok ? linesUpdateReply.safeParse(updated.data) : null;
      if (!updated.ok || !parsed?.success || parsed.data.cartLinesUpdate.userErrors.length) {
        return updated.ok ? { ok: false, cause: "user_errors", detail: "the COD fee quantity was refused" } : updated;
      }
    }
  }
  return { ok: true, checkoutUrl: cart.checkoutUrl, cartToken: cartTokenOf(cart.id) };
}




const templatesReply = z.object({ paymentTermsTemplates: z.array(z.object({ id: z.string(), paymentTermsType: z.string() })) });
const calculateReply = z.object({
  draftOrderCalculate: z.object({
    calculatedDraftOrder: z.object({ totalPriceSet: z.object({ shopMoney: z.object({ amount: z.string(), currencyCode: z.string() }) }) }).nullable(),
    userErrors: z.array(userError),
  }),
});
const draftCreateReply = z.object({
  draftOrderCreate: z.object({
    draftOrder: z.object({ id: z.string(), invoiceUrl: z.string().url() }).nullable(),
    userErrors: z.array(userError),
  }),
});

/**
 * How many fee units carry the fee: the fee (fixed, or a percentage of the items' total as the cart
 * priced them) over the fee variant's price, at least one. Null when the cart gave no prices.
 */
export function feeQuantity(fee: CodFee, items: CheckoutItem[], lines: z.infer<typeof cartLine>[]): number | null {
  const priceOf = (variantId: string) => {
    const amount = lines.find((l) => l.merchandise.id === variantId)?.merchandise.price?.amount;
    return amount === undefined ? null : Number(amount);
  };
  const unit = priceOf(fee.variantId);
  if (!unit || unit <= 0) return null;
  let itemsTotal = 0;
  for (const item of items) {
    const price = priceOf(item.variantId);
    if (price === null) return null;
    itemsTotal += price * item.quantity;
  }
  const amount = codFeeAmount(fee, itemsTotal);
  return Math.min(999, Math.max(1, Math.round(amount / unit)));
}

/** Shopify's payment-terms templates are global; the FULFILLMENT one is looked up once per process. */
let fulfillmentTemplateId: string | null = null;

async function buildDepositDraftOrder(shop: Shop, items: CheckoutItem[], ctx: CheckoutContext): Promise<Built> {
  if (!fulfillmentTemplateId) {
    const t = await shopifyGraphql<unknown>("admin", shop.domain, PAYMENT_TERMS_TEMPLATES);
    if (!t.ok) return t;
    const parsed = templatesReply.safeParse(t.data);
    const id = parsed.success ? parsed.data.paymentTermsTemplates.find((x) => x.paymentTermsType === "FULFILLMENT")?.id : undefined;
    if (!id) return { ok: false, cause: "no_payment_terms_template", detail: "no FULFILLMENT payment terms template" };
    fulfillmentTemplateId = id;
  }

  const lineItems = items.map((i) => ({ variantId: i.variantId, quantity: i.quantity }));
  let total: number | null = null;
  let currency = shop.currency ?? "";
  if (shop.depositType === "fixed") {
    // DepositInput takes a percentage only: price the order first to express the fixed amount as one.
    const calc = await shopifyGraphql<unknown>("admin", shop.domain, DRAFT_ORDER_CALCULATE, {
      variables: { input: { lineItems, ...(ctx.discountCode ? { discountCodes: [ctx.discountCode] } : {}) } },
    });
    if (!calc.ok) return calc;
    const parsed = calculateReply.safeParse(calc.data);
    if (!parsed.success) return { ok: false, cause: "invalid_response", detail: parsed.error.message.slice(0, 300) };
    const { calculatedDraftOrder, userErrors } = parsed.data.draftOrderCalculate;
    if (userErrors.length || !calculatedDraftOrder) return { ok: false, cause: "user_errors", detail: JSON.stringify(userErrors) };
    total = Number(calculatedDraftOrder.totalPriceSet.shopMoney.amount);
    currency = calculatedDraftOrder.totalPriceSet.shopMoney.currencyCode;
  }
  const percentage = depositPercentage(shop.depositType, shop.depositValue, total);
  if (percentage === null) {
    return { ok: false, cause: "deposit_not_configured", detail: `${shop.depositType} ${shop.depositValue} on a total of ${total}` };
  }
  const description =
    shop.depositType === "fixed"
      ? `${shop.depositValue.toFixed(2)} ${currency} due at checkout (${percentage}% of ${total!.toFixed(2)} ${currency})`
      : `${percentage}% due at checkout`;
  const input = buildDraftOrderInput(
    items,
    ctx,
    { percentage, paymentTermsTemplateId: fulfillmentTemplateId, description },
    [`${shop.tagModePrefix}${"partial" satisfies PaymentMode}`],
  );
  const created = await shopifyGraphql<unknown>("admin", shop.domain, DRAFT_ORDER_CREATE, { variables: { input } });
  if (!created.ok) return created;
  const parsed = draftCreateReply.safeParse(created.data);
  if (!parsed.success) return { ok: false, cause: "invalid_response", detail: parsed.error.message.slice(0, 300) };
  const { draftOrder, userErrors } = parsed.data.draftOrderCreate;
  if (userErrors.some((e) => e.field?.includes("deposit"))) {
    // Shopify refused the deposit itself: the store cannot take draft-order deposits. Learnt, so the next
    // partial checkouts go straight to the deposit code.
    await updateShop(shop.domain, { depositsAvailable: false });
    log.warn("create-checkout: the store cannot take draft-order deposits; partial uses a deposit code from now on", { shop: shop.domain });
    return { ok: false, cause: "deposits_unavailable", detail: JSON.stringify(userErrors).slice(0, 500) };
  }
  if (userErrors.length || !draftOrder) return { ok: false, cause: "user_errors", detail: JSON.stringify(userErrors).slice(0, 500) };
  return { ok: true, checkoutUrl: draftOrder.invoiceUrl, draftOrderGid: draftOrder.id };
}

/** Tests start each case with no cached template. */
export function forgetPaymentTermsTemplate() {
  fulfillmentTemplateId = null;
}

/**
 * gid://shopify/Cart/c1-abc?key=... → c1-abc. Only stored as a lookup key for linking (never used to
 * build a URL), so if Shopify changes the shape, linking falls back to the attribute and phone.
 */
export function cartTokenOf(cartId: string): string | null {
  const m = /^gid:\/\/shopify\/Cart\/([^?]+)/.exec(cartId);
  return m ? m[1] : null;
}

