import { z } from "zod";
import { SETTINGS_LIMITS as L } from "../limits";
import { decimal, onOff } from "./fields";

const amount = (raw: string) => (raw === "" ? 0 : /^\d+(\.\d{1,2})?$/.test(raw) ? Number(raw) : NaN);

/**
 * The "Pay now after the order" card (docs/prepaid-offer.md): the offer on or off, and the reward given back
 * once the shopper pays: none, a fixed amount, or a percentage of the amount paid with an optional cap.
 */
export const prepaidOfferSection = z
  .object({
    prepaidOffer: onOff,
    prepaidOfferIncentiveType: z.enum(["none", "fixed", "percentage"], { errorMap: () => ({ message: "Choose no reward, a fixed amount or a percentage." }) }),
    prepaidOfferIncentiveValue: decimal,
    prepaidOfferIncentiveCap: decimal,
  })
  .transform((s, ctx) => {
    const value = amount(s.prepaidOfferIncentiveValue);
    const cap = amount(s.prepaidOfferIncentiveCap);
    const type = s.prepaidOfferIncentiveType;
    const max = type === "percentage" ? L.prepaidOfferPercentageMax : L.depositFixedMax;
    if (type !== "none" && !(value > 0 && value <= max)) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["prepaidOfferIncentiveValue"],
        message: type === "percentage" ? `Enter a percentage above 0 and up to ${L.prepaidOfferPercentageMax} (up to two decimals).` : "Enter an amount above 0 in your store's currency (up to two decimals).",
      });
      return z.NEVER;
    }
    if (Number.isNaN(cap) || cap > L.depositFixedMax) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["prepaidOfferIncentiveCap"], message: "Enter the most a shopper gets back in your store's currency, or leave it empty for no cap." });
      return z.NEVER;
    }
    return {
      prepaidOffer: s.prepaidOffer,
      prepaidOfferIncentiveType: type as string,
      prepaidOfferIncentiveValue: type === "none" ? 0 : value,
      prepaidOfferIncentiveCap: type === "percentage" && cap > 0 ? cap : null,
    };
  });
