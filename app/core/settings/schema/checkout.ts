import { z } from "zod";
import { chosenModes } from "~/shared/payment-modes";
import { SETTINGS_LIMITS as L } from "../limits";
import { decimal, optionalText, text } from "./fields";

/** Posted as "cod,prepaid,partial" (the page keeps a hidden field in step with its checkboxes). */
const paymentModes = text("Choose at least one way to pay.").transform((raw, ctx) => {
  const words = raw.split(/[\s,]+/).filter(Boolean);
  const modes = chosenModes(raw);
  if (!modes.length || words.some((w) => !modes.includes(w.toLowerCase() as never))) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Choose at least one way to pay: cash on delivery, prepaid or partial." });
    return z.NEVER;
  }
  return modes.join(",");
});

/** An amount or percentage that is off ("none") or above zero; checked against its type. */
function adjustment(typeField: string, valueField: string, what: string, percentageMax: number) {
  return z
    .object({
      [typeField]: z.enum(["none", "percentage", "fixed"], { errorMap: () => ({ message: `Choose no ${what}, a percentage or a fixed amount.` }) }),
      [valueField]: decimal,
    })
    .transform((s, ctx) => {
      const type = s[typeField] as "none" | "percentage" | "fixed";
      const raw = String(s[valueField]);
      const amount = raw === "" ? 0 : /^\d+(\.\d{1,2})?$/.test(raw) ? Number(raw) : NaN;
      const max = type === "percentage" ? percentageMax : L.depositFixedMax;
      if (type !== "none" && !(amount > 0 && amount <= max)) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [valueField],
          message:
            type === "percentage"
              ? `Enter a percentage above 0 and up to ${percentageMax} (up to two decimals).`
              : "Enter an amount above 0 in your store's currency (up to two decimals).",
        });
        return z.NEVER;
      }
      if (type === "none" && Number.isNaN(amount)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [valueField], message: "Enter a number, or leave it empty." });
        return z.NEVER;
      }
      return { [typeField]: type, [valueField]: type === "none" ? 0 : amount };
    });
}

const prepaidDiscount = adjustment("prepaidDiscountType", "prepaidDiscountValue", "saving", L.prepaidDiscountPercentageMax).transform((s) => ({
  prepaidDiscountType: s.prepaidDiscountType as string,
  prepaidDiscountValue: s.prepaidDiscountValue as number,
}));

/** The COD fee: its type and value, and the fee product's variant it is charged through (required with a fee). */
const codFee = adjustment("codFeeType", "codFeeValue", "fee", L.codFeePercentageMax)
  .and(z.object({ codFeeVariantId: text("Enter the fee product's variant ID, or leave it empty.").trim() }))
  .transform((s, ctx) => {
    const raw = s.codFeeVariantId;
    const gid = /^\d{1,20}$/.test(raw) ? `gid://shopify/ProductVariant/${raw}` : /^gid:\/\/shopify\/ProductVariant\/\d{1,20}$/.test(raw) ? raw : null;
    if (raw && !gid) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["codFeeVariantId"], message: "Enter the variant's number (from its page in your admin) or its gid://shopify/ProductVariant/… ID." });
      return z.NEVER;
    }
    if (s.codFeeType !== "none" && !gid) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["codFeeVariantId"], message: "A fee needs the product variant it is charged through." });
      return z.NEVER;
    }
    return { codFeeType: s.codFeeType as string, codFeeValue: s.codFeeValue as number, codFeeVariantId: gid };
  });

/** The deposit's value is read against its type; checked on its own so its error shows beside the others'. */
const deposit = z
  .object({
    depositType: z.enum(["percentage", "fixed"], { errorMap: () => ({ message: "Choose a percentage or a fixed amount." }) }),
    depositValue: decimal,
  })
  .transform((s, ctx) => {
    const { min, max } = L.depositPercentage;
    const amount = /^\d+(\.\d{1,2})?$/.test(s.depositValue) ? Number(s.depositValue) : NaN;
    const ok = s.depositType === "percentage" ? amount >= min && amount <= max : amount > 0 && amount <= L.depositFixedMax;
    if (!ok) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["depositValue"],
        message:
          s.depositType === "percentage"
            ? `Enter a percentage from ${min} to ${max} (up to two decimals).`
            : "Enter an amount above 0 in your store's currency (up to two decimals).",
      });
      return z.NEVER;
    }
    return { depositType: s.depositType, depositValue: amount };
  });

/**
 * The "Checkout" card: the ways to pay offered, a discount code per way, the prepaid saving, the COD
 * fee and the deposit. Each side is read in full, so every field's error is reported at once.
 */
export const checkoutSection = z
  .object({
    paymentModes,
    discountCodeCod: optionalText(L.discountCodeMaxLength, "a discount code"),
    discountCodePrepaid: optionalText(L.discountCodeMaxLength, "a discount code"),
    discountCodePartial: optionalText(L.discountCodeMaxLength, "a discount code"),
  })
  .and(prepaidDiscount)
  .and(codFee)
  .and(deposit);
