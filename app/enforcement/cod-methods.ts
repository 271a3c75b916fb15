import { DEFAULT_COD_METHOD_NAMES, type FunctionConfiguration } from "../../extensions/cod-payment-customization/src/cart_payment_methods_transform_run";
import { codMethodNameList } from "~/core/settings/cod-methods";
import { shopTimeZone } from "~/shared/shop-time";
import { utcOffsetSpans } from "~/shared/shop-day";

/** The function extension's handle (extensions/cod-payment-customization/shopify.extension.toml). */
export const FUNCTION_HANDLE = "cod-payment-customization";
/** How the customization is listed in Shopify's Settings > Payments > Customizations. */
export const PAYMENT_CUSTOMIZATION_TITLE = "COD Verify: cash on delivery only after phone verification";

/**
 * How far the shop's offsets reach: past the next monthly sync (enforcement-jobs.server.ts runs one on
 * every 1st), with room for months of syncs failing. Past it the function reads UTC+14 (never hides a
 * live proof, keeps an expired one longer).
 */
export const UTC_OFFSETS_DAYS = 400;

/**
 * The function's configuration metafield for a shop's settings and, when its time zone is known, the
 * zone's offsets from a day before `now` (a proof that expired just before this sync still reads its own
 * day) to UTC_OFFSETS_DAYS after.
 */
export function functionConfiguration(codMethodNames: string | null | undefined, timezone?: string | null, now?: Date): FunctionConfiguration {
  const names = codMethodNameList(codMethodNames);
  const configuration: FunctionConfiguration = { codMethodNames: names.length ? names : DEFAULT_COD_METHOD_NAMES };
  if (!timezone || !now || shopTimeZone(timezone) !== timezone) return configuration;
  const from = new Date(now.getTime() - 86_400_000);
  const until = new Date(now.getTime() + UTC_OFFSETS_DAYS * 86_400_000);
  return { ...configuration, utcOffsets: utcOffsetSpans(timezone, from, until), utcOffsetsUntil: Math.floor(until.getTime() / 1000) };
}
