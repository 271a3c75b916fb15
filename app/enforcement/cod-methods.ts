import { DEFAULT_COD_METHOD_NAMES, type FunctionConfiguration } from "../../extensions/cod-payment-customization/src/cart_payment_methods_transform_run";
import { codMethodNameList } from "~/core/settings/cod-methods";

/** The function extension's handle (extensions/cod-payment-customization/shopify.extension.toml). */
export const FUNCTION_HANDLE = "cod-payment-customization";
/** How the customization is listed in Shopify's Settings > Payments > Customizations. */
export const PAYMENT_CUSTOMIZATION_TITLE = "COD Verify: cash on delivery only after phone verification";

/** The function's configuration metafield for a shop's settings. */
export function functionConfiguration(codMethodNames: string | null | undefined): FunctionConfiguration {
  const names = codMethodNameList(codMethodNames);
  return { codMethodNames: names.length ? names : DEFAULT_COD_METHOD_NAMES };
}
