import { currencyDigits, depositSplit } from "~/shared/deposit";
import { loadModalCore, localeFiles, readLocale } from "./load-modal";

const core = loadModalCore();
const en = readLocale("en.default.json");

describe("the modal's phone handling", () => {
  it("turns what shoppers type into E.164 with the selected country's dial code", () => {
    expect(core.toE164("98765 43210", "91")).toBe("+919876543210");
    expect(core.toE164("098765-43210", "91")).toBe("+919876543210"); // national trunk 0
    expect(core.toE164("(06) 12 34 56 78", "33")).toBe("+33612345678");
    expect(core.toE164("+212 612-345678", "91")).toBe("+212612345678"); // an explicit + wins over the selector
    expect(core.toE164("00212612345678", "91")).toBe("+212612345678"); // 00 international prefix
    expect(core.toE164("919876543210", "91")).toBe("+919876543210"); // country code typed without +
  });

  it("accepts digits typed in Arabic-Indic, Persian and Devanagari scripts", () => {
    expect(core.toE164("٠٦١٢٣٤٥٦٧٨", "212")).toBe("+212612345678");
    expect(core.toE164("۹۸۷۶۵۴۳۲۱۰", "91")).toBe("+919876543210");
    expect(core.toE164("९८७६५४३२१०", "91")).toBe("+919876543210");
  });

  it("refuses what the API would refuse: fewer than 10 or more than 15 digits, letters", () => {
    expect(core.toE164("", "91")).toBeNull();
    expect(core.toE164("12345", "91")).toBeNull();
    expect(core.toE164("+1234567890123456", "91")).toBeNull();
    expect(core.toE164("98765abc10", "91")).toBeNull();
  });

  it("shows the shopper's number in full, the calling code set apart (the longest one that matches)", () => {
    expect(core.displayPhone("+919876543210", ["1", "91", "212"])).toBe("+91\u00a09876543210");
    expect(core.displayPhone("+212612345678", ["1", "91", "212", "2"])).toBe("+212\u00a0612345678");
    expect(core.displayPhone("+4915112345678", [])).toBe("+4915112345678"); // unknown calling code: as typed
  });

  it("keeps only well-formed countries from the config, each once", () => {
    const list = core.countryList([{ iso: "IN", dial: "91", allowed: true }, { iso: "IN", dial: "91" }, { iso: "x", dial: "1" }, { iso: "MA", dial: "2a" }, null, { iso: "MA", dial: "212" }]);
    expect(list.map((c) => c.iso)).toEqual(["IN", "MA"]);
    expect(core.countryList("nope")).toEqual([]);
  });
});

describe("the modal's code entry", () => {
  it("takes the code out of a pasted SMS, preferring a run of exactly the code's length", () => {
    expect(core.extractCode("123456", 6)).toBe("123456");
    expect(core.extractCode("Your Demo Shop code is 482913. Valid 10 min.", 6)).toBe("482913");
    expect(core.extractCode("12 34 56", 6)).toBe("123456");
    expect(core.extractCode("١٢٣٤٥٦", 6)).toBe("123456");
    expect(core.extractCode("1234567890", 6)).toBe("123456");
    expect(core.extractCode("@shop.myshopify.com #654321", 6)).toBe("654321"); // WebOTP's format
  });
});

