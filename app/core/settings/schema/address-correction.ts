import { z } from "zod";
import { SETTINGS_LIMITS as L } from "../limits";
import { onOff, wholeNumber } from "./fields";

/** Where a shopper's DIGIPIN goes on the order (app/address-correction/digipin-write.server.ts). */
const DIGIPIN_TARGETS = ["metafield", "note", "address2"] as const;

/** The "Address correction" card. */
export const addressCorrectionSection = z.object({
  addressCorrectionTtlHours: wholeNumber(L.addressCorrectionTtlHours.min, L.addressCorrectionTtlHours.max),
  autoAddressCorrection: onOff,
  // Absent (a form from before the setting): the default, the order's metafields.
  digipinTarget: z.enum(DIGIPIN_TARGETS, { errorMap: () => ({ message: "Choose the order's metafields, its note or the address's second line." }) }).default("metafield"),
});
