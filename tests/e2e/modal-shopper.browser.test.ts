import type { Browser, Page } from "playwright-core";
import type { RunningServer } from "../helpers/server";
import { answerApi, axeViolations, openModal, openStorefront, SENT, shot } from "./modal-helpers";
import { useBrowserStore } from "./browser-store";

/**
 * The shopper's side in Chromium on a phone viewport: axe-core on every state of the modal, in
 * English, Hindi and Arabic; the number shown in full and left to right inside right-to-left text;
 * WebOTP filling and submitting the code (and aborted when the modal closes); the country list.
 * The page, its assets, the proxy emulation and /api/config are real; send/verify/checkout answers
 * are given by the browser (as in modal-contract.browser.test.ts).
 */
describe("the shopper's modal (Chromium, phone viewport)", () => {
  let server: RunningServer;
  let browser: Browser;
  useBrowserStore({}, (s, b) => {
    [server, browser] = [s, b];
  });

  it("has no axe-core violations in any state, in English, Hindi and Arabic", async () => {
    const states: Record<string, string[]> = {};
    const check = async (page: Page, name: string) => {
      states[name] = await axeViolations(page);
      await shot(page, `axe-${name}`);
    };

    // English: phone, invalid number, code, wrong code, exhausted attempts, redirecting.
    let { page, context } = await openStorefront(browser, server.url);
    await answerApi(page, {
      "send-otp": SENT,
      "verify-otp": [
        { status: 400, body: { success: false, code: "invalid_code", attemptsRemaining: 2 } },
        { status: 429, body: { success: false, code: "attempts_exhausted", attemptsRemaining: 0 } },
        { body: { success: true } },
      ],
      "create-checkout": { body: null, hold: true },
    });
    await openModal(page);
    await check(page, "phone-en");
    await page.getByLabel("Mobile number").fill("123");
    await page.getByRole("button", { name: "Send code" }).click();
    await page.getByRole("alert").waitFor();
    await check(page, "invalid-phone-en");
    await page.getByLabel("Mobile number").fill("98765 43210");
    await page.getByRole("button", { name: "Send code" }).click();
    const code = page.getByLabel("Verification code");
    await code.waitFor();
    await check(page, "code-en");
    await code.fill("111111");
    await page.getByRole("button", { name: "Confirm and continue" }).click();
    await page.getByText("That code is not right. 2 attempts left.").waitFor();
    await check(page, "wrong-code-en");
    await code.fill("222222");
    await page.getByRole("button", { name: "Confirm and continue" }).click();
    await page.getByRole("button", { name: "Send a new code" }).waitFor();
    await check(page, "attempts-exhausted-en");
    await page.getByRole("button", { name: "Send a new code" }).click();
    await expect.poll(() => code.isEnabled()).toBe(true);
    await code.fill("333333");
    await page.getByRole("button", { name: "Confirm and continue" }).click();
    await page.getByRole("button", { name: "Continue to checkout" }).waitFor();
    await check(page, "verified-modes-en");
    await page.getByRole("button", { name: "Continue to checkout" }).click();
    await page.getByText("Taking you to checkout…").waitFor();
    await check(page, "redirecting-en");
    await context.close();

    // English: rate limited, then texts unavailable with the regular checkout offered.
    ({ page, context } = await openStorefront(browser, server.url));
    await answerApi(page, {
      "send-otp": [
        { status: 429, body: { success: false, code: "rate_limited", retryAfter: 2 } },
        { status: 502, body: { success: false, code: "sms_unavailable" } },
      ],
    });
    await openModal(page);
    await page.getByLabel("Mobile number").fill("9876543210");
    await page.getByRole("button", { name: "Send code" }).click();
    await page.getByText(/Try again in 0:0\d/).waitFor();
    await check(page, "rate-limited-en");
    await expect.poll(() => page.getByRole("button", { name: "Send code", exact: true }).isEnabled(), { timeout: 5000 }).toBe(true);
    await page.getByRole("button", { name: "Send code", exact: true }).click();
    await page.getByRole("button", { name: "Continue to regular checkout" }).waitFor();
    await check(page, "sms-unavailable-en");
    await context.close();

    // English: a returning customer goes to the payment mode.
    ({ page, context } = await openStorefront(browser, server.url));
    await answerApi(page, { "send-otp": { body: { success: true, skipped: true, reason: "returning_customer" } } });
    await openModal(page);
    await page.getByLabel("Mobile number").fill("9876543210");
    await page.getByRole("button", { name: "Send code" }).click();
    await page.getByText("Welcome back! Your number is already verified.").waitFor();
    await check(page, "returning-en");
    await context.close();

    // Hindi and Arabic: the phone and the code steps.
    for (const [locale, button, phoneLabel, send, codeLabel] of [
      ["hi", "कैश ऑन डिलीवरी से खरीदें", "मोबाइल नंबर", "कोड भेजें", "वेरिफ़िकेशन कोड"],
      ["ar", "اشترِ والدفع عند الاستلام", "رقم الجوال", "أرسل الرمز", "رمز التحقق"],
    ]) {
      ({ page, context } = await openStorefront(browser, server.url, `?locale=${locale}`));
      await answerApi(page, { "send-otp": SENT });
      await openModal(page, button);
      await check(page, `phone-${locale}`);
      await page.getByLabel(phoneLabel).fill("9876543210");
      await page.getByRole("button", { name: send }).click();
      await page.getByLabel(codeLabel).waitFor();
      await check(page, `code-${locale}`);
      await context.close();
    }

    expect(Object.keys(states)).toHaveLength(14);
    expect(states).toEqual(Object.fromEntries(Object.keys(states).map((k) => [k, []])));
  }, 90_000);

  it("shows the shopper's own number in full on the code step, left to right with its + first in Arabic", async () => {
    const { page, context, errors } = await openStorefront(browser, server.url, "?locale=ar");
    await answerApi(page, { "send-otp": SENT });
    await openModal(page, "اشترِ والدفع عند الاستلام");
    await page.getByLabel("الدولة").selectOption("MA");
    await page.getByLabel("رقم الجوال").fill("0612345678");
    await page.getByRole("button", { name: "أرسل الرمز" }).click();
    const number = page.locator(".codv-intro bdi.codv-number");
    await number.waitFor();
    await expect(number.textContent()).resolves.toBe("+212\u00a0612345678");
    await expect(number.getAttribute("dir")).resolves.toBe("ltr");
    // On screen, the "+" is the leftmost character of the number and the last digit the rightmost.
    const [plus, last] = await number.evaluate((el) => {
      const text = el.firstChild!;
      const box = (i: number) => {
        const range = document.createRange();
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        return range.getBoundingClientRect().left;
      };
      return [box(0), box(text.textContent!.length - 1)];
    });
    expect(plus).toBeLessThan(last);
    await expect(page.getByRole("status").locator("bdi").textContent()).resolves.toBe("+212\u00a0612345678");
    await shot(page, "modal-number-ar");
    expect(errors).toEqual([]);
    await context.close();
  }, 30_000);

  it("fills in and submits the code itself where the browser offers WebOTP, and aborts the request when the modal closes", async () => {
    const { page, context, errors } = await openStorefront(browser, server.url);
    // Chromium here has no SMS receiver: stand in for the browser's WebOTP API.
    await page.addInitScript(() => {
      const w = window as unknown as { OTPCredential: unknown; webOtp: { requests: number; aborted: number; deliver?: (code: string) => void } };
      w.OTPCredential = function OTPCredential() {};
      w.webOtp = { requests: 0, aborted: 0 };
      Object.defineProperty(navigator, "credentials", {
        value: {
          get(options: { otp?: { transport: string[] }; signal?: AbortSignal }) {
            if (!options.otp || options.otp.transport[0] !== "sms") return Promise.reject(new Error("not an OTP request"));
            w.webOtp.requests++;
            return new Promise((resolve, reject) => {
              w.webOtp.deliver = (code) => resolve({ type: "otp", code });
              options.signal?.addEventListener("abort", () => {
                w.webOtp.aborted++;
                reject(new DOMException("aborted", "AbortError"));
              });
            });
          },
        },
      });
    });
    await page.reload();
    const calls = await answerApi(page, { "send-otp": SENT, "verify-otp": { body: { success: true } }, "create-checkout": { body: null, hold: true } });
    const state = () => page.evaluate(() => (window as unknown as { webOtp: { requests: number; aborted: number } }).webOtp);

    // Closing the modal on the code step aborts the pending request; reopening asks again.
    await openModal(page);
    await page.getByLabel("Mobile number").fill("9876543210");
    await page.getByRole("button", { name: "Send code" }).click();
    await page.getByLabel("Verification code").waitFor();
    await expect.poll(state).toEqual({ requests: 1, aborted: 0 });
    await page.keyboard.press("Escape");
    await expect.poll(state).toEqual({ requests: 1, aborted: 1 });
    await openModal(page);
    await expect.poll(state).toEqual({ requests: 2, aborted: 1 });

    // The SMS arrives: the code is filled in and verified; the mode is chosen after, in sight.
    await page.evaluate(() => (window as unknown as { webOtp: { deliver: (code: string) => void } }).webOtp.deliver("482913"));
    await expect.poll(() => calls["verify-otp"]).toEqual([{ phone: "+919876543210", otp: "482913", behaviour: { numbersTried: 0, codesAbandoned: 0, msToRequest: expect.any(Number), msToType: expect.any(Number) } }]);
    await page.getByRole("radio", { name: /Pay now online/ }).waitFor();
    expect(calls["create-checkout"]).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows what each way to pay costs: items, COD fee, prepaid saving, deposit now and the rest on delivery (en, hi, ar)", async () => {
    const config = {
      otpEnabled: true,
      codeLength: 6,
      resendAfter: 30,
      locale: "en",
      modes: ["cod", "prepaid", "partial"],
      countries: [{ iso: "IN", dial: "91" }],
      pricing: { currency: "INR", codFee: { type: "fixed", value: 49 }, prepaidDiscount: { type: "percentage", value: 5 }, deposit: { type: "percentage", value: 20 } },
    };
    for (const [locale, button, send, expected] of [
      [
        "en",
        "Buy with Cash on Delivery",
        "Send code",
        [
          "Items: ₹1,299.00",
          "₹1,348.00 in cash on delivery, including a ₹49.00 cash-on-delivery fee",
          "₹1,234.05 now, you save ₹64.95",
          "₹259.80 now, ₹1,039.20 in cash on delivery",
        ],
      ],
      ["hi", "कैश ऑन डिलीवरी से खरीदें", "कोड भेजें", ["सामान: ₹1,299.00", "अभी ₹1,234.05, आपकी बचत ₹64.95"]],
      ["ar", "اشترِ والدفع عند الاستلام", "أرسل الرمز", []],
    ] as const) {
      const { page, context, errors } = await openStorefront(browser, server.url, `?locale=${locale}`);
      await page.route("**/apps/cod/api/config", (route) => route.fulfill({ contentType: "application/json", body: JSON.stringify(config) }));
      await answerApi(page, { "send-otp": SENT, "verify-otp": { body: { success: true } } });
      await openModal(page, button);
      await page.locator(".codv-dialog input[type=tel]").fill("9876543210");
      await page.getByRole("button", { name: send }).click();
      // The amounts are on the mode step, after the code.
      await page.locator(".codv-dialog input[autocomplete=one-time-code]").fill("123456");
      await page.locator(".codv-dialog input[autocomplete=one-time-code]").press("Enter");
      await page.locator(".codv-amount").first().waitFor();
      const texts = [await page.locator(".codv-summary").textContent(), ...(await page.locator(".codv-amount").allTextContents())];
      for (const text of expected) expect(texts.some((t) => t?.includes(text)), `${locale}: ${text} in ${JSON.stringify(texts)}`).toBe(true);
      expect(await page.locator(".codv-amount").count()).toBe(3);
      await shot(page, `modal-amounts-${locale}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 60_000);

  it("offers a single way to pay with its amount and no choice to make", async () => {
    const { page, context } = await openStorefront(browser, server.url);
    await page.route("**/apps/cod/api/config", (route) =>
      route.fulfill({
        contentType: "application/json",
        body: JSON.stringify({ otpEnabled: true, codeLength: 6, resendAfter: 30, locale: "en", modes: ["cod"], countries: [{ iso: "IN", dial: "91" }], pricing: { currency: "INR", codFee: { type: "percentage", value: 2 }, prepaidDiscount: null, deposit: null } }),
      }),
    );
    await answerApi(page, { "send-otp": SENT });
    await page.getByLabel("Quantity").fill("2");
    await openModal(page);
    await page.getByLabel("Mobile number").fill("9876543210");
    await page.getByRole("button", { name: "Send code" }).click();
    await expect(page.locator(".codv-amount-only").textContent()).resolves.toBe("₹2,649.96 in cash on delivery, including a ₹51.96 cash-on-delivery fee");
    await expect(page.getByRole("radio").count()).resolves.toBe(0);
    await context.close();
  });

  it("lists the countries the config gives, the shop's allowed ones first", async () => {
    const { page, context } = await openStorefront(browser, server.url, "?country=AE");
    await page.route("**/apps/cod/api/config", (route) =>
      route.fulfill({
        contentType: "application/json",
        body: JSON.stringify({
          otpEnabled: true,
          codeLength: 6,
          resendAfter: 30,
          locale: "en",
          modes: ["cod"],
          countries: [
            { iso: "MA", dial: "212", allowed: true },
            { iso: "AE", dial: "971", allowed: true },
            { iso: "FR", dial: "33" },
            { iso: "IN", dial: "91" },
          ],
        }),
      }),
    );
    await openModal(page);
    const options = await page.getByLabel("Country").evaluate((el) => [...(el as HTMLSelectElement).options].map((o) => o.value));
    expect(options).toEqual(["MA", "AE", "FR", "IN"]); // allowed ones first, each group by name
    await expect(page.getByLabel("Country").inputValue()).resolves.toBe("AE"); // the shopper's market
    await context.close();
  });
});
