import { PAGE_SECTIONS, SECTIONS, SETTINGS, sectionFields } from "./registry";
import { DEFAULT_FORM_VALUES, parseSection, parseSettings, SETTINGS_FIELDS, settingsFormValues, type SettingsFormValues } from "./settings";

/** The form as the page posts it for a shop with every default. */
const DEFAULTS: SettingsFormValues = {
  otpEnabled: "true",
  returningSkipDays: "90",
  otpSendLimit: "3",
  otpSendWindowSeconds: "600",
  otpTtlSeconds: "600",
  otpResendCooldownSeconds: "30",
  otpMaxAttempts: "5",
  dailySendCap: "1000",
  allowedCountries: "",
  smsChannel: "sms",
  smsTemplate: "",
  locale: "en",
  discountCodeCod: "",
  discountCodePrepaid: "",
  discountCodePartial: "",
  prepaidDiscountType: "none",
  prepaidDiscountValue: "",
  paymentModes: "cod,prepaid,partial",
  depositType: "percentage",
  depositValue: "20",
  codFeeType: "none",
  codFeeValue: "",
  codFeeVariantId: "",
  tagOrders: "true",
  tagVerified: "cod-verified",
  tagUnverified: "cod-unverified",
  tagModePrefix: "payment-mode:",
  addressCorrectionTtlHours: "72",
  autoAddressCorrection: "false",
  digipinTarget: "metafield",
  enforceAtCheckout: "true",
  keepCodHiddenWhenPaused: "false",
  capFallback: "confirm_after_purchase",
  usageChargesEnabled: "false",
  codMethodNames: "Cash on Delivery (COD)",
  holdUnverifiedCod: "false",
  confirmDeadlineHours: "24",
  cancelUnconfirmed: "false",
  whatsappConfirmation: "off",
  whatsappReplyMinutes: "60",
  cancelOnWhatsappCancel: "false",
  otpChannelChoice: "false",
  linksOnWhatsapp: "false",
  linkDomain: "",
  ladderWhatsappMinutes: "",
  ladderSmsMinutes: "",
  ladderVoiceMinutes: "",
  ladderPersonMinutes: "",
  quietHoursStart: "",
  quietHoursEnd: "",
  recordRetentionDays: "365",
  prepaidOffer: "false",
  prepaidOfferIncentiveType: "none",
  prepaidOfferIncentiveValue: "",
  prepaidOfferIncentiveCap: "",
  codFailureCost: "",
  messageCost: "",
  riskMediumThreshold: "20",
  riskHighThreshold: "60",
  riskMediumAction: "none",
  riskHighAction: "refuse",
  riskDepositMin: "",
  riskDepositMax: "",
  riskDeniedPostalCodes: "",
  riskPrepaidPhones: "",
  riskPrepaidSources: "",
  riskCodValueCap: "",
  riskPhoneCodeLimit: "",
  riskIpAttemptLimit: "",
  riskPhoneOrderLimit: "",
  riskIpOrderLimit: "",
  riskFailureTags: "RTO\nreturned\nrefused",
  deliveryReminder: "on",
  deliveryRecovery: "on",
  deliveryFailureTags: "NDR",
  storeContact: "",
};

function errorsOf(changes: Partial<Record<string, unknown>>) {
  const result = parseSettings({ ...DEFAULTS, ...changes });
  return result.ok ? {} : result.errors;
}

