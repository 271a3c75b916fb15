import { getCountries } from "libphonenumber-js/min";
import { z } from "zod";
import { countryNames, readCountryList } from "~/shared/country-names";
import { SETTINGS_LIMITS as L } from "../limits";
import { onOff, text, wholeNumber } from "./fields";

/** Every country a phone number can belong to, by its English name (the list the settings page offers). */
export const PHONE_COUNTRY_NAMES = countryNames(getCountries());

const countryList = text("Enter countries, or leave empty to allow every country.").transform((raw, ctx) => {
  const { codes, unknown } = readCountryList(raw, PHONE_COUNTRY_NAMES);
  if (unknown.length) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: `Not a country phone numbers belong to: ${unknown.join(", ")}. Type a country's English name as the list shows it (such as Kenya) or its two-letter code (such as KE), separated by commas.`,
    });
    return z.NEVER;
  }
  // Stored as send-otp reads it (parseCountryList): upper case, comma-separated, each code once.
  return codes.join(",");
});

const smsTemplate = text("Enter a message or leave it empty.")
  .trim()
  .refine((v) => v === "" || v.includes("{code}"), "The message must contain {code}, where the code goes.")
  .refine((v) => v.length <= L.smsTemplateMaxLength, `Keep the message to ${L.smsTemplateMaxLength} characters.`)
  .transform((v) => (v === "" ? null : v));

/** The "One-time codes" card: when a code is asked for, how often, how it is sent. */
export const otpSection = z.object({
  otpEnabled: onOff,
  returningSkipDays: wholeNumber(L.returningSkipDays.min, L.returningSkipDays.max),
  otpSendLimit: wholeNumber(L.otpSendLimit.min, L.otpSendLimit.max),
  otpSendWindowSeconds: wholeNumber(L.otpSendWindowSeconds.min, L.otpSendWindowSeconds.max),
  otpTtlSeconds: wholeNumber(L.otpTtlSeconds.min, L.otpTtlSeconds.max),
  otpResendCooldownSeconds: wholeNumber(L.otpResendCooldownSeconds.min, L.otpResendCooldownSeconds.max),
  otpMaxAttempts: wholeNumber(L.otpMaxAttempts.min, L.otpMaxAttempts.max),
  dailySendCap: wholeNumber(L.dailySendCap.min, L.dailySendCap.max),
  allowedCountries: countryList,
  smsChannel: z.enum(["sms", "whatsapp"], { errorMap: () => ({ message: "Choose SMS or WhatsApp." }) }),
  smsTemplate,
});
