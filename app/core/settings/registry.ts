import type { z } from "zod";
import { LANGUAGES, LOCALES, pickLocale } from "~/shared/locales";
import { parseCountryList } from "~/shared/phone";
import { chosenModes } from "~/shared/payment-modes";
import { codMethodNameList } from "./cod-methods";
import { BAND_ACTIONS, courierTags, failureTags, onOffWord, phoneList, positiveAmount, postalCodeList, RISK_LIST_MAX, sourceList, storeContact, threshold, velocityLimit } from "./schema/risk";
import { SETTINGS_LIMITS as L } from "./limits";
import { amount, choice, onOff, optionalText, tag, wholeNumber } from "./schema/fields";
import { codMethodNames, countryList, linkDomain, paymentModes, rungMinutes, smsTemplate, timeOfDay, variantId } from "./schema/special";
import type { Shop } from "./shop.server";

/**
 * Every setting a merchant changes (the Settings pages, the Risk page and Deliveries), declared once: its section, label, what it
 * accepts, its default and its help. The forms (app/admin/settings), the parser (./settings.ts, zod built
 * from these entries) and docs/configuration.md (./registry-doc.ts) are drawn from it.
 */

/** The Settings pages, most used first: the index lists them in this order, each is /app/settings/<id>. */
export const SETTINGS_SECTIONS = [
  { id: "codes", title: "One-time codes", summary: "When a shopper is asked for a code, where it may go, how it is sent, and the limits that guard your texts." },
  { id: "checkout", title: "Checkout", summary: "The ways to pay offered, discount codes, the prepaid saving, the cash-on-delivery fee and the deposit." },
  { id: "confirmation", title: "Confirmation messages", summary: "Confirming COD orders on WhatsApp, by SMS link, by call and by your team, and the quiet hours." },
  { id: "enforcement", title: "Enforcement", summary: "Cash on delivery hidden at checkout unless verified, what happens while verification pauses, and the time to confirm." },
  { id: "pay-now", title: "Pay now after the order", summary: "A link to pay online sent after a COD order, its reward, and what it did." },
  { id: "orders", title: "Order tags and addresses", summary: "The tags put on orders, and the link that asks a shopper to correct a doubtful address." },
  { id: "costs", title: "Costs", summary: "What a failed parcel and a message cost you: Delivery analytics and the holdout experiment count money with them." },
  { id: "store", title: "Language and privacy", summary: "The language of texts and pages, and how long records about shoppers are kept." },
  { id: "experiment", title: "Holdout experiment", summary: "Measure what verification saves by not asking a small share of shoppers for a while." },
] as const;

/** The settings on pages of their own, beside what they show (the risk figures, the deliveries at risk). */
export const PAGE_SECTIONS = [
  { id: "risk", page: "/app/risk", title: "Risk rules", summary: "The risk bands' thresholds and what each band does, the merchant's rules that decide before the score, the velocity limits and the tags that mean a COD order failed." },
  { id: "deliveries", page: "/app/deliveries", title: "Deliveries", summary: "The delivery-day reminder, the failed-delivery recovery, the courier's failed-attempt tags and the contact the reminder names." },
] as const;

/** Every section, with the page it is on. */
export const SECTIONS: readonly { id: SettingsSectionId; page: string; title: string; summary: string }[] = [...SETTINGS_SECTIONS.map((s) => ({ ...s, page: `/app/settings/${s.id}` })), ...PAGE_SECTIONS];

export type SettingsSectionId = (typeof SETTINGS_SECTIONS)[number]["id"] | (typeof PAGE_SECTIONS)[number]["id"];

type Option = { value: string; label: string };

/** How the page draws a setting; "switch" and "modes" post through a hidden input (true/false, a list). */
export type SettingInput = "switch" | "number" | "amount" | "text" | "multiline" | "choice" | "modes" | "variant";

export type SettingDeclaration<T> = {
  section: SettingsSectionId;
  label: string;
  help: string;
  input: SettingInput;
  /** What the field accepts, in the docs' words ("1 to 20", "on or off"). */
  accepts: string;
  /** As the form shows it for a new shop (the column's default). */
  default: string;
  unit?: string;
  options?: readonly Option[];
  /** One parser for the posted string. */
  parse: z.ZodType<T, z.ZodTypeDef, unknown>;
  /** The stored value as the form shows it, where plain String() is not it. */
  show?: (shop: Pick<Shop, ShownFrom>) => string;
};

