import { z } from "zod";
import { ATTRIBUTES, PAYMENT_MODES, type PaymentMode } from "~/shared/payment-modes";
import { E164, phoneCountry } from "~/shared/phone";
import { issuedToken } from "~/otp/schemas";
import { formatTrafficSource, parseTrafficSource, SOURCE_ATTRIBUTE, type TrafficSource } from "~/shared/traffic-source";

const variantId = z
  .union([z.string().trim().min(1).max(100), z.number().int().positive()])
  .transform((v, ctx) => {
    const gid = toVariantGid(v);
    if (!gid) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: "expected a numeric id or gid://shopify/ProductVariant/<id>" });
      return z.NEVER;
    }
    return gid;
  });
const quantity = z.number().int().min(1).max(999);

/** The body of POST /create-checkout (docs/storefront-api.md). Exactly one of `variantId` or `lines` names the items. */
export const createCheckoutBody = z
  .object({
    phone: z.string().regex(E164, "expected E.164: + and 10 to 15 digits"),
    selectedMode: z.enum(PAYMENT_MODES),
    variantId: variantId.optional(),
    quantity: quantity.optional(),
    lines: z.array(z.object({ variantId, quantity: quantity.default(1) })).min(1).max(100).optional(),
    productTitle: z.string().max(255).optional(),
    cartToken: z.string().max(255).optional(),
    /** The proof verify-otp gave, or the remembered-device token: how the caller shows it proved `phone`. */
    proof: issuedToken,
    deviceToken: issuedToken,
    /** Where the shopper came from (the session's first touch, app/shared/traffic-source.ts); unreadable is none. */
    source: z
      .string()
      .max(1000)
      .optional()
      .transform((v) => (v === undefined ? null : parseTrafficSource(v))),
  })
  .superRefine((body, ctx) => {
    if (!body.variantId && !body.lines) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["variantId"], message: "give variantId or lines" });
    }
    if (body.variantId && body.lines) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["lines"], message: "give variantId or lines, not both" });
    }
  });

export type CreateCheckoutBody = z.output<typeof createCheckoutBody>;
export type CheckoutItem = { variantId: string; quantity: number };

/** 123 or "123" or "gid://shopify/ProductVariant/123" → the gid; anything else → null. */
export function toVariantGid(value: string | number): string | null {
  const s = String(value).trim();
  if (/^[0-9]{1,20}$/.test(s)) return `gid://shopify/ProductVariant/${s}`;
  const m = /^gid:\/\/shopify\/ProductVariant\/([0-9]{1,20})$/.exec(s);
  return m ? s : null;
}

/** The items of a request, same variant lines merged (Shopify would merge them anyway). */
export function itemsOf(body: Pick<CreateCheckoutBody, "variantId" | "quantity" | "lines">): CheckoutItem[] {
  const raw = body.lines ?? [{ variantId: body.variantId!, quantity: body.quantity ?? 1 }];
  const merged = new Map<string, number>();
  for (const l of raw) merged.set(l.variantId, Math.min(999, (merged.get(l.variantId) ?? 0) + l.quantity));
  return [...merged].map(([variantId, quantity]) => ({ variantId, quantity }));
}


export type CheckoutContext = {
  selectionId: string;
  mode: PaymentMode;
  phone: string;
  verified: boolean;
  /** The signed proof for this checkout, when the caller proved the phone. */
  proof: string | null;
  discountCode: string | null;
  /** Where the shopper came from, kept on the cart for the order's record. */
  source?: TrafficSource | null;
};

function attributes(ctx: CheckoutContext): { key: string; value: string }[] {
  return [
    { key: ATTRIBUTES.selection, value: ctx.selectionId },
    { key: ATTRIBUTES.mode, value: ctx.mode },
    { key: ATTRIBUTES.verified, value: ctx.verified ? "true" : "false" },
    { key: ATTRIBUTES.phone, value: ctx.phone },
    ...(ctx.proof ? [{ key: ATTRIBUTES.proof, value: ctx.proof }] : []),
    ...(ctx.source ? [{ key: SOURCE_ATTRIBUTE, value: formatTrafficSource(ctx.source) }] : []),
  ];
}

/**
 * The cart's buyer: the phone the shopper proved (or gave, for prepaid), with its country, so Shopify's
 * checkout is prefilled with it and the checkout function finds the proof's number there.
 */
export function buyerIdentityOf(phone: string): { phone: string; countryCode?: string } {
  const countryCode = phoneCountry(phone);
  return { phone, ...(countryCode ? { countryCode } : {}) };
}

/** Storefront CartInput for cod and prepaid (`withBuyer: false` leaves the buyer out: Shopify refused the phone). */
export function buildCartInput(items: CheckoutItem[], ctx: CheckoutContext, withBuyer = true) {
  return {
    lines: items.map((i) => ({ merchandiseId: i.variantId, quantity: i.quantity })),
    attributes: attributes(ctx),
    ...(withBuyer ? { buyerIdentity: buyerIdentityOf(ctx.phone) } : {}),
    ...(ctx.discountCode ? { discountCodes: [ctx.discountCode] } : {}),
  };
}

/** The discount code a shop configured for a mode, if any. */
export function discountCodeFor(
  shop: { discountCodeCod: string | null; discountCodePrepaid: string | null; discountCodePartial: string | null },
  mode: PaymentMode,
): string | null {
  const code = mode === "cod" ? shop.discountCodeCod : mode === "prepaid" ? shop.discountCodePrepaid : shop.discountCodePartial;
  return code?.trim() || null;
}

/**
 * The deposit as Shopify's DepositInput wants it (a percentage, 1 to 99). A fixed amount is turned into
 * the percentage of the order total it represents, rounded up to two decimals so the buyer never pays
 * less than the configured amount; null when no deposit can be expressed (total unknown or zero,
 * or a deposit that would be the whole order).
 */
export function depositPercentage(depositType: string, depositValue: number, total: number | null): number | null {
  if (depositType === "fixed") {
    if (!total || total <= 0 || depositValue <= 0) return null;
    const pct = Math.ceil((depositValue / total) * 10000) / 100;
    return Math.min(99, Math.max(1, pct));
  }
  if (!(depositValue >= 1 && depositValue <= 99)) return null;
  return Math.round(depositValue * 100) / 100;
}

/** Admin DraftOrderInput for partial: same items, the deposit due now and the rest on fulfillment (delivery). */
export function buildDraftOrderInput(
  items: CheckoutItem[],
  ctx: CheckoutContext,
  deposit: { percentage: number; paymentTermsTemplateId: string; description: string },
  tags: string[],
) {
  return {
    lineItems: items.map((i) => ({ variantId: i.variantId, quantity: i.quantity })),
    phone: ctx.phone,
    customAttributes: [...attributes(ctx), { key: "Deposit", value: deposit.description }],
    note: `Partial payment: ${deposit.description}. The balance is due in cash on delivery.`,
    tags,
    deposit: { percentage: deposit.percentage },
    paymentTerms: { paymentTermsTemplateId: deposit.paymentTermsTemplateId },
    ...(ctx.discountCode ? { discountCodes: [ctx.discountCode] } : {}),
  };
}