describe("the modal's reading of every storefront API answer", () => {
  const cases: [string, number, unknown, Record<string, unknown>][] = [
    ["code sent", 200, { success: true, expiresIn: 600, resendAfter: 30 }, { kind: "ok", resendAfter: 30, expiresIn: 600, channel: "sms" }],
    ["verified", 200, { success: true }, { kind: "ok", resendAfter: null, expiresIn: null, channel: "sms" }],
    ["otp disabled", 200, { success: true, skipped: true, reason: "otp_disabled" }, { kind: "skipped", reason: "otp_disabled" }],
    ["returning customer", 200, { success: true, skipped: true, reason: "returning_customer" }, { kind: "skipped", reason: "returning_customer" }],
    // The shop's daily cap is spent and it confirms cash on delivery after purchase (docs/security.md).
    ["the cap's fallback", 200, { success: true, skipped: true, reason: "cap_fallback", allowedModes: ["cod", "prepaid"] }, { kind: "skipped", reason: "cap_fallback" }],
    ["an unknown skip reason", 200, { success: true, skipped: true, reason: "something_new" }, { kind: "skipped", reason: "otp_disabled" }],
    ["checkout", 200, { checkoutUrl: "https://shop.example/cart/c/1" }, { kind: "checkout", url: "https://shop.example/cart/c/1" }],
    ["fallback", 200, { fallback: true }, { kind: "fallback" }],
    ["402", 402, { error: "x", code: "subscription_required" }, { kind: "fallback" }],
    ["rate limited", 429, { error: "x", code: "rate_limited", retryAfter: 412 }, { kind: "rate_limited", retryAfter: 412 }],
    ["wrong code", 400, { success: false, code: "invalid_code", attemptsRemaining: 4 }, { kind: "invalid_code", attemptsRemaining: 4 }],
    ["attempts exhausted", 429, { code: "attempts_exhausted", attemptsRemaining: 0 }, { kind: "attempts_exhausted" }],
    ["code expired", 400, { code: "code_expired" }, { kind: "code_expired" }],
    // Concurrent right answers: the first verifies, the rest are told the number is verified (never exhausted).
    ["already verified", 409, { success: false, code: "already_verified", error: "x" }, { kind: "already_verified" }],
    ["invalid phone", 400, { code: "invalid_phone" }, { kind: "invalid_phone" }],
    ["unreachable", 400, { code: "phone_unreachable" }, { kind: "phone_unreachable" }],
    ["sms down", 502, { code: "sms_unavailable" }, { kind: "sms_unavailable" }],
    ["gateway without a body", 502, null, { kind: "sms_unavailable" }],
    ["country", 403, { code: "country_not_allowed" }, { kind: "country_not_allowed" }],
    ["blocked", 403, { code: "phone_blocked" }, { kind: "phone_blocked" }],
    ["not verified", 403, { code: "phone_not_verified" }, { kind: "phone_not_verified" }],
    ["daily cap", 429, { code: "shop_daily_cap" }, { kind: "shop_daily_cap" }],
    ["offline", 0, null, { kind: "network" }],
    [
      "COD refused to a high-risk shopper",
      403,
      { code: "cod_not_allowed", allowedModes: ["prepaid"], risk: { band: "high", reasons: [{ code: "phone_prepaid_only", text: "x" }] } },
      { kind: "cod_not_allowed", allowedModes: ["prepaid"], risk: { band: "high", reasons: [{ code: "phone_prepaid_only", text: "x" }] } },
    ],
    ["COD refused without the additive fields", 403, { code: "cod_not_allowed" }, { kind: "cod_not_allowed", allowedModes: [], risk: null }],
    ["not installed", 403, { code: "app_not_installed" }, { kind: "error", code: "app_not_installed" }],
    ["HTML error page", 500, null, { kind: "error", code: "500" }],
    ["a 200 without a known shape", 200, { hello: 1 }, { kind: "error", code: "unexpected" }],
    ["a checkoutUrl that is not http(s)", 200, { checkoutUrl: "javascript:alert(1)" }, { kind: "error", code: "unexpected" }],
  ];
  it.each(cases)("%s", (_name, status, body, expected) => {
    expect(core.interpret(status, body)).toEqual(expected);
  });

  it("has a message in every language for every failure, with the right way out", () => {
    const failures = cases.map(([, status, body]) => core.interpret(status, body)).filter((o) => !["ok", "skipped", "checkout", "fallback", "already_verified"].includes(o.kind));
    for (const file of localeFiles()) {
      const strings = readLocale(file);
      for (const outcome of failures) {
        const message = core.failureMessage(outcome);
        const key = message.count != null ? `${message.key}_other` : message.key;
        expect(strings[key], `${file}: ${key}`).toEqual(expect.any(String));
      }
    }
    expect(core.failureMessage({ kind: "attempts_exhausted" })).toMatchObject({ newCode: true });
    expect(core.failureMessage({ kind: "code_expired" })).toMatchObject({ newCode: true });
    expect(core.failureMessage({ kind: "rate_limited", retryAfter: 75 })).toMatchObject({ wait: 75, values: { time: "1:15" } });
    expect(core.failureMessage({ kind: "sms_unavailable" })).toMatchObject({ checkout: true });
    expect(core.failureMessage({ kind: "invalid_phone" })).toMatchObject({ step: "phone" });
    expect(core.failureMessage({ kind: "phone_not_verified" })).toMatchObject({ step: "phone" });
    // Never a dead end: each refusal of a code by text offers a way forward (pay online, WhatsApp).
    for (const kind of ["phone_blocked", "country_not_allowed", "phone_unreachable", "sms_unavailable", "shop_daily_cap", "rate_limited"]) {
      expect(core.failureMessage({ kind, retryAfter: 60 }), kind).toMatchObject({ forward: true });
    }
    expect(core.failureMessage({ kind: "phone_unreachable" })).toMatchObject({ whatsapp: true });
    expect(core.failureMessage({ kind: "sms_unavailable" })).toMatchObject({ whatsapp: true });
    // A code asked for on WhatsApp that could not go: a text instead (the modal shows it only after a WhatsApp request).
    expect(core.failureMessage({ kind: "sms_unavailable" })).toMatchObject({ sms: true });
    expect(core.failureMessage({ kind: "shop_daily_cap", retryAfter: 60 }).sms).toBeFalsy();
    // At a send limit after a WhatsApp request: the code by text is offered too (shown only after a WhatsApp request).
    expect(core.failureMessage({ kind: "rate_limited", retryAfter: 60 })).toMatchObject({ sms: true, wait: 60, forward: true });
    expect(core.failureMessage({ kind: "phone_blocked" }).whatsapp).toBeUndefined();
    expect(core.failureMessage({ kind: "invalid_code", attemptsRemaining: 2 }).forward).toBeUndefined();
  });

  it("words the answers that are not failures in every language: already verified, the cap's fallback", () => {
    for (const file of localeFiles()) {
      const strings = readLocale(file);
      for (const key of ["already_verified", "cap_fallback", "cap_fallback_choose"]) expect(strings[key], `${file}: ${key}`).toMatch(/\S/);
      // Success-like: the verified number is never told its attempts ran out.
      expect(strings.already_verified).not.toBe(strings.error_attempts_exhausted);
    }
  });
});

