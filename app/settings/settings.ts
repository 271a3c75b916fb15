import { isSupportedCountry } from "libphonenumber-js/min";
import { z } from "zod";
import { LOCALES, pickLocale } from "~/shared/locales";
import { parseCountryList } from "~/shared/phone";
import { SETTINGS_LIMITS as L } from "./limits";
import { codMethodNameList, DEFAULT_COD_METHOD_NAMES_TEXT } from "./cod-methods";
import { chosenModes } from "~/shared/payment-modes";
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
  "enforceAtCheckout",
  "keepCodHiddenWhenPaused",
  "usageChargesEnabled",
  "codMethodNames",
  "holdUnverifiedCod",
  "confirmDeadlineHours",
  "cancelUnconfirmed",
  "recordRetentionDays",
] as const;

export type SettingsField = (typeof SETTINGS_FIELDS)[number];
/** The form's values as the page shows and posts them. */
export type SettingsFormValues = Record<SettingsField, string>;
export type SettingsErrors = Partial<Record<SettingsField, string>>;

const text = (message: string) => z.string({ required_error: message, invalid_type_error: message });

/** A checkbox, posted by the page as "true" or "false" (a hidden input), so a missing field is an error, not "off". */
const onOff = text("Choose on or off.")
  .refine((v) => v === "true" || v === "false", "Choose on or off.")
  .transform((v) => v === "true");

function wholeNumber(min: number, max: number) {
  const message = `Enter a whole number from ${min.toLocaleString("en")} to ${max.toLocaleString("en")}.`;
  return text(message)
    .trim()
    .refine((v) => /^\d{1,9}$/.test(v), message)
    .transform(Number)
    .refine((n) => n >= min && n <= max, message);
}

/** Line breaks, tabs and other control characters: never part of a code or a tag. */
const hasControlCharacter = (v: string) => [...v].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127);

/** Empty means "none" (null in the database). */
function optionalText(max: number, what: string) {
  return text(`Enter ${what} or leave it empty.`)
    .trim()
    .refine((v) => v.length <= max, `Keep ${what} to ${max} characters.`)
    .refine((v) => !hasControlCharacter(v), `${what[0].toUpperCase()}${what.slice(1)} cannot contain line breaks or control characters.`)
    .transform((v) => (v === "" ? null : v));
}

function tag(max: number, what: string) {
  return text(`Enter ${what}.`)
    .trim()
    .refine((v) => v.length > 0, `Enter ${what}.`)
    .refine((v) => !v.includes(","), "Shopify separates tags with commas, so a tag cannot contain one.")
    .refine((v) => v.length <= max, `Keep ${what} to ${max} characters (Shopify's limit for a tag${max < L.tagMaxLength ? ", with the mode added" : ""}).`)
    .refine((v) => !hasControlCharacter(v), "A tag cannot contain line breaks or control characters.");
}

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

/** Payment method names, one a line, as the checkout shows them; empty means Shopify's "Cash on Delivery (COD)". */
const codMethodNames = text("Enter the names of your cash-on-delivery payment methods, one a line.").transform((raw, ctx) => {
  const names = codMethodNameList(raw);
  const tooLong = names.find((n) => n.length > L.codMethodNameMaxLength);
  if (tooLong || names.length > L.codMethodNamesMax || [...raw].some((c) => c !== "\n" && c !== "\r" && (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127))) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: `Up to ${L.codMethodNamesMax} names, one a line, each up to ${L.codMethodNameMaxLength} characters.`,
    });
    return z.NEVER;
  }
  return (names.length ? names : codMethodNameList(DEFAULT_COD_METHOD_NAMES_TEXT)).join("\n");
});

const smsTemplate = text("Enter a message or leave it empty.")
  .trim()
  .refine((v) => v === "" || v.includes("{code}"), "The message must contain {code}, where the code goes.")
  .refine((v) => v.length <= L.smsTemplateMaxLength, `Keep the message to ${L.smsTemplateMaxLength} characters.`)
  .transform((v) => (v === "" ? null : v));

const decimal = text("Enter an amount.")
  .trim()
  // A merchant may type a decimal comma ("12,50").
  .transform((v) => v.replace(/^(\d+),(\d+)$/, "$1.$2"));

/** The deposit's value is read against its type; checked on its own so its error shows beside the others'. */
const depositSchema = z
  .object({
    depositType: z.enum(["percentage", "fixed"], { errorMap: () => ({ message: "Choose a percentage or a fixed amount." }) }),
    depositValue: decimal,
  })
  .transform((s, ctx) => {
    const { min, max } = L.depositPercentage;
    const amount = /^\d+(\.\d{1,2})?$/.test(s.depositValue) ? Number(s.depositValue) : NaN;
    const ok = s.depositType === "percentage" ? amount >= min && amount <= max : amount > 0 && amount <= L.depositFixedMax;
    if (!ok) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["depositValue"],
        message:
          s.depositType === "percentage"
            ? `Enter a percentage from ${min} to ${max} (up to two decimals).`
            : "Enter an amount above 0 in your store's currency (up to two decimals).",
      });
      return z.NEVER;
    }
    return { depositType: s.depositType, depositValue: amount };
  });

