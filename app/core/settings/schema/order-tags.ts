import { z } from "zod";
import { SETTINGS_LIMITS as L } from "../limits";
import { onOff, tag } from "./fields";

/** The "Order tags" card. */
export const orderTagsSection = z.object({
  tagOrders: onOff,
  tagVerified: tag(L.tagMaxLength, "a tag"),
  tagUnverified: tag(L.tagMaxLength, "a tag"),
  tagModePrefix: tag(L.tagModePrefixMaxLength, "a prefix"),
});