function dataOf(changes: Partial<Record<string, unknown>>) {
  const result = parseSettings({ ...DEFAULTS, ...changes });
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.errors)}`);
  return result.data;
}

describe("the settings schema: ways to pay, the COD fee and the prepaid saving", () => {
  it("keeps the modes the merchant ticked, in a fixed order, and refuses none or unknown ones", () => {
    expect(dataOf({ paymentModes: "partial, cod" }).paymentModes).toBe("cod,partial");
    expect(errorsOf({ paymentModes: "" })).toEqual({ paymentModes: expect.stringMatching(/at least one/) });
    expect(errorsOf({ paymentModes: "cod,bitcoin" })).toEqual({ paymentModes: expect.stringMatching(/at least one/) });
  });

  it("reads a fee with its variant (a number or a gid), and refuses a fee without one or out of bounds", () => {
    expect(dataOf({ codFeeType: "fixed", codFeeValue: "49", codFeeVariantId: "4400123" })).toMatchObject({
      codFeeType: "fixed",
      codFeeValue: 49,
      codFeeVariantId: "gid://shopify/ProductVariant/4400123",
    });
    expect(dataOf({ codFeeType: "percentage", codFeeValue: "2,5", codFeeVariantId: "gid://shopify/ProductVariant/9" })).toMatchObject({ codFeeValue: 2.5 });
    expect(errorsOf({ codFeeType: "fixed", codFeeValue: "49" })).toEqual({ codFeeVariantId: "A fee needs the product variant it is charged through." });
    expect(errorsOf({ codFeeType: "percentage", codFeeValue: "60", codFeeVariantId: "9" })).toEqual({ codFeeValue: expect.stringMatching(/up to 50/) });
    expect(errorsOf({ codFeeType: "fixed", codFeeValue: "0", codFeeVariantId: "9" })).toEqual({ codFeeValue: expect.any(String) });
    expect(errorsOf({ codFeeVariantId: "gid://shopify/Product/9" })).toEqual({ codFeeVariantId: expect.any(String) });
    expect(dataOf({ codFeeType: "none", codFeeValue: "" })).toMatchObject({ codFeeType: "none", codFeeValue: 0 });
  });

  it("reads the prepaid saving as a percentage or an amount, and shows the form back as it was stored", () => {
    expect(dataOf({ prepaidDiscountType: "percentage", prepaidDiscountValue: "5" })).toMatchObject({ prepaidDiscountType: "percentage", prepaidDiscountValue: 5 });
    expect(errorsOf({ prepaidDiscountType: "cashback", prepaidDiscountValue: "5" })).toEqual({ prepaidDiscountType: expect.any(String) });
    const form = settingsFormValues({
      ...dataOf({}),
      codFeeType: "fixed",
      codFeeValue: 49,
      codFeeVariantId: "gid://shopify/ProductVariant/4400123",
      prepaidDiscountType: "percentage",
      prepaidDiscountValue: 5,
      paymentModes: "prepaid,cod",
    });
    expect(form).toMatchObject({ codFeeType: "fixed", codFeeValue: "49", codFeeVariantId: "4400123", prepaidDiscountValue: "5", paymentModes: "cod,prepaid" });
  });
});

describe("the settings registry", () => {
  it("declares each setting once, in a section that exists, with a label, help and what it accepts; its default is what a new shop's form shows", () => {
    expect(DEFAULT_FORM_VALUES).toEqual(DEFAULTS);
    for (const field of SETTINGS_FIELDS) {
      const declared = SETTINGS[field];
      expect(SECTIONS.map((s) => s.id)).toContain(declared.section);
      expect(declared.label.length && declared.help.length && declared.accepts.length).toBeGreaterThan(0);
    }
    expect(new Set(SETTINGS_FIELDS.map((f) => SETTINGS[f].label)).size).toBe(SETTINGS_FIELDS.length);
  });

  it("reads the Risk page's and Deliveries' sections with the same parser: each field's error, the rules across fields, only their columns", () => {
    // Each field's own error first (another section's field unread); the rules across fields once every field reads.
    const risk = parseSection("risk", { ...DEFAULTS, riskMediumThreshold: "0", riskPrepaidPhones: "call me", otpTtlSeconds: "1" });
    expect(risk.ok ? null : risk.errors).toEqual({ riskMediumThreshold: "Enter a score from 1 to 100.", riskPrepaidPhones: "Not phone numbers in international form (+ and country code): call me." });
    const across = parseSection("risk", { ...DEFAULTS, riskMediumThreshold: "60", riskHighThreshold: "40", riskDepositMin: "500", riskDepositMax: "100" });
    expect(across.ok ? null : across.errors).toEqual({ riskHighThreshold: "The high band must start above the medium band.", riskDepositMax: "The largest deposit must not be below the smallest." });
    const saved = parseSection("deliveries", { ...DEFAULTS, deliveryReminder: "off", deliveryFailureTags: "NDR, Undelivered\nndr", storeContact: " +91 98123 45678 " });
    expect(saved.ok && saved.data).toEqual({ deliveryReminder: false, deliveryRecovery: true, deliveryFailureTags: "ndr\nundelivered", storeContact: "+91 98123 45678" });
    const refused = parseSection("deliveries", { ...DEFAULTS, deliveryRecovery: "true", storeContact: "https://x.example" });
    expect(refused.ok ? null : refused.errors).toEqual({ deliveryRecovery: "Choose on or off.", storeContact: "Enter a phone number or an email address." });
    expect(PAGE_SECTIONS.map((s) => sectionFields(s.id).length)).toEqual([15, 4]);
  });

  it("parses a section's fields only: another section's field, even wrong, is neither read nor written", () => {
    const checkout = parseSection("checkout", { ...DEFAULTS, otpTtlSeconds: "nonsense", depositValue: "30" });
    expect(checkout.ok && Object.keys(checkout.data).sort()).toEqual([...sectionFields("checkout")].sort());
    expect(checkout.ok && checkout.data.depositValue).toBe(30);
    const codes = parseSection("codes", { ...DEFAULTS, otpTtlSeconds: "nonsense", depositValue: "0" });
    expect(!codes.ok && Object.keys(codes.errors)).toEqual(["otpTtlSeconds"]);
    expect(!codes.ok && Object.keys(codes.values).sort()).toEqual([...sectionFields("codes")].sort());
  });

  it("reads the failed parcel's cost to two decimals and a message's to four, each saved value read back unchanged", () => {
    const costs = parseSection("costs", { codFailureCost: "180,50", messageCost: "0.0079" });
    expect(costs.ok && costs.data).toEqual({ codFailureCost: 180.5, messageCost: 0.0079 });
    const again = parseSection("costs", settingsFormValues({ ...dataOf({}), codFailureCost: 180.5, messageCost: 0.0079 }));
    expect(again.ok && again.data).toEqual({ codFailureCost: 180.5, messageCost: 0.0079 });
    const refused = parseSection("costs", { codFailureCost: "180.505", messageCost: "abc" });
    expect(!refused.ok && refused.errors).toEqual({
      codFailureCost: expect.stringMatching(/up to two decimals/),
      messageCost: expect.stringMatching(/up to four decimals/),
    });
  });
});

describe("the settings schema", () => {
  it("reads the defaults as the columns' defaults, and yields exactly the form's fields", () => {
    const data = dataOf({});
    expect(data).toEqual({
      otpEnabled: true,
      returningSkipDays: 90,
      otpSendLimit: 3,
      otpSendWindowSeconds: 600,
      otpTtlSeconds: 600,
      otpResendCooldownSeconds: 30,
      otpMaxAttempts: 5,
      dailySendCap: 1000,
      allowedCountries: "",
      smsChannel: "sms",
      smsTemplate: null,
      locale: "en",
      discountCodeCod: null,
      discountCodePrepaid: null,
      discountCodePartial: null,
      prepaidDiscountType: "none",
      prepaidDiscountValue: 0,
      paymentModes: "cod,prepaid,partial",
      depositType: "percentage",
      depositValue: 20,
      codFeeType: "none",
      codFeeValue: 0,
      codFeeVariantId: null,
      tagOrders: true,
      tagVerified: "cod-verified",
      tagUnverified: "cod-unverified",
      tagModePrefix: "payment-mode:",
      addressCorrectionTtlHours: 72,
      autoAddressCorrection: false,
      digipinTarget: "metafield",
      enforceAtCheckout: true,
      keepCodHiddenWhenPaused: false,
      capFallback: "confirm_after_purchase",
      usageChargesEnabled: false,
      codMethodNames: "Cash on Delivery (COD)",
      holdUnverifiedCod: false,
      confirmDeadlineHours: 24,
      cancelUnconfirmed: false,
      whatsappConfirmation: "off",
      whatsappReplyMinutes: 60,
      cancelOnWhatsappCancel: false,
      otpChannelChoice: false,
      linksOnWhatsapp: false,
      linkDomain: null,
      ladderWhatsappMinutes: null,
      ladderSmsMinutes: null,
      ladderVoiceMinutes: null,
      ladderPersonMinutes: null,
      quietHoursStart: null,
      quietHoursEnd: null,
      recordRetentionDays: 365,
      prepaidOffer: false,
      prepaidOfferIncentiveType: "none",
      prepaidOfferIncentiveValue: 0,
      prepaidOfferIncentiveCap: null,
      codFailureCost: null,
      messageCost: null,
      riskMediumThreshold: 20,
      riskHighThreshold: 60,
      riskMediumAction: "none",
      riskHighAction: "refuse",
      riskDepositMin: null,
      riskDepositMax: null,
      riskDeniedPostalCodes: "",
      riskPrepaidPhones: "",
      riskPrepaidSources: "",
      riskCodValueCap: null,
      riskPhoneCodeLimit: null,
      riskIpAttemptLimit: null,
      riskPhoneOrderLimit: null,
      riskIpOrderLimit: null,
      // The column's "RTO, returned, refused", as the field shows and saves it: one a line.
      riskFailureTags: "RTO\nreturned\nrefused",
      deliveryReminder: true,
      deliveryRecovery: true,
      deliveryFailureTags: "ndr",
      storeContact: null,
    });
    expect(Object.keys(data).sort()).toEqual([...SETTINGS_FIELDS].sort());
  });

  it("reads the pay-now reward: a percentage keeps its cap, a fixed amount drops it, and a bad value is refused", () => {
    expect(dataOf({ prepaidOffer: "true", prepaidOfferIncentiveType: "percentage", prepaidOfferIncentiveValue: "5", prepaidOfferIncentiveCap: "20" })).toMatchObject({
      prepaidOffer: true,
      prepaidOfferIncentiveType: "percentage",
      prepaidOfferIncentiveValue: 5,
      prepaidOfferIncentiveCap: 20,
    });
    expect(dataOf({ prepaidOfferIncentiveType: "fixed", prepaidOfferIncentiveValue: "30,50", prepaidOfferIncentiveCap: "20" })).toMatchObject({ prepaidOfferIncentiveValue: 30.5, prepaidOfferIncentiveCap: null });
    const refused = parseSettings({ ...DEFAULTS, prepaidOfferIncentiveType: "percentage", prepaidOfferIncentiveValue: "75" });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.errors.prepaidOfferIncentiveValue).toMatch(/up to 50/);
    const badCap = parseSettings({ ...DEFAULTS, prepaidOfferIncentiveType: "percentage", prepaidOfferIncentiveValue: "5", prepaidOfferIncentiveCap: "ten" });
    expect(!badCap.ok && badCap.errors.prepaidOfferIncentiveCap).toMatch(/Enter a number such as 120/);
  });

  it("drops every key that is not a setting", () => {
    const data = dataOf({ id: "x", domain: "evil.myshopify.com", subscriptionStatus: "active", uninstalledAt: "2020-01-01" });
    expect(data).not.toHaveProperty("domain");
    expect(data).not.toHaveProperty("subscriptionStatus");
    expect(data).not.toHaveProperty("id");
    expect(data).not.toHaveProperty("uninstalledAt");
    const section = parseSection("costs", { ...DEFAULTS, domain: "x", otpEnabled: "false" });
    expect(section.ok && section.data).toEqual({ codFailureCost: null, messageCost: null });
  });

  it.each([
    ["otpTtlSeconds", "60", 60],
    ["otpTtlSeconds", "3600", 3600],
    ["otpMaxAttempts", "1", 1],
    ["otpMaxAttempts", "10", 10],
    ["otpResendCooldownSeconds", "0", 0],
    ["otpResendCooldownSeconds", "600", 600],
    ["returningSkipDays", "0", 0],
    ["otpSendLimit", " 4 ", 4],
    ["dailySendCap", "1", 1],
    ["addressCorrectionTtlHours", "168", 168],
    ["recordRetentionDays", "30", 30],
  ])("accepts %s = %j at its bounds", (field, value, expected) => {
    expect(dataOf({ [field]: value })[field as keyof ReturnType<typeof dataOf>]).toBe(expected);
  });

  it.each([
    ["otpTtlSeconds", "59"],
    ["otpTtlSeconds", "3601"],
    ["otpMaxAttempts", "0"],
    ["otpMaxAttempts", "11"],
    ["otpResendCooldownSeconds", "-1"],
    ["otpResendCooldownSeconds", "601"],
    ["otpSendLimit", "0"],
    ["otpSendWindowSeconds", "59"],
    ["dailySendCap", "0"],
    ["returningSkipDays", "366"],
    ["addressCorrectionTtlHours", "0"],
    ["recordRetentionDays", "29"],
    ["recordRetentionDays", "366"],
    ["otpTtlSeconds", "1e3"],
    ["otpTtlSeconds", "600.5"],
    ["otpTtlSeconds", ""],
    ["otpTtlSeconds", undefined],
    ["otpTtlSeconds", 600],
  ])("refuses %s = %j with that field's error only", (field, value) => {
    const errors = errorsOf({ [field]: value });
    expect(Object.keys(errors)).toEqual([field]);
    expect(errors[field as keyof typeof errors]).toMatch(/Enter a whole number from/);
  });

  it("reads on/off as the page posts them and refuses anything else", () => {
    expect(dataOf({ otpEnabled: "false", tagOrders: "false", autoAddressCorrection: "true" })).toMatchObject({
      otpEnabled: false,
      tagOrders: false,
      autoAddressCorrection: true,
    });
    expect(errorsOf({ otpEnabled: "on" })).toEqual({ otpEnabled: "Choose on or off." });
    expect(errorsOf({ tagOrders: undefined })).toEqual({ tagOrders: "Choose on or off." });
  });

  describe("allowed countries", () => {
    it("takes ISO alpha-2 codes in any case, separated by commas, semicolons or spaces, and stores them once, upper-cased", () => {
      expect(dataOf({ allowedCountries: " in, ae;US  ma,IN " }).allowedCountries).toBe("IN,AE,US,MA");
      expect(dataOf({ allowedCountries: "   " }).allowedCountries).toBe("");
    });

    it("takes what a merchant types instead of picking: names, short forms and codes mixed, stored as codes", () => {
      expect(dataOf({ allowedCountries: "IN, AE" }).allowedCountries).toBe("IN,AE");
      expect(dataOf({ allowedCountries: "Kenya" }).allowedCountries).toBe("KE");
      expect(dataOf({ allowedCountries: "india, United Arab Emirates; UAE\nCôte d’Ivoire, UK" }).allowedCountries).toBe("IN,AE,CI,GB");
      expect(dataOf({ allowedCountries: "IN,AE,Kenya" }).allowedCountries).toBe("IN,AE,KE");
    });

    it.each([
      ["XX", "XX"],
      ["IND", "IND"],
      ["Kenyaa", "Kenyaa"],
      ["I", "I"],
      ["12", "12"],
      ["IN,ZZ, aq", "ZZ, aq"],
      ["in xx", "in xx"],
    ])("refuses %j, naming what is not a country and how to write one", (value, named) => {
      const errors = errorsOf({ allowedCountries: value });
      expect(errors.allowedCountries).toMatch(/Not a country phone numbers belong to/);
      expect(errors.allowedCountries).toContain(`: ${named}. Type a country's English name`);
    });
  });

  describe("the SMS template", () => {
    it("must contain {code}; empty means the built-in message", () => {
      expect(dataOf({ smsTemplate: "{shop}: {code} ({minutes} min)" }).smsTemplate).toBe("{shop}: {code} ({minutes} min)");
      expect(dataOf({ smsTemplate: "  " }).smsTemplate).toBeNull();
      expect(errorsOf({ smsTemplate: "Your code: {CODE}" }).smsTemplate).toMatch(/must contain \{code\}/);
      expect(errorsOf({ smsTemplate: `{code}${"x".repeat(320)}` }).smsTemplate).toMatch(/320 characters/);
    });
  });

  it("knows the channels and the languages the texts exist in", () => {
    expect(dataOf({ smsChannel: "whatsapp", locale: "ar" })).toMatchObject({ smsChannel: "whatsapp", locale: "ar" });
    expect(Object.keys(errorsOf({ smsChannel: "email", locale: "de" })).sort()).toEqual(["locale", "smsChannel"]);
  });

  describe("the deposit", () => {
    it.each([
      ["percentage", "1", 1],
      ["percentage", "99", 99],
      ["percentage", "12.5", 12.5],
      ["percentage", "12,5", 12.5],
      ["fixed", "0.01", 0.01],
      ["fixed", "1500", 1500],
    ])("accepts a %s of %j", (depositType, depositValue, expected) => {
      expect(dataOf({ depositType, depositValue })).toMatchObject({ depositType, depositValue: expected });
    });

    it.each([
      ["percentage", "0", /from 1 to 99/],
      ["percentage", "100", /from 1 to 99/],
      ["percentage", "20.555", /two decimals/],
      ["percentage", "-5", /Enter a number such as 120/],
      ["fixed", "0", /above 0/],
      ["fixed", "ten", /Enter a number such as 120/],
      ["fixed", "", /Enter a number such as 120/],
    ])("refuses a %s of %j on the deposit's value", (depositType, depositValue, message) => {
      const errors = errorsOf({ depositType, depositValue });
      expect(Object.keys(errors)).toEqual(["depositValue"]);
      expect(errors.depositValue).toMatch(message);
    });

    it("is reported together with the other fields' errors", () => {
      expect(Object.keys(errorsOf({ depositValue: "150", otpTtlSeconds: "1", tagVerified: "" })).sort()).toEqual([
        "depositValue",
        "otpTtlSeconds",
        "tagVerified",
      ]);
    });

    it("refuses an unknown deposit type on that field", () => {
      expect(Object.keys(errorsOf({ depositType: "half" }))).toEqual(["depositType"]);
    });
  });

  describe("tags and discount codes", () => {
    it("trims them; an empty discount code means none", () => {
      expect(dataOf({ tagVerified: "  ok  ", discountCodeCod: " COD10 ", discountCodePartial: "" })).toMatchObject({
        tagVerified: "ok",
        discountCodeCod: "COD10",
        discountCodePartial: null,
      });
    });

    it.each([
      ["tagVerified", "", /Enter a tag/],
      ["tagUnverified", "a,b", /comma/],
      ["tagVerified", "t".repeat(41), /40 characters/],
      ["tagModePrefix", "p".repeat(34), /33 characters/],
      ["tagModePrefix", "", /Enter a prefix/],
      ["tagUnverified", "two\nlines", /line breaks/],
      ["discountCodeCod", "C".repeat(256), /255 characters/],
      ["discountCodePrepaid", "A\tB", /line breaks/],
    ])("refuses %s = %j", (field, value, message) => {
      const errors = errorsOf({ [field]: value });
      expect(Object.keys(errors)).toEqual([field]);
      expect(errors[field as keyof typeof errors]).toMatch(message);
    });

    it("allows a mode prefix that leaves room for the longest mode within Shopify's 40 characters", () => {
      expect(dataOf({ tagModePrefix: "p".repeat(33) }).tagModePrefix).toHaveLength(33);
    });
  });

  it("reads where an Indian shopper's DIGIPIN goes on the order, and refuses anything else", () => {
    for (const target of ["metafield", "note", "address2"]) expect(dataOf({ digipinTarget: target }).digipinTarget).toBe(target);
    expect(Object.keys(errorsOf({ digipinTarget: "tattoo" }))).toEqual(["digipinTarget"]);
    expect(settingsFormValues({ ...dataOf({}), digipinTarget: "something old" } as never).digipinTarget).toBe("metafield");
  });

  it("gives back every value as typed when it refuses, reading a FormData as the route does", () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({ ...DEFAULTS, otpTtlSeconds: "9", dailySendCap: "lots" })) form.set(k, v);
    form.delete("tagVerified");
    const result = parseSettings(form);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual(["dailySendCap", "otpTtlSeconds", "tagVerified"]);
    expect(result.values).toEqual({ ...DEFAULTS, otpTtlSeconds: "9", dailySendCap: "lots", tagVerified: "" });
  });

  it("shows a stored shop as the form posts it, so an unchanged form saves the same row", () => {
    const shop = { ...dataOf({ allowedCountries: "IN,AE", smsTemplate: "{code}", depositValue: "12.5" }) };
    const form = settingsFormValues(shop);
    expect(form).toMatchObject({ allowedCountries: "IN, AE", smsTemplate: "{code}", depositValue: "12.5", otpEnabled: "true" });
    expect(dataOf(form)).toEqual(shop);
  });
});