describe("the modal's reading of the risk answers (allowedModes, risk)", () => {
  it("offers the shop's modes the answer allows, in the shop's order; the shop's own when the answer has none", () => {
    expect(core.riskModes(["cod", "prepaid", "partial"], ["partial", "prepaid"])).toEqual(["prepaid", "partial"]);
    expect(core.riskModes(["cod"], ["prepaid"])).toEqual([]); // the shop has no other mode in the modal
    expect(core.riskModes(["cod", "prepaid"], undefined)).toEqual(["cod", "prepaid"]);
  });

  it("offers partial with the server's priced deposit, even where the shop does not offer partial, and says the amount in every language", () => {
    expect(core.riskModes(["cod", "prepaid"], ["prepaid", "partial"], true)).toEqual(["prepaid", "partial"]);
    expect(core.riskModes(["cod", "prepaid"], ["prepaid", "partial"], false)).toEqual(["prepaid"]);
    expect(core.riskDeposit({ deposit: { amount: 40, currency: "INR" } })).toEqual({ amount: 40, currency: "INR" });
    for (const bad of [{}, { deposit: { amount: -1 } }, { deposit: { amount: "40" } }, { deposit: { amount: Infinity } }, null]) expect(core.riskDeposit(bad)).toBeNull();
    const pricing = core.pricingWithDeposit({ deposit: { type: "percentage", value: 20 }, currency: "INR", codFee: { type: "fixed", value: 30 } }, { amount: 40, currency: "INR" });
    expect(pricing).toEqual({ deposit: { type: "fixed", value: 40 }, currency: "INR", codFee: { type: "fixed", value: 30 } });
    // 1,000 of items: 40 now, 960 on delivery, by the same split the server makes.
    expect(core.quote(1000, "INR", pricing, null)?.partial).toEqual({ now: 40, later: 960 });
    for (const file of localeFiles()) {
      const text = readLocale(file).risk_deposit;
      expect(text, file).toContain("{amount}");
      expect(text.toLowerCase(), file).not.toMatch(/risk|fraud|score/);
    }
  });

  it("tells why in one neutral sentence per reason, the first reason with its own sentence winning, in every language", () => {
    const reasons = (...codes: string[]) => ({ band: "high", reasons: codes.map((code) => ({ code, text: "x" })) });
    expect(core.riskNoteKey(reasons("phone_prepaid_only"))).toBe("risk_prepaid_only");
    expect(core.riskNoteKey(reasons("bad_phone", "postal_code_denied"))).toBe("risk_area");
    expect(core.riskNoteKey(reasons("cod_value_cap"))).toBe("risk_value");
    expect(core.riskNoteKey(reasons("ip_attempt_limit"))).toBe("risk_busy");
    expect(core.riskNoteKey(reasons("ip_order_limit"))).toBe("risk_busy");
    expect(core.riskNoteKey(reasons("bad_phone", "new_customer"))).toBe("risk_generic");
    expect(core.riskNoteKey(null)).toBe("risk_generic");
    expect(core.failureMessage({ kind: "cod_not_allowed", risk: reasons("phone_prepaid_only") })).toMatchObject({ key: "risk_prepaid_only", forward: true });
    for (const file of localeFiles()) {
      const strings = readLocale(file);
      for (const key of ["risk_prepaid_only", "risk_area", "risk_value", "risk_busy", "risk_generic", "risk_choose", "risk_elsewhere"]) {
        expect(strings[key], `${file}: ${key}`).toEqual(expect.any(String));
        expect(strings[key].toLowerCase(), `${file}: ${key}`).not.toMatch(/risk|fraud|score/);
      }
    }
  });
});

