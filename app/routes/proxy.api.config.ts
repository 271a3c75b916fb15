import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticateProxy } from "~/http/app-proxy.server";
import { answer, json, methodNotAllowed } from "~/http/responses.server";
import { phoneCountries } from "~/storefront/countries";
import { offeredModes, pricing } from "~/storefront/offer";

/**
 * GET /proxy/api/config: what the storefront modal needs to render for this shop
 * (whether OTP is on, the code length, the resend cooldown, the shop's language, the payment modes
 * offered here, what each costs (COD fee, prepaid saving, deposit) and the phone countries:
 * libphonenumber-js's list with the shop's allowed countries first).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return answer(async () => {
    const { shop } = await authenticateProxy(request);
    return json({
      otpEnabled: shop.otpEnabled,
      codeLength: 6,
      resendAfter: shop.otpResendCooldownSeconds,
      locale: shop.locale,
      modes: offeredModes(shop),
      pricing: pricing(shop),
      countries: phoneCountries(shop.allowedCountries),
    });
  });
}

/** Read-only: any other method gets the contract's 405. */
export async function action() {
  return methodNotAllowed(["GET"]);
}
