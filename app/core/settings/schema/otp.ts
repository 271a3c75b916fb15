import { isSupportedCountry } from "libphonenumber-js/min";
import { z } from "zod";
import { parseCountryList } from "~/shared/phone";
import { SETTINGS_LIMITS as L } from "../limits";
import { onOff, text, wholeNumber } from "./fields";

const countryList = text("Enter country codes, or leave empty to allow every country.").transform((raw, ctx) => {
  const words = raw
    .split(/[\s,;]+/)
    .map((w) => w.trim())
    .filter(Boolean);
  const unknown = words.filter((w) => !/^[A-Za-z]{2}$/.test(w) || !isSupportedCountry(w.toUpperCase()));
  if (unknown.length) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: `Not a country code phone numbers belong to (two letters, ISO 3166, such as IN, AE or US): ${unknown.join(", ")}.`,
    });
    return z.NEVER;
  }
  // Stored as send-otp reads it (parseCountryList): upper case, comma-separated, each code once.
  return [...new Set(parseCountryList(raw))].join(",");
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
