import { z } from "zod";
import { SETTINGS_LIMITS as L } from "../limits";
import { codMethodNameList, DEFAULT_COD_METHOD_NAMES_TEXT } from "../cod-methods";
import { onOff, text, wholeNumber } from "./fields";

/** Payment method names, one a line, as the checkout shows them; empty means Shopify's "Cash on Delivery (COD)". */
const codMethodNames = text("Enter the names of your cash-on-delivery payment methods, one a line.").transform((raw, ctx) => {
  const names = codMethodNameList(raw);
  const tooLong = names.find((n) => n.length > L.codMethodNameMaxLength);
  if (tooLong || names.length > L.codMethodNamesMax || [...raw].some((c) => c !== "\n" && c !== "\r" && (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127))) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: `Up to ${L.codMethodNamesMax} names, one a line, each up to ${L.codMethodNameMaxLength} characters.`,
    });
    return z.NEVER;
  }
  return (names.length ? names : codMethodNameList(DEFAULT_COD_METHOD_NAMES_TEXT)).join("\n");
});

/** The "Enforcement" card: COD hidden at checkout unless verified, and the confirmation after purchase. */
export const enforcementSection = z.object({
  enforceAtCheckout: onOff,
  keepCodHiddenWhenPaused: onOff,
  capFallback: z.enum(["confirm_after_purchase", "prepaid_only"], { errorMap: () => ({ message: "Choose cash on delivery confirmed after purchase, or prepaid only." }) }),
  usageChargesEnabled: onOff,
  codMethodNames,
  holdUnverifiedCod: onOff,
  confirmDeadlineHours: wholeNumber(L.confirmDeadlineHours.min, L.confirmDeadlineHours.max),
  cancelUnconfirmed: onOff,
});
