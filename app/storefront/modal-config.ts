import type { Shop } from "~/core/settings/shop.server";
import { CODE_LENGTH } from "~/shared/otp-code";
import { whatsappCodesAvailable } from "~/sms/whatsapp";
import { phoneCountries } from "./countries";
import { offeredModes, pricing } from "./offer";

/**
 * What the storefront modal needs to render for a shop (GET /proxy/api/config): whether OTP is on, the
 * code length, the resend cooldown, the shop's language, the payment modes offered here, what each costs
 * (COD fee, prepaid saving, deposit), the phone countries (the shop's allowed ones, else every country
 * libphonenumber-js knows) and whether a code can go by WhatsApp. The same for every shopper of the shop.
 */
export function modalConfig(shop: Shop) {
  return {
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
  };
}