/** Posted as "cod,prepaid,partial" (the page keeps a hidden field in step with its checkboxes). */
const paymentModes = text("Choose at least one way to pay.").transform((raw, ctx) => {
  const words = raw.split(/[\s,]+/).filter(Boolean);
  const modes = chosenModes(raw);
  if (!modes.length || words.some((w) => !modes.includes(w.toLowerCase() as never))) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Choose at least one way to pay: cash on delivery, prepaid or partial." });
    return z.NEVER;
  }
  return modes.join(",");
});

/** An amount or percentage that is off ("none") or above zero; checked against its type. */
function adjustment(typeField: string, valueField: string, what: string, percentageMax: number) {
  return z
    .object({
      [typeField]: z.enum(["none", "percentage", "fixed"], { errorMap: () => ({ message: `Choose no ${what}, a percentage or a fixed amount.` }) }),
      [valueField]: decimal,
    })
    .transform((s, ctx) => {
      const type = s[typeField] as "none" | "percentage" | "fixed";
      const raw = String(s[valueField]);
      const amount = raw === "" ? 0 : /^\d+(\.\d{1,2})?$/.test(raw) ? Number(raw) : NaN;
      const max = type === "percentage" ? percentageMax : L.depositFixedMax;
      if (type !== "none" && !(amount > 0 && amount <= max)) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [valueField],
          message:
            type === "percentage"
              ? `Enter a percentage above 0 and up to ${percentageMax} (up to two decimals).`
              : "Enter an amount above 0 in your store's currency (up to two decimals).",
        });
        return z.NEVER;
      }
      if (type === "none" && Number.isNaN(amount)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [valueField], message: "Enter a number, or leave it empty." });
        return z.NEVER;
      }
      return { [typeField]: type, [valueField]: type === "none" ? 0 : amount };
    });
}

/** The COD fee: its type and value, and the fee product's variant it is charged through (required with a fee). */
const codFeeSchema = adjustment("codFeeType", "codFeeValue", "fee", L.codFeePercentageMax)
  .and(z.object({ codFeeVariantId: text("Enter the fee product's variant ID, or leave it empty.").trim() }))
  .transform((s, ctx) => {
    const raw = s.codFeeVariantId;
    const gid = /^\d{1,20}$/.test(raw) ? `gid://shopify/ProductVariant/${raw}` : /^gid:\/\/shopify\/ProductVariant\/\d{1,20}$/.test(raw) ? raw : null;
    if (raw && !gid) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["codFeeVariantId"], message: "Enter the variant's number (from its page in your admin) or its gid://shopify/ProductVariant/… ID." });
      return z.NEVER;
    }
    if (s.codFeeType !== "none" && !gid) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["codFeeVariantId"], message: "A fee needs the product variant it is charged through." });
      return z.NEVER;
    }
    return { codFeeType: s.codFeeType as string, codFeeValue: s.codFeeValue as number, codFeeVariantId: gid };
  });

const prepaidDiscountSchema = adjustment("prepaidDiscountType", "prepaidDiscountValue", "saving", L.prepaidDiscountPercentageMax).transform((s) => ({
  prepaidDiscountType: s.prepaidDiscountType as string,
  prepaidDiscountValue: s.prepaidDiscountValue as number,
}));

export const settingsSchema = z
  .object({
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
    locale: z.enum(LOCALES, { errorMap: () => ({ message: "Choose one of the listed languages." }) }),
    discountCodeCod: optionalText(L.discountCodeMaxLength, "a discount code"),
    discountCodePrepaid: optionalText(L.discountCodeMaxLength, "a discount code"),
    discountCodePartial: optionalText(L.discountCodeMaxLength, "a discount code"),
    paymentModes,
    tagOrders: onOff,
    tagVerified: tag(L.tagMaxLength, "a tag"),
    tagUnverified: tag(L.tagMaxLength, "a tag"),
    tagModePrefix: tag(L.tagModePrefixMaxLength, "a prefix"),
    addressCorrectionTtlHours: wholeNumber(L.addressCorrectionTtlHours.min, L.addressCorrectionTtlHours.max),
    autoAddressCorrection: onOff,
    enforceAtCheckout: onOff,
    keepCodHiddenWhenPaused: onOff,
    usageChargesEnabled: onOff,
    codMethodNames,
    holdUnverifiedCod: onOff,
    confirmDeadlineHours: wholeNumber(L.confirmDeadlineHours.min, L.confirmDeadlineHours.max),
    cancelUnconfirmed: onOff,
    recordRetentionDays: wholeNumber(L.recordRetentionDays.min, L.recordRetentionDays.max),
  })
  // Every side is read in full, so every field's error is reported at once.
  .and(depositSchema)
  .and(codFeeSchema)
  .and(prepaidDiscountSchema);

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
    enforceAtCheckout: String(shop.enforceAtCheckout),
    keepCodHiddenWhenPaused: String(shop.keepCodHiddenWhenPaused),
    usageChargesEnabled: String(shop.usageChargesEnabled),
    codMethodNames: codMethodNameList(shop.codMethodNames).join("\n"),
    holdUnverifiedCod: String(shop.holdUnverifiedCod),
    confirmDeadlineHours: String(shop.confirmDeadlineHours),
    cancelUnconfirmed: String(shop.cancelUnconfirmed),
    recordRetentionDays: String(shop.recordRetentionDays),
  };
}
