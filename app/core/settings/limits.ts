/**
 * Bounds of the merchant's settings, shared by the validation (settings.ts) and the help texts of
 * the settings page, so the page never states a limit the server does not apply.
 */
export const SETTINGS_LIMITS = {
  returningSkipDays: { min: 0, max: 365 },
  otpSendLimit: { min: 1, max: 20 },
  otpSendWindowSeconds: { min: 60, max: 86_400 },
  otpTtlSeconds: { min: 60, max: 3600 },
  otpResendCooldownSeconds: { min: 0, max: 600 },
  otpMaxAttempts: { min: 1, max: 10 },
  dailySendCap: { min: 1, max: 1_000_000 },
  addressCorrectionTtlHours: { min: 1, max: 168 },
  whatsappReplyMinutes: { min: 5, max: 1440 },
  confirmDeadlineHours: { min: 1, max: 168 },
  // A confirmation ladder step's delay after the order (7 days, the longest deadline).
  ladderMinutes: { max: 10_080 },
  // Message records, address corrections, confirmations and order records (app/privacy/retention.ts).
  recordRetentionDays: { min: 30, max: 365 },
  codMethodNamesMax: 10,
  codMethodNameMaxLength: 100,
  depositPercentage: { min: 1, max: 99 },
  depositFixedMax: 1_000_000,
  codFeePercentageMax: 50,
  prepaidDiscountPercentageMax: 100,
  // The pay-now reward, a percentage of the amount paid (app/orders/prepaid-offer.server.ts).
  prepaidOfferPercentageMax: 50,
  smsTemplateMaxLength: 320,
  discountCodeMaxLength: 255,
  // Shopify keeps at most 40 characters of a tag; the mode tag is the prefix plus "prepaid".
  tagMaxLength: 40,
  tagModePrefixMaxLength: 40 - "prepaid".length,
} as const;