describe("enforcement settings", () => {
  it("defaults are safe for a new install: COD hidden unless verified, no hold, 24 hours, no cancellation", () => {
    expect(dataOf({})).toMatchObject({
      enforceAtCheckout: true,
      codMethodNames: "Cash on Delivery (COD)",
      holdUnverifiedCod: false,
      confirmDeadlineHours: 24,
      cancelUnconfirmed: false,
    });
  });

  it("takes the COD method names one a line, trimmed and each once; empty means Shopify's COD method", () => {
    expect(dataOf({ codMethodNames: "  Pay on delivery \r\nCash on Delivery (COD)\n\nPay on delivery" }).codMethodNames).toBe("Pay on delivery\nCash on Delivery (COD)");
    expect(dataOf({ codMethodNames: "  " }).codMethodNames).toBe("Cash on Delivery (COD)");
  });

  it("refuses too many names, a name too long, control characters, and a deadline out of bounds", () => {
    expect(errorsOf({ codMethodNames: Array.from({ length: 11 }, (_, i) => `Method ${i}`).join("\n") })).toHaveProperty("codMethodNames");
    expect(errorsOf({ codMethodNames: "x".repeat(101) })).toHaveProperty("codMethodNames");
    expect(errorsOf({ codMethodNames: "Cash\ton delivery" })).toHaveProperty("codMethodNames");
    expect(errorsOf({ confirmDeadlineHours: "0" })).toHaveProperty("confirmDeadlineHours");
    expect(errorsOf({ confirmDeadlineHours: "169" })).toHaveProperty("confirmDeadlineHours");
    expect(errorsOf({ holdUnverifiedCod: undefined })).toHaveProperty("holdUnverifiedCod");
  });
});