/** The columns a `show` reads (beside its own, a type beside an amount). */
type ShownFrom =
  | "allowedCountries"
  | "riskFailureTags"
  | "deliveryReminder"
  | "deliveryRecovery"
  | "paymentModes"
  | "codFeeVariantId"
  | "codMethodNames"
  | "quietHoursStart"
  | "quietHoursEnd"
  | "locale"
  | "prepaidDiscountType"
  | "prepaidDiscountValue"
  | "codFeeType"
  | "codFeeValue"
  | "prepaidOfferIncentiveType"
  | "prepaidOfferIncentiveValue";

type Common = Pick<SettingDeclaration<unknown>, "section" | "label" | "help">;

const switchOf = (d: Common & { default: boolean }): SettingDeclaration<boolean> => ({ ...d, input: "switch", accepts: "on or off", default: String(d.default), parse: onOff });

const whole = (d: Common & { min: number; max: number; default: number; unit?: string }): SettingDeclaration<number> => ({
  ...d,
  input: "number",
  accepts: `${d.min.toLocaleString("en")} to ${d.max.toLocaleString("en")}`,
  default: String(d.default),
  parse: wholeNumber(d.min, d.max),
});

function oneOf<const T extends readonly [Option, ...Option[]]>(d: Common & { options: T; default: T[number]["value"]; message: string }): SettingDeclaration<T[number]["value"]> {
  const values = d.options.map((o) => o.value) as [T[number]["value"], ...T[number]["value"][]];
  return { ...d, input: "choice", accepts: d.options.map((o) => `\`${o.value}\``).join(", "), parse: choice(values, d.message) };
}

/** An amount or a percentage (its section checks it against its type); empty: none. */
const amountOf = (d: Common & Pick<SettingDeclaration<unknown>, "show"> & { decimals: number; max?: number; required?: boolean; default: string; accepts: string }): SettingDeclaration<number | null> => ({
  ...d,
  input: "amount",
  parse: amount(d.decimals, d.max ?? L.depositFixedMax, d.required),
});

const clockTime = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
const optional = (v: number | string | boolean | null | undefined) => (v == null ? "" : String(v));
/** An amount beside its type: empty while the type is "none". */
const besideType = (type: string, value: number) => (type === "none" ? "" : String(value));

const ADJUSTMENT_TYPES = [
  { value: "none", label: "Not shown" },
  { value: "percentage", label: "A percentage" },
  { value: "fixed", label: "A fixed amount" },
] as const;

const rung = (label: string, help: string): SettingDeclaration<number | null> => ({
  section: "confirmation",
  label,
  help: `${help}: minutes after the order; empty: skip this step (0 to ${L.ladderMinutes.max.toLocaleString("en")}).`,
  input: "number",
  unit: "min",
  accepts: `0 to ${L.ladderMinutes.max.toLocaleString("en")} minutes, empty = skip`,
  default: "",
  parse: rungMinutes,
});

const BAND_OPTIONS = [
  { value: "none", label: "Nothing" },
  { value: "confirm", label: "Confirm after purchase" },
  { value: "price", label: "Price: ask a deposit" },
  { value: "refuse", label: "Refuse cash on delivery" },
] as const satisfies readonly { value: (typeof BAND_ACTIONS)[number]; label: string }[];
const BAND_ACCEPTS = BAND_ACTIONS.map((a) => `\`${a}\``).join(", ");
/** A form without the bands' actions leaves them as they are. */
const bandAction = (band: string) => choice(BAND_ACTIONS, `Choose what the ${band} band does.`).optional();
const VELOCITY_ACCEPTS = "1 to 10,000 in 24 hours; empty = no limit";
const ON_OFF = [
  { value: "on", label: "On" },
  { value: "off", label: "Off" },
] as const;