describe("the modal's behaviour fields (docs/risk.md, Behaviour)", () => {
  it("counts other numbers tried, codes asked and never typed, and the times to ask and to type", () => {
    const b = core.newBehaviour();
    core.noteOpened(b, 1_000);
    core.noteOpened(b, 9_000); // reopened: the first opening counts
    expect(core.sendFields(b, "+911", 4_000)).toEqual({ numbersTried: 0, codesAbandoned: 0, msToRequest: 3_000 });
    expect(core.verifyFields(b, 5_000)).toEqual({});
    core.noteSent(b, "+911", 4_000, { numbersTried: 0, codesAbandoned: 0, msToRequest: 3_000 });
    core.noteSent(b, "+912", 6_000, { numbersTried: 1, codesAbandoned: 1, msToRequest: 5_000 });
    expect(core.sendFields(b, "+913", 7_000)).toEqual({ numbersTried: 2, codesAbandoned: 2, msToRequest: 6_000 });
    expect(core.sendFields(b, "+912", 7_000)).toMatchObject({ numbersTried: 1 });
    // verify-otp carries the last code's send readings with the time to type it.
    expect(core.verifyFields(b, 16_000)).toEqual({ numbersTried: 1, codesAbandoned: 1, msToRequest: 5_000, msToType: 10_000 });
    core.noteTyped(b);
    expect(core.sendFields(b, "+912", 20_000)).toMatchObject({ codesAbandoned: 0 });
  });
});

describe("the modal's texts", () => {
  it("fill placeholders and pick plural forms by the language's rules", () => {
    expect(core.translate(en, "en", "error_attempts_left", { count: 1 }, 1)).toBe("That code is not right. 1 attempt left.");
    expect(core.translate(en, "en", "error_attempts_left", { count: 3 }, 3)).toBe("That code is not right. 3 attempts left.");
    const ar = readLocale("ar.json");
    expect(core.translate(ar, "ar", "error_attempts_left", { count: 2 }, 2)).toBe("الرمز غير صحيح. بقيت محاولتان.");
    expect(core.translate(ar, "ar", "error_attempts_left", { count: 4 }, 4)).toBe("الرمز غير صحيح. بقيت 4 محاولات.");
    expect(core.translate(en, "en", "resend_in", { time: core.clock(27) })).toBe("Resend code in 0:27");
  });

  it("undo the HTML escaping of Liquid's t filter", () => {
    expect(core.unescapeHtml("Impossible d&#39;envoyer &amp; &quot;x&quot; &lt;b&gt; &#x2019;")).toBe("Impossible d'envoyer & \"x\" <b> \u2019");
  });

  it("are right to left in Arabic only among the shipped languages", () => {
    expect(localeFiles().map((f) => f.split(".")[0]).filter((l) => core.isRtl(l))).toEqual(["ar"]);
  });
});

