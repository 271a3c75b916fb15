import { z } from "zod";
import { SETTINGS_LIMITS as L } from "../limits";
import { onOff, wholeNumber } from "./fields";

/** The "Address correction" card. */
export const addressCorrectionSection = z.object({
  addressCorrectionTtlHours: wholeNumber(L.addressCorrectionTtlHours.min, L.addressCorrectionTtlHours.max),
  autoAddressCorrection: onOff,
});