describe("the WhatsApp card", () => {
  it("reads the confirmation mode, the reply window and the link domain, and refuses what it cannot use", () => {
    expect(dataOf({ whatsappConfirmation: "all", whatsappReplyMinutes: "30", linkDomain: " Shop.Example.IN ", linksOnWhatsapp: "true" })).toMatchObject({
      whatsappConfirmation: "all",
      whatsappReplyMinutes: 30,
      linkDomain: "shop.example.in",
      linksOnWhatsapp: true,
    });
    expect(dataOf({ linkDomain: "" })).toMatchObject({ linkDomain: null });
    expect(Object.keys(errorsOf({ whatsappConfirmation: "sometimes", whatsappReplyMinutes: "2", linkDomain: "https://shop.example.in/x" })).sort()).toEqual([
      "linkDomain",
      "whatsappConfirmation",
      "whatsappReplyMinutes",
    ]);
  });
});

describe("the confirmation ladder's settings", () => {
  it("reads each step's minutes (empty: skipped) and the quiet hours as minutes of the day", () => {
    const result = parseSettings({ ...DEFAULTS, ladderWhatsappMinutes: "0", ladderSmsMinutes: "30", ladderVoiceMinutes: " 120 ", quietHoursStart: "21:00", quietHoursEnd: "9:30" });
    expect(result.ok && result.data).toMatchObject({ ladderWhatsappMinutes: 0, ladderSmsMinutes: 30, ladderVoiceMinutes: 120, ladderPersonMinutes: null, quietHoursStart: 1260, quietHoursEnd: 570 });
  });

  it("refuses a delay that is not whole minutes within a week, a time that is not one, and one end of the quiet hours alone", () => {
    const result = parseSettings({ ...DEFAULTS, ladderSmsMinutes: "-5", ladderVoiceMinutes: "20000", quietHoursStart: "25:00", quietHoursEnd: "" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual(["ladderSmsMinutes", "ladderVoiceMinutes", "quietHoursStart"]);
    const half = parseSettings({ ...DEFAULTS, quietHoursStart: "21:00" });
    expect(!half.ok && half.errors).toEqual({ quietHoursEnd: "Enter both times of the quiet hours, or neither." });
  });
});