describe("the modal's way to the store's normal checkout", () => {
  it("is a cart permalink of the lines, under the storefront's language root", () => {
    expect(core.normalCheckoutUrl("/", [{ variantId: "44000000000002", quantity: 2 }])).toBe("/cart/44000000000002:2");
    expect(core.normalCheckoutUrl("/fr", [{ variantId: "gid://shopify/ProductVariant/7", quantity: 1 }, { variantId: "8", quantity: 0 }])).toBe(
      "/fr/cart/7:1,8:1",
    );
    expect(core.normalCheckoutUrl("/", [])).toBe("/checkout");
  });

  it("carries the verification proof as a cart attribute, since a permalink builds a new cart", () => {
    const url = core.normalCheckoutUrl("/", [{ variantId: "44000000000002", quantity: 1 }], "v1.919876543210.cod.x+y/z");
    expect(url).toBe("/cart/44000000000002:1?attributes%5B_cod_proof%5D=v1.919876543210.cod.x%2By%2Fz");
    expect(new URL(url, "https://shop.example").searchParams.get("attributes[_cod_proof]")).toBe("v1.919876543210.cod.x+y/z");
  });

  it("carries where the shopper came from as the private _cod_source attribute, a direct visit too", () => {
    const url = core.normalCheckoutUrl("/", [{ variantId: "5", quantity: 1 }], null, "utm_source=facebook&ref=m.facebook.com");
    expect(new URL(url, "https://shop.example").searchParams.get("attributes[_cod_source]")).toBe("utm_source=facebook&ref=m.facebook.com");
    expect(new URL(core.normalCheckoutUrl("/", [{ variantId: "5", quantity: 1 }], "p", ""), "https://shop.example").searchParams.get("attributes[_cod_source]")).toBe("");
    expect(core.normalCheckoutUrl("/", [{ variantId: "5", quantity: 1 }])).toBe("/cart/5:1");
  });

  it("offers only the modes the shop allows, in a fixed order, and COD when the config says nothing usable", () => {
    expect(core.allowedModes(["partial", "cod"])).toEqual(["cod", "partial"]);
    expect(core.allowedModes(["bitcoin"])).toEqual(["cod"]);
    expect(core.allowedModes(undefined)).toEqual(["cod"]);
  });
});