export const SETTINGS = {
  // One-time codes
  otpEnabled: switchOf({ section: "codes", label: "Verify phone numbers with a code", help: "When off, shoppers go straight to choosing how to pay, without a code.", default: true }),
  returningSkipDays: whole({ section: "codes", label: "Skip the code for returning customers", help: "A number that was verified in this many days, on the same browser, does not need a new code. 0 always asks for one.", ...L.returningSkipDays, default: 90, unit: "days" }),
  allowedCountries: {
    section: "codes",
    label: "Countries allowed",
    help: "Type a country's name to limit codes to it: only numbers from the countries chosen get a code. None allows every country.",
    input: "text",
    accepts: "country names (English, or short forms such as UAE) or ISO two-letter codes, separated by commas; empty = every country",
    default: "",
    parse: countryList,
    show: (shop) => parseCountryList(shop.allowedCountries).join(", "),
  },
  smsChannel: oneOf({
    section: "codes",
    label: "Send codes by",
    help: "WhatsApp falls back to SMS when WhatsApp fails.",
    options: [
      { value: "sms", label: "SMS" },
      { value: "whatsapp", label: "WhatsApp (SMS when WhatsApp fails)" },
    ],
    default: "sms",
    message: "Choose SMS or WhatsApp.",
  }),
  smsTemplate: {
    section: "codes",
    label: "Message",
    help: "Your own text for the code message. It must contain {code}; {shop} becomes your store's name and {minutes} the code's lifetime. Empty sends our message in the shopper's language.",
    input: "multiline",
    accepts: `text containing {code}, at most ${L.smsTemplateMaxLength} characters; empty = the built-in message`,
    default: "",
    parse: smsTemplate,
  },
  otpSendLimit: whole({ section: "codes", label: "Codes per number", help: "How many codes one phone number can receive in the period beside.", ...L.otpSendLimit, default: 3, unit: "codes" }),
  otpSendWindowSeconds: whole({ section: "codes", label: "Per how many seconds", help: "The period of that limit.", ...L.otpSendWindowSeconds, default: 600, unit: "seconds" }),
  otpTtlSeconds: whole({ section: "codes", label: "Code lifetime", help: "How long a code can be used.", ...L.otpTtlSeconds, default: 600, unit: "seconds" }),
  otpResendCooldownSeconds: whole({ section: "codes", label: "Wait before a new code", help: "How long a shopper waits before asking for another code.", ...L.otpResendCooldownSeconds, default: 30, unit: "seconds" }),
  otpMaxAttempts: whole({ section: "codes", label: "Attempts per code", help: "Wrong guesses allowed before the shopper needs a new code.", ...L.otpMaxAttempts, default: 5, unit: "tries" }),
  dailySendCap: whole({ section: "codes", label: "Codes per day for the store", help: "The most codes your store sends in a day (UTC), a guard against abuse.", ...L.dailySendCap, default: 1000, unit: "codes" }),

  // Checkout
  paymentModes: {
    section: "checkout",
    label: "Ways to pay offered",
    help: "At least one: cash on delivery, pay now online (prepaid), or a deposit now and the rest on delivery (partial).",
    input: "modes",
    accepts: "`cod`, `prepaid`, `partial`, at least one, comma-separated",
    default: "cod,prepaid,partial",
    parse: paymentModes,
    show: (shop) => chosenModes(shop.paymentModes).join(","),
  },
  discountCodeCod: { section: "checkout", label: "Cash on delivery", help: "Discount code applied when the shopper pays in cash on delivery. Empty: none.", input: "text", accepts: `a code, at most ${L.discountCodeMaxLength} characters; empty = none`, default: "", parse: optionalText(L.discountCodeMaxLength, "a discount code") },
  discountCodePrepaid: { section: "checkout", label: "Prepaid", help: "Discount code applied when the shopper pays everything online, e.g. an incentive to prepay. Empty: none.", input: "text", accepts: `a code, at most ${L.discountCodeMaxLength} characters; empty = none`, default: "", parse: optionalText(L.discountCodeMaxLength, "a discount code") },
  discountCodePartial: { section: "checkout", label: "Partial payment", help: "Discount code applied when the shopper pays a deposit now and the rest on delivery. Empty: none.", input: "text", accepts: `a code, at most ${L.discountCodeMaxLength} characters; empty = none`, default: "", parse: optionalText(L.discountCodeMaxLength, "a discount code") },
  prepaidDiscountType: oneOf({ section: "checkout", label: "What the prepaid code saves", help: "Shoppers see the saving beside Pay now. Match your prepaid code's value.", options: ADJUSTMENT_TYPES, default: "none", message: "Choose no saving, a percentage or a fixed amount." }),
  prepaidDiscountValue: amountOf({
    section: "checkout",
    label: "Saving",
    help: "The saving shown beside Pay now.",
    decimals: 2,
    accepts: `above 0: a percentage up to ${L.prepaidDiscountPercentageMax} or an amount; empty with no saving`,
    default: "",
    show: (shop) => besideType(shop.prepaidDiscountType, shop.prepaidDiscountValue),
  }),
  codFeeType: oneOf({
    section: "checkout",
    label: "Cash-on-delivery fee",
    help: "A fee added to cash-on-delivery carts.",
    options: [
      { value: "none", label: "No fee" },
      { value: "fixed", label: "Fixed amount" },
      { value: "percentage", label: "Percentage of the items" },
    ],
    default: "none",
    message: "Choose no fee, a percentage or a fixed amount.",
  }),
  codFeeValue: amountOf({ section: "checkout", label: "Fee", help: "The fee, in your store's currency or as a percentage of the items.", decimals: 2, accepts: `above 0: a percentage up to ${L.codFeePercentageMax} or an amount; empty with no fee`, default: "", show: (shop) => besideType(shop.codFeeType, shop.codFeeValue) }),
  codFeeVariantId: {
    section: "checkout",
    label: "Fee product",
    help: "The fee is added to cash-on-delivery carts as this product, so it works on every plan and shows in the order. Create a product such as 'Cash on delivery fee' priced at the fixed fee (or at 1.00 for a percentage fee: the app sets the quantity that makes up the fee), not shipped.",
    input: "variant",
    accepts: "a variant's number or its gid://shopify/ProductVariant/… ID; required with a fee",
    default: "",
    parse: variantId,
    show: (shop) => shop.codFeeVariantId?.replace(/^gid:\/\/shopify\/ProductVariant\//, "") ?? "",
  },
  depositType: oneOf({
    section: "checkout",
    label: "Deposit type",
    help: "How the deposit of a partial payment is counted.",
    options: [
      { value: "percentage", label: "Percentage of the order" },
      { value: "fixed", label: "Fixed amount" },
    ],
    default: "percentage",
    message: "Choose a percentage or a fixed amount.",
  }),
  depositValue: amountOf({
    section: "checkout",
    label: "Deposit",
    help: "Paid online; the rest is paid on delivery.",
    decimals: 2,
    accepts: `a percentage from ${L.depositPercentage.min} to ${L.depositPercentage.max}, or an amount above 0`,
    required: true,
    default: "20",
  }),

  // Confirmation messages
  whatsappConfirmation: oneOf({
    section: "confirmation",
    label: "Confirm COD orders on WhatsApp",
    help: "An unverified COD order gets a WhatsApp message with its summary and buttons; Confirm works like confirming by code (tags, holds released). With every COD order, verified ones are asked too (no hold, no SMS).",
    options: [
      { value: "off", label: "Off: confirmation by SMS link" },
      { value: "unverified", label: "Unverified COD orders" },
      { value: "all", label: "Every COD order" },
    ],
    default: "off",
    message: "Choose off, unverified orders or every COD order.",
  }),
  whatsappReplyMinutes: whole({ section: "confirmation", label: "Wait for a WhatsApp answer", help: "With no answer by then, the shopper gets the SMS link as before, then the deadline applies.", ...L.whatsappReplyMinutes, default: 60, unit: "minutes" }),
  cancelOnWhatsappCancel: switchOf({ section: "confirmation", label: "Cancel the order when the shopper presses Cancel", help: "Off: the order is tagged cod-cancelled-by-shopper and you decide. On: it is cancelled too, with the customer as the reason.", default: false }),
  otpChannelChoice: switchOf({ section: "confirmation", label: "Let the shopper choose SMS or WhatsApp for the code", help: "The popup offers both channels for the code and says where it went. Off: codes go by the channel of the One-time codes page.", default: false }),
  linksOnWhatsapp: switchOf({ section: "confirmation", label: "Send links on WhatsApp", help: "Links (order confirmation, address correction) go on WhatsApp first, SMS if WhatsApp fails. In India carriers drop SMS whose links you have not whitelisted (TRAI, since October 2024).", default: false }),
  linkDomain: {
    section: "confirmation",
    label: "Link domain (India: whitelisted with your DLT entity)",
    help: "The domain in links sent by SMS: one of your store's own domains. In India, register it (and the DLT template with a #url# variable) with your DLT entity, or carriers silently drop the SMS.",
    input: "text",
    accepts: "a bare host name such as shop.example.in; empty = the store's domain",
    default: "",
    parse: linkDomain,
  },
  ladderWhatsappMinutes: rung("WhatsApp question", "The question with Confirm, Cancel and Change address buttons"),
  ladderSmsMinutes: rung("SMS link", "The link to the confirmation page"),
  ladderVoiceMinutes: rung("Voice call", 'A call that says the order number and the amount due, then "press 1 to confirm, 2 to cancel, 3 to change the address". No answer, voicemail or busy: the next step comes at once'),
  ladderPersonMinutes: rung("Needs a person", 'The order joins the "Needs a person" list for your team'),
  quietHoursStart: { section: "confirmation", label: "Quiet hours from", help: "No text or call from this time, in your store's time zone.", input: "text", accepts: "HH:MM; empty = no quiet hours (both or neither)", default: "", parse: timeOfDay, show: (shop) => (shop.quietHoursStart === null ? "" : clockTime(shop.quietHoursStart)) },
  quietHoursEnd: { section: "confirmation", label: "Quiet hours until", help: "Until this time: a step due at night waits for it. Empty: no quiet hours.", input: "text", accepts: "HH:MM; empty = no quiet hours (both or neither)", default: "", parse: timeOfDay, show: (shop) => (shop.quietHoursEnd === null ? "" : clockTime(shop.quietHoursEnd)) },

  // Enforcement
  enforceAtCheckout: switchOf({ section: "enforcement", label: "Hide cash on delivery at checkout unless verified", help: "Shopify's checkout offers your cash-on-delivery methods only to shoppers who verified their phone (or returning verified customers).", default: true }),
  keepCodHiddenWhenPaused: switchOf({ section: "enforcement", label: "Keep cash on delivery hidden while verification is paused", help: "Verification pauses when this month's verifications are used up, when no plan is active, or when codes are off. Off: checkout then offers cash on delivery to everyone, unverified. On: checkout keeps hiding it, so nobody can pay on delivery until verification resumes.", default: false }),
  capFallback: oneOf({
    section: "enforcement",
    label: "When the day's codes are used up",
    help: "When the store's codes per day are used up (for example by someone spending them), no more codes are sent that day. Confirmed after purchase: shoppers still pay cash on delivery and the order waits for their confirmation like any unverified order. Prepaid only: cash on delivery stays hidden until midnight.",
    options: [
      { value: "confirm_after_purchase", label: "Cash on delivery, confirmed after purchase" },
      { value: "prepaid_only", label: "Prepaid only" },
    ],
    default: "confirm_after_purchase",
    message: "Choose cash on delivery confirmed after purchase, or prepaid only.",
  }),
  usageChargesEnabled: switchOf({ section: "enforcement", label: "Keep verifying past the monthly allowance, charged per verification", help: "On a paid plan: past the plan's verifications for the month, each further verification is a usage charge on your Shopify invoice (the price per verification and the monthly cap are on the Plans page; you approved the cap with the plan). At the cap, verification pauses as above.", default: false }),
  codMethodNames: {
    section: "enforcement",
    label: "Cash-on-delivery payment methods",
    help: `The names of your cash-on-delivery payment methods exactly as checkout shows them, one a line (up to ${L.codMethodNamesMax}).`,
    input: "multiline",
    accepts: `up to ${L.codMethodNamesMax} names, one a line, each up to ${L.codMethodNameMaxLength} characters; empty = the default`,
    default: "Cash on Delivery (COD)",
    parse: codMethodNames,
    show: (shop) => codMethodNameList(shop.codMethodNames).join("\n"),
  },
  holdUnverifiedCod: switchOf({ section: "enforcement", label: "Hold fulfillment until the shopper confirms", help: "Puts an unverified order's fulfillment on hold until the shopper confirms, so it is not shipped by mistake.", default: false }),
  confirmDeadlineHours: whole({ section: "enforcement", label: "Time to confirm", help: "How long the shopper has to confirm an unverified order.", ...L.confirmDeadlineHours, default: 24, unit: "hours" }),
  cancelUnconfirmed: switchOf({ section: "enforcement", label: "Cancel orders not confirmed in time", help: "Cancels an order that was not confirmed in time (restocked, the shopper notified).", default: false }),

  // Pay now after the order
  prepaidOffer: switchOf({ section: "pay-now", label: "Offer to pay now after a COD order", help: "Sent once per order, before it ships. Where Shopify gives the order no payment page, Shopify's own invoice email is sent instead (orders with an email, in your store's currency).", default: false }),
  prepaidOfferIncentiveType: oneOf({
    section: "pay-now",
    label: "Reward for paying now",
    help: "Given only once the order is paid online: refunded against that payment, once. A shopper who does not pay gets nothing.",
    options: [
      { value: "none", label: "No reward" },
      { value: "fixed", label: "A fixed amount back" },
      { value: "percentage", label: "A percentage back" },
    ],
    default: "none",
    message: "Choose no reward, a fixed amount or a percentage.",
  }),
  prepaidOfferIncentiveValue: amountOf({ section: "pay-now", label: "Reward", help: "A fixed amount, or a percentage of the amount paid.", decimals: 2, accepts: `above 0: an amount, or a percentage up to ${L.prepaidOfferPercentageMax}; empty with no reward`, default: "", show: (shop) => besideType(shop.prepaidOfferIncentiveType, shop.prepaidOfferIncentiveValue) }),
  prepaidOfferIncentiveCap: amountOf({ section: "pay-now", label: "Most a shopper gets back", help: "For a percentage: the most one order gets back. Empty: no cap.", decimals: 2, accepts: "an amount; empty = no cap", default: "" }),

  // Order tags and addresses
  tagOrders: switchOf({ section: "orders", label: "Tag orders", help: "When off, orders are left untagged.", default: true }),
  tagVerified: { section: "orders", label: "Verified tag", help: "Cash-on-delivery orders whose phone was verified.", input: "text", accepts: `not empty, no commas, at most ${L.tagMaxLength} characters`, default: "cod-verified", parse: tag(L.tagMaxLength, "a tag") },
  tagUnverified: { section: "orders", label: "Unverified tag", help: "Cash-on-delivery orders whose phone was not verified.", input: "text", accepts: `not empty, no commas, at most ${L.tagMaxLength} characters`, default: "cod-unverified", parse: tag(L.tagMaxLength, "a tag") },
  tagModePrefix: { section: "orders", label: "Payment mode tag prefix", help: "Followed by cod, prepaid or partial, e.g. payment-mode:cod. Tags cannot contain commas.", input: "text", accepts: `not empty, no commas, at most ${L.tagModePrefixMaxLength} characters (the prefix plus \`prepaid\` fits Shopify's 40)`, default: "payment-mode:", parse: tag(L.tagModePrefixMaxLength, "a prefix") },
  autoAddressCorrection: switchOf({ section: "orders", label: "Ask automatically", help: "Text the address-correction link as soon as a new order arrives with an address that looks incomplete (no house number, a wrong postal code).", default: false }),
  addressCorrectionTtlHours: whole({ section: "orders", label: "Link valid for", help: "How long an address-correction link works (a week at most).", ...L.addressCorrectionTtlHours, default: 72, unit: "hours" }),
  digipinTarget: oneOf({
    section: "orders",
    label: "Where the shopper's DIGIPIN goes",
    help: "India: a shopper may share where they stand, as a DIGIPIN (India Post's code for a 4 × 4 m spot). Shipping apps read the metafields; the second line is printed on most labels (after dispatch the note stands in for it).",
    options: [
      { value: "metafield", label: "The order's metafields (cod_verify.digipin and cod_verify.digipin_map)" },
      { value: "note", label: "A line of the order's note, with a map link" },
      { value: "address2", label: "The shipping address's second line" },
    ],
    default: "metafield",
    message: "Choose the order's metafields, its note or the address's second line.",
  }),

  // Costs
  codFailureCost: amountOf({
    section: "costs",
    label: "Cost of one failed COD parcel",
    help: "Shipping out and back, packing and handling, in your store's currency. Asked only here: Deliveries → Analytics (money lost), the holdout experiment's money saved and the Risk page's deposits use it.",
    decimals: 2,
    accepts: "an amount up to two decimals; empty = not set",
    default: "",
  }),
  messageCost: amountOf({
    section: "costs",
    label: "Cost of one message to you",
    help: "Messages are included in your plan; fill this in to take them off the money saved anyway. Empty: not counted.",
    decimals: 4,
    accepts: "an amount up to four decimals (texts cost fractions of a cent); empty = not set",
    default: "",
  }),

  // Language and privacy
  locale: {
    ...oneOf({
      section: "store",
      label: "Language",
      help: "The language of texts and the address form when the shopper's own is not known. A new install starts with your store's language, else English.",
      options: LANGUAGES.map((l) => ({ value: l.code, label: l.label })) as [Option, ...Option[]],
      default: "en",
      message: "Choose one of the listed languages.",
    }),
    parse: choice(LOCALES, "Choose one of the listed languages."),
    show: (shop: Pick<Shop, "locale">) => pickLocale(shop.locale),
  },
  recordRetentionDays: whole({ section: "store", label: "Keep message and order records for", help: "Texts sent, address corrections, confirmations and the Orders page's records older than this are deleted; the other periods are fixed.", ...L.recordRetentionDays, default: 365, unit: "days" }),
  // Risk rules (/app/risk)
  riskMediumThreshold: { section: "risk", label: "Medium from score", help: "From this score (0 to 100) an order is in the medium band.", input: "number", accepts: "1 to 100, below the high band's", default: "20", parse: threshold },
  riskHighThreshold: { section: "risk", label: "High from score", help: "From this score an order is in the high band.", input: "number", accepts: "1 to 100, above the medium band's", default: "60", parse: threshold },
  riskMediumAction: { section: "risk", label: "Medium band", help: "What an order of the medium band gets.", input: "choice", options: BAND_OPTIONS, accepts: BAND_ACCEPTS, default: "none", parse: bandAction("medium") },
  riskHighAction: { section: "risk", label: "High band", help: "What an order of the high band gets.", input: "choice", options: BAND_OPTIONS, accepts: BAND_ACCEPTS, default: "refuse", parse: bandAction("high") },
  riskDepositMin: { section: "risk", label: "Smallest deposit", help: "The least a priced deposit asks. Empty: no floor.", input: "amount", accepts: "an amount above 0, up to two decimals; empty = no floor", default: "", parse: positiveAmount().optional() },
  riskDepositMax: { section: "risk", label: "Largest deposit", help: "The most a priced deposit asks, not below the smallest. Empty: no ceiling.", input: "amount", accepts: "an amount above 0, up to two decimals, not below the smallest; empty = no ceiling", default: "", parse: positiveAmount().optional() },
  riskDeniedPostalCodes: { section: "risk", label: "Postal codes without cash on delivery", help: "One a line; end with * for every code that starts so (4000*).", input: "multiline", accepts: `postal codes, one a line, up to ${RISK_LIST_MAX.toLocaleString("en")}`, default: "", parse: postalCodeList },
  riskPrepaidPhones: { section: "risk", label: "Phone numbers never offered cash on delivery", help: "One a line, with the country code (+91 98123 45678). They can still pay online, or part now and the rest on delivery where you offer it.", input: "multiline", accepts: `phone numbers with their country code, one a line, up to ${RISK_LIST_MAX.toLocaleString("en")}`, default: "", parse: phoneList },
  riskPrepaidSources: { section: "risk", label: "Traffic sources never offered cash on delivery", help: "One a line: the utm_source of your ads' links (facebook), or a source and its medium (facebook/cpc); a site that links to you by its name (instagram.com). Shoppers who landed from it pay online. A shopper can arrive without the tag, so this steers a campaign; it does not stop fraud.", input: "multiline", accepts: "sources, one a line, up to 200", default: "", parse: sourceList },
  riskCodValueCap: { section: "risk", label: "Cash on delivery up to", help: "Orders above this value are not offered cash on delivery. Empty: no cap.", input: "amount", accepts: "an amount above 0, up to two decimals; empty = no cap", default: "", parse: positiveAmount("Enter an amount above 0 (up to two decimals), or leave it empty for no cap.") },
  riskPhoneCodeLimit: { section: "risk", label: "Codes per phone", help: "Codes asked for one phone number, before the shopper proves it (anyone can ask codes for any number).", input: "number", accepts: VELOCITY_ACCEPTS, default: "", parse: velocityLimit },
  riskIpAttemptLimit: { section: "risk", label: "Attempts per network", help: "Code requests and checkouts from one IP address.", input: "number", accepts: VELOCITY_ACCEPTS, default: "", parse: velocityLimit },
  riskPhoneOrderLimit: { section: "risk", label: "COD orders per phone", help: "Cash-on-delivery orders of one phone number.", input: "number", accepts: VELOCITY_ACCEPTS, default: "", parse: velocityLimit },
  riskIpOrderLimit: { section: "risk", label: "COD orders per network", help: "Cash-on-delivery orders from one IP address, counted on the order; orders without an IP (draft, POS) are not counted.", input: "number", accepts: VELOCITY_ACCEPTS, default: "", parse: velocityLimit },
  riskFailureTags: {
    section: "risk",
    label: "Tags that mean a COD order failed",
    help: "One a line, any case (RTO, returned, refused).",
    input: "multiline",
    accepts: "up to 50 tags of up to 40 characters, one a line",
    default: "RTO\nreturned\nrefused",
    parse: failureTags,
    // One a line, as the field asks, whatever separators the stored list has (the column's default is "RTO, returned, refused").
    show: (shop) => shop.riskFailureTags.split(/[\n,;]+/).map((t) => t.trim()).filter(Boolean).join("\n"),
  },

  // Deliveries (/app/deliveries)
  deliveryReminder: { section: "deliveries", label: "Delivery-day reminder", help: "When a COD shipment is out for delivery, the shopper gets one text with the amount to keep ready.", input: "choice", options: ON_OFF, accepts: "`on`, `off`", default: "on", parse: onOffWord, show: (shop) => (shop.deliveryReminder ? "on" : "off") },
  deliveryRecovery: { section: "deliveries", label: "Failed-delivery recovery", help: "When the carrier reports a failed attempt, the shopper is asked what to do next.", input: "choice", options: ON_OFF, accepts: "`on`, `off`", default: "on", parse: onOffWord, show: (shop) => (shop.deliveryRecovery ? "on" : "off") },
  deliveryFailureTags: { section: "deliveries", label: "Your courier app's tags for a failed attempt", help: "One a line, any case (NDR, undelivered).", input: "multiline", accepts: "tags, one a line, up to 2,000 characters", default: "NDR", parse: courierTags },
  storeContact: { section: "deliveries", label: "Contact in the reminder", help: "A phone number or email address; empty: your store's domain.", input: "text", accepts: "a phone number or an email address, up to 80 characters; empty = the store's domain", default: "", parse: storeContact },
} satisfies Record<string, SettingDeclaration<unknown>>;

export type SettingsField = keyof typeof SETTINGS;

/** Every setting, in the order the pages show them. */
export const SETTINGS_FIELDS = Object.keys(SETTINGS) as SettingsField[];

/** A section's settings, in the page's order. */
export const sectionFields = (section: SettingsSectionId): SettingsField[] => SETTINGS_FIELDS.filter((f) => SETTINGS[f].section === section);

/** A section of the Settings pages (/app/settings/<id>); the Risk page's and Deliveries' are not. */
export const isSettingsSection = (id: string | undefined): id is SettingsSectionId => SETTINGS_SECTIONS.some((s) => s.id === id);

export const sectionTitle = (id: SettingsSectionId) => SECTIONS.find((s) => s.id === id)?.title ?? id;

/** The stored value as its form shows it. */
export function shownValue(field: SettingsField, shop: Pick<Shop, SettingsField>): string {
  const declared: SettingDeclaration<unknown> = SETTINGS[field];
  if (declared.show) return declared.show(shop);
  const value = shop[field];
  // A value the choice does not offer (an older row) shows as the default, as it behaves.
  if (declared.options) return declared.options.some((o) => o.value === value) ? String(value) : declared.default;
  return optional(value as number | string | boolean | null);
}
