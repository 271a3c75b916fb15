import type { z } from "zod";
import { pickLocale } from "~/shared/locales";
import { parseCountryList } from "~/shared/phone";
import { chosenModes } from "~/shared/payment-modes";
import { codMethodNameList } from "./cod-methods";
import { addressCorrectionSection } from "./schema/address-correction";
import { checkoutSection } from "./schema/checkout";
import { enforcementSection } from "./schema/enforcement";
import { languageSection } from "./schema/language";
import { orderTagsSection } from "./schema/order-tags";
import { otpSection } from "./schema/otp";
import { prepaidOfferSection } from "./schema/prepaid-offer";
import { privacySection } from "./schema/privacy";
import { whatsappSection } from "./schema/whatsapp";
import { ladderSection } from "./schema/ladder";
import type { Shop } from "./shop.server";

/**
 * The merchant's settings page: the one schema of what a merchant may change on their `Shop` row.
 * It reads the form as posted (every value a string) and yields exactly the columns to write, so
 * nothing else on the row (id, domain, subscription state, install dates) can be set through it.
 */

/** Every field of the form, in the order the page shows them. */
export const SETTINGS_FIELDS = [
  "otpEnabled",
  "returningSkipDays",
  "otpSendLimit",
  "otpSendWindowSeconds",
  "otpTtlSeconds",
  "otpResendCooldownSeconds",
  "otpMaxAttempts",
  "dailySendCap",
  "allowedCountries",
  "smsChannel",
  "smsTemplate",
  "locale",
  "discountCodeCod",
  "discountCodePrepaid",
  "discountCodePartial",
  "prepaidDiscountType",
  "prepaidDiscountValue",
  "paymentModes",
  "depositType",
  "depositValue",
  "codFeeType",
  "codFeeValue",
  "codFeeVariantId",
  "tagOrders",
  "tagVerified",
  "tagUnverified",
  "tagModePrefix",
  "addressCorrectionTtlHours",
  "autoAddressCorrection",
  "digipinTarget",
  "enforceAtCheckout",
  "keepCodHiddenWhenPaused",
  "usageChargesEnabled",
  "codMethodNames",
  "holdUnverifiedCod",
  "confirmDeadlineHours",
  "cancelUnconfirmed",
  "whatsappConfirmation",
  "whatsappReplyMinutes",
  "cancelOnWhatsappCancel",
  "otpChannelChoice",
  "linksOnWhatsapp",
  "linkDomain",
  "ladderWhatsappMinutes",
  "ladderSmsMinutes",
  "ladderVoiceMinutes",
  "ladderPersonMinutes",
  "quietHoursStart",
  "quietHoursEnd",
  "recordRetentionDays",
  "prepaidOffer",
  "prepaidOfferIncentiveType",
  "prepaidOfferIncentiveValue",
  "prepaidOfferIncentiveCap",
] as const;

export type SettingsField = (typeof SETTINGS_FIELDS)[number];
/** The form's values as the page shows and posts them. */
export type SettingsFormValues = Record<SettingsField, string>;
export type SettingsErrors = Partial<Record<SettingsField, string>>;

/**
 * One object per card of the page (./schema/), read side by side: each section reads only its own
 * fields, and every section is read in full, so every field's error is reported at once (in the page's order).
 */
export const settingsSchema = otpSection
  .and(languageSection)
  .and(checkoutSection)
  .and(enforcementSection)
  .and(orderTagsSection)
  .and(addressCorrectionSection)
  .and(whatsappSection)
  .and(ladderSection)
  .and(privacySection)
  .and(prepaidOfferSection);

export type SettingsUpdate = z.output<typeof settingsSchema>;

export type SettingsResult =
  | { ok: true; data: SettingsUpdate }
  | { ok: false; errors: SettingsErrors; values: SettingsFormValues };

/** The posted form (FormData or a plain record) → the columns to write, or each field's first error. */
export function parseSettings(input: FormData | Record<string, unknown>): SettingsResult {
  const raw: Record<string, unknown> = {};
  for (const field of SETTINGS_FIELDS) {
    const value = input instanceof FormData ? input.get(field) : input[field];
    raw[field] = value === null ? undefined : value;
  }
  const parsed = settingsSchema.safeParse(raw);
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors: SettingsErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as SettingsField;
    errors[field] ??= issue.message;
  }
  // What the merchant typed goes back to the page as is (a file upload or a missing field as empty).
  const values = Object.fromEntries(SETTINGS_FIELDS.map((f) => [f, typeof raw[f] === "string" ? raw[f] : ""])) as SettingsFormValues;
  return { ok: false, errors, values };
}

/** "HH:MM" for a minute of the day (the quiet hours). */
const clockTime = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;

