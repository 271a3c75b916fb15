import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticateProxy } from "~/http/app-proxy.server";
import { answer, methodNotAllowed } from "~/http/responses.server";
import { revalidatedJson } from "~/http/revalidated-json.server";
import { phoneCountries } from "~/storefront/countries";
import { offeredModes, pricing } from "~/storefront/offer";
import { whatsappCodesAvailable } from "~/sms/whatsapp";
import { CODE_LENGTH } from "~/shared/otp-code";

/**
 * GET /proxy/api/config: what the storefront modal needs to render for this shop
 * (whether OTP is on, the code length, the resend cooldown, the shop's language, the payment modes
 * offered here, what each costs (COD fee, prepaid saving, deposit), the phone countries (the shop's
 * allowed ones, else every country libphonenumber-js knows) and whether a code can go by WhatsApp).
 * The same for every shopper of the shop: the browser revalidates it by ETag, compressed.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return answer(async () => {
    const { shop } = await authenticateProxy(request);
    return revalidatedJson(request, {
      otpEnabled: shop.otpEnabled,
      codeLength: CODE_LENGTH,
      resendAfter: shop.otpResendCooldownSeconds,
      locale: shop.locale,
      modes: offeredModes(shop),
      pricing: pricing(shop),
      countries: phoneCountries(shop.allowedCountries),
      whatsapp: whatsappCodesAvailable(),
      // The shopper chooses SMS or WhatsApp for the code before it is sent (the shop allows it and WhatsApp can carry codes).
      channelChoice: shop.otpChannelChoice && whatsappCodesAvailable(),
    });
  });
}

/** Read-only: any other method gets the contract's 405. */
export async function action() {
  return methodNotAllowed(["GET"]);
}