describe("the modal's amounts", () => {
  const pricing = {
    currency: "INR",
    codFee: { type: "fixed", value: 49 },
    prepaidDiscount: { type: "percentage", value: 5 },
    deposit: { type: "percentage", value: 20 },
  };

  it("says what each mode costs: the COD total with its fee, the prepaid price and saving, the deposit now and the rest later", () => {
    expect(core.quote(1000, "INR", pricing)).toEqual({
      total: 1000,
      currency: "INR",
      cod: { later: 1049, fee: 49 },
      prepaid: { now: 950, saving: 50 },
      partial: { now: 200, later: 800 },
    });
    const fixed = core.quote(2598, "INR", { ...pricing, codFee: { type: "percentage", value: 2 }, prepaidDiscount: { type: "fixed", value: 100 }, deposit: { type: "fixed", value: 300 } });
    expect(fixed).toMatchObject({ cod: { later: 2649.96, fee: 51.96 }, prepaid: { now: 2498, saving: 100 }, partial: { now: 300, later: 2298 } });
  });

  it("shows no fixed amount in another currency than the shop's, and nothing without a total", () => {
    expect(core.quote(100, "EUR", pricing)).toMatchObject({ cod: null, prepaid: { now: 95, saving: 5 }, partial: { now: 20, later: 80 } });
    expect(core.quote(null, "INR", pricing)).toBeNull();
    expect(core.quote(100, null, pricing)).toBeNull();
    expect(core.quote(100, "INR", null)).toMatchObject({ cod: { later: 100, fee: 0 }, prepaid: { now: 100, saving: 0 }, partial: null });
  });

  it("splits the deposit exactly as the server does, to the currency's smallest unit (the shipped bundle against app/shared/deposit.ts)", () => {
    // Amounts and currencies with 0, 2 and 3 decimals, where rounding up and to the nearest differ.
    const table: [number, string, number][] = [
      [1299, "INR", 20], [33.33, "USD", 20], [10.01, "EUR", 15], [0.05, "USD", 50], [99.99, "GBP", 33], [1234.56, "USD", 7],
      [1999, "JPY", 15], [1001, "JPY", 33], [3, "JPY", 50], [98765, "KRW", 12],
      [12.345, "KWD", 10], [7.001, "BHD", 33], [0.999, "KWD", 99], [19.99, "TND", 25],
    ];
    for (const [total, currency, percent] of table) {
      const server = depositSplit("percentage", percent, total, currencyDigits(currency));
      const modal = core.quote(total, currency, { currency, deposit: { type: "percentage", value: percent } })!.partial as { now: number; later: number } | null;
      expect(modal, `${percent}% of ${total} ${currency}`).toEqual(server ? { now: server.deposit, later: server.balance } : null);
    }
    // The old modal rounded to the cent: 20 % of $33.33 was $6.67 there too, but 15 % of ¥1,999 was ¥299.85.
    expect(core.quote(1999, "JPY", { currency: "JPY", deposit: { type: "percentage", value: 15 } })!.partial).toEqual({ now: 300, later: 1699 });
    expect(core.quote(12.345, "KWD", { currency: "KWD", deposit: { type: "percentage", value: 10 } })!.partial).toEqual({ now: 1.235, later: 11.11 });
    expect(core.quote(10.01, "EUR", { currency: "EUR", deposit: { type: "percentage", value: 15 } })!.partial).toEqual({ now: 1.51, later: 8.5 });
  });

  it("shows no split the server would not make (a fixed deposit of the whole order or more)", () => {
    expect(core.quote(250, "INR", { ...pricing, deposit: { type: "fixed", value: 300 } })!.partial).toBeNull();
    expect(depositSplit("fixed", 300, 250, 2)).toBeNull();
  });

  it("in another currency than the shop's: a percentage in that currency, a fixed saving at the page's rate, no fixed fee or fixed deposit", () => {
    const shop = { currency: "USD", codFee: { type: "fixed", value: 2 }, prepaidDiscount: { type: "fixed", value: 5 }, deposit: { type: "percentage", value: 20 } };
    // ¥: no decimals; Shopify converts the $5 code at the page's rate (149.5) and the amounts are whole yen.
    expect(core.quote(14999, "JPY", shop, 149.5)).toEqual({
      total: 14999,
      currency: "JPY",
      cod: null,
      prepaid: { now: 14251, saving: 748 },
      partial: { now: 3000, later: 11999 },
    });
    // Without a usable rate the converted saving is not shown; a fixed deposit is never shown in another currency.
    expect(core.quote(14999, "JPY", shop, null)).toMatchObject({ prepaid: null, partial: { now: 3000, later: 11999 } });
    expect(core.quote(92.5, "EUR", { ...shop, deposit: { type: "fixed", value: 10 } }, 0.92)).toMatchObject({ prepaid: { now: 87.9, saving: 4.6 }, partial: null });
    expect(core.amountText("partial", core.quote(14999, "JPY", shop, 149.5), "en")).toEqual({ key: "amount_partial", values: { now: "¥3,000", later: "¥11,999" } });
  });

  it("reads the rate from the page's Shopify.currency only for the cart's currency", () => {
    expect(core.presentmentRate("EUR", { currency: { active: "EUR", rate: "0.92" } })).toBe(0.92);
    expect(core.presentmentRate("EUR", { currency: { active: "GBP", rate: "0.8" } })).toBeNull();
    expect(core.presentmentRate("EUR", { currency: { active: "EUR", rate: "abc" } })).toBeNull();
    expect(core.presentmentRate("EUR", { currency: { active: "EUR", rate: "0" } })).toBeNull();
    expect(core.presentmentRate("EUR", undefined)).toBeNull();
  });

  it("words each amount in the shopper's language and currency format", () => {
    const q = core.quote(1000, "INR", pricing);
    expect(core.amountText("cod", q, "en")).toEqual({ key: "amount_cod_fee", values: { amount: "₹1,049.00", fee: "₹49.00" } });
    expect(core.amountText("prepaid", q, "en")).toEqual({ key: "amount_prepaid_saving", values: { amount: "₹950.00", saving: "₹50.00" } });
    expect(core.amountText("partial", q, "en")).toEqual({ key: "amount_partial", values: { now: "₹200.00", later: "₹800.00" } });
    expect(core.amountText("cod", core.quote(1000, "INR", {}), "en")).toEqual({ key: "amount_cod", values: { amount: "₹1,000.00" } });
    expect(core.money(1049, "INR", "hi")).toBe("₹1,049.00");
    // Spanish's own format writes the code ("1049,00 INR"): every language shows the symbol.
    for (const locale of ["en", "hi", "ar", "fr", "es"]) {
      expect(core.money(1049, "INR", locale)).toContain("₹");
      expect(core.money(1049, "INR", locale)).not.toContain("INR");
    }
    for (const [key, value] of Object.entries({ amount_items: "Items: {amount}", amount_partial: "{now} now, {later} in cash on delivery" })) {
      expect(en[key]).toBe(value);
    }
  });
});

describe("the remembered number", () => {
  it("is shown with its country code and last four digits only", () => {
    expect(core.maskedPhone("+919876543210", ["91", "1"])).toBe("+91\u00a0\u2022\u2022\u2022\u2022\u2022\u20223210");
    expect(core.maskedPhone("+212612345678", ["212"])).toBe("+212\u00a0\u2022\u2022\u2022\u2022\u20225678");
    expect(core.maskedPhone("+447911123456", [])).not.toContain("791112");
  });
});
