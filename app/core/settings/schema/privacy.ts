import { z } from "zod";
import { SETTINGS_LIMITS as L } from "../limits";
import { wholeNumber } from "./fields";

/** The "Privacy" card: how long records about shoppers are kept. */
export const privacySection = z.object({
  recordRetentionDays: wholeNumber(L.recordRetentionDays.min, L.recordRetentionDays.max),
});