/** The shop's current settings as the form shows them. */
export function settingsFormValues(shop: Pick<Shop, SettingsField>): SettingsFormValues {
  return {
    otpEnabled: String(shop.otpEnabled),
    returningSkipDays: String(shop.returningSkipDays),
    otpSendLimit: String(shop.otpSendLimit),
    otpSendWindowSeconds: String(shop.otpSendWindowSeconds),
    otpTtlSeconds: String(shop.otpTtlSeconds),
    otpResendCooldownSeconds: String(shop.otpResendCooldownSeconds),
    otpMaxAttempts: String(shop.otpMaxAttempts),
    dailySendCap: String(shop.dailySendCap),
    allowedCountries: parseCountryList(shop.allowedCountries).join(", "),
    smsChannel: shop.smsChannel === "whatsapp" ? "whatsapp" : "sms",
    smsTemplate: shop.smsTemplate ?? "",
    // A language the texts do not exist in is English in practice; the page shows what is used.
    locale: pickLocale(shop.locale),
    discountCodeCod: shop.discountCodeCod ?? "",
    discountCodePrepaid: shop.discountCodePrepaid ?? "",
    discountCodePartial: shop.discountCodePartial ?? "",
    prepaidDiscountType: ["percentage", "fixed"].includes(shop.prepaidDiscountType) ? shop.prepaidDiscountType : "none",
    prepaidDiscountValue: shop.prepaidDiscountType === "none" ? "" : String(shop.prepaidDiscountValue),
    paymentModes: chosenModes(shop.paymentModes).join(","),
    codFeeType: ["percentage", "fixed"].includes(shop.codFeeType) ? shop.codFeeType : "none",
    codFeeValue: shop.codFeeType === "none" ? "" : String(shop.codFeeValue),
    codFeeVariantId: shop.codFeeVariantId?.replace(/^gid:\/\/shopify\/ProductVariant\//, "") ?? "",
    depositType: shop.depositType === "fixed" ? "fixed" : "percentage",
    depositValue: String(shop.depositValue),
    tagOrders: String(shop.tagOrders),
    tagVerified: shop.tagVerified,
    tagUnverified: shop.tagUnverified,
    tagModePrefix: shop.tagModePrefix,
    addressCorrectionTtlHours: String(shop.addressCorrectionTtlHours),
    autoAddressCorrection: String(shop.autoAddressCorrection),
    digipinTarget: ["note", "address2"].includes(shop.digipinTarget) ? shop.digipinTarget : "metafield",
    enforceAtCheckout: String(shop.enforceAtCheckout),
    keepCodHiddenWhenPaused: String(shop.keepCodHiddenWhenPaused),
    usageChargesEnabled: String(shop.usageChargesEnabled),
    codMethodNames: codMethodNameList(shop.codMethodNames).join("\n"),
    holdUnverifiedCod: String(shop.holdUnverifiedCod),
    confirmDeadlineHours: String(shop.confirmDeadlineHours),
    cancelUnconfirmed: String(shop.cancelUnconfirmed),
    whatsappConfirmation: ["unverified", "all"].includes(shop.whatsappConfirmation) ? shop.whatsappConfirmation : "off",
    whatsappReplyMinutes: String(shop.whatsappReplyMinutes),
    cancelOnWhatsappCancel: String(shop.cancelOnWhatsappCancel),
    otpChannelChoice: String(shop.otpChannelChoice),
    linksOnWhatsapp: String(shop.linksOnWhatsapp),
    linkDomain: shop.linkDomain ?? "",
    ladderWhatsappMinutes: shop.ladderWhatsappMinutes === null ? "" : String(shop.ladderWhatsappMinutes),
    ladderSmsMinutes: shop.ladderSmsMinutes === null ? "" : String(shop.ladderSmsMinutes),
    ladderVoiceMinutes: shop.ladderVoiceMinutes === null ? "" : String(shop.ladderVoiceMinutes),
    ladderPersonMinutes: shop.ladderPersonMinutes === null ? "" : String(shop.ladderPersonMinutes),
    quietHoursStart: shop.quietHoursStart === null ? "" : clockTime(shop.quietHoursStart),
    quietHoursEnd: shop.quietHoursEnd === null ? "" : clockTime(shop.quietHoursEnd),
    recordRetentionDays: String(shop.recordRetentionDays),
    prepaidOffer: String(shop.prepaidOffer),
    prepaidOfferIncentiveType: ["fixed", "percentage"].includes(shop.prepaidOfferIncentiveType) ? shop.prepaidOfferIncentiveType : "none",
    prepaidOfferIncentiveValue: shop.prepaidOfferIncentiveType === "none" ? "" : String(shop.prepaidOfferIncentiveValue),
    prepaidOfferIncentiveCap: shop.prepaidOfferIncentiveCap == null ? "" : String(shop.prepaidOfferIncentiveCap),
  };
}
