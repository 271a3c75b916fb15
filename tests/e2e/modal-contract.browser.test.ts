import type { Browser, Page } from "playwright-core";
import type { RunningServer } from "../helpers/server";
import { axeViolations, DEMO_VARIANT, openModal, openStorefront, shot } from "./modal-helpers";
import { useBrowserStore } from "./browser-store";

/**
 * The storefront modal in Chromium against the storefront contract: the page, its assets, the app
 * proxy emulation and GET /api/config are real; send-otp, verify-otp and create-checkout are answered
 * by the browser with the contract's bodies, so every outcome (including the rare ones: 402, 502,
 * rate limits, exhausted attempts) can be shown. The flow against the real routes is modal.browser.test.ts.
 */
type Reply = { status?: number; body: unknown };
type Calls = Record<string, unknown[]>;

async function answerApi(page: Page, replies: Record<string, Reply | Reply[]>): Promise<Calls> {
  const calls: Calls = {};
  for (const [name, reply] of Object.entries(replies)) {
    const queue = Array.isArray(reply) ? [...reply] : null;
    calls[name] = [];
    await page.route(`**/apps/cod/${name}`, async (route) => {
      calls[name].push(route.request().postDataJSON());
      const r = queue ? (queue.length > 1 ? queue.shift()! : queue[0]) : (reply as Reply);
      await route.fulfill({ status: r.status ?? 200, contentType: "application/json", body: JSON.stringify(r.body) });
    });
  }
  return calls;
}

const SENT = { body: { success: true, expiresIn: 600, resendAfter: 30 } };
const CHECKOUT_URL = "https://demo-shop.myshopify.com/cart/c/hWN1fake?key=abc";

describe("the storefront modal against the contract (Chromium, phone viewport)", () => {
  let server: RunningServer;
  let browser: Browser;
  useBrowserStore({}, (s, b) => {
    [server, browser] = [s, b];
  });

  it("is an accessible dialog: labelled, focus on the number, focus kept inside, Esc closes and gives focus back", async () => {
    const { page, context, errors } = await openStorefront(browser, server.url);
    const dialog = await openModal(page);
    await expect(dialog.getAttribute("aria-modal")).resolves.toBe("true");
    await expect(page.getByRole("dialog", { name: "Confirm your order" }).isVisible()).resolves.toBe(true);
    const phone = page.getByLabel("Mobile number");
    await expect(phone.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await expect(phone.getAttribute("autocomplete")).resolves.toBe("tel");
    await expect(page.getByLabel("Country").inputValue()).resolves.toBe("IN"); // the market's country
    for (let i = 0; i < 8; i++) await page.keyboard.press("Tab");
    await expect(page.evaluate(() => Boolean(document.activeElement?.closest("[role=dialog]")))).resolves.toBe(true);
    for (let i = 0; i < 8; i++) await page.keyboard.press("Shift+Tab");
    await expect(page.evaluate(() => Boolean(document.activeElement?.closest("[role=dialog]")))).resolves.toBe(true);
    await shot(page, "modal-phone-en");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    await expect(page.evaluate(() => document.activeElement?.classList.contains("codv-buy"))).resolves.toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("says so when the number is not valid, before calling the app", async () => {
    const { page, context } = await openStorefront(browser, server.url);
    const calls = await answerApi(page, { "send-otp": SENT });
    await openModal(page);
    await page.getByLabel("Mobile number").fill("12345");
    await page.getByRole("button", { name: "Send code" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Enter a valid mobile number with its country code.");
    await expect(page.getByLabel("Mobile number").getAttribute("aria-invalid")).resolves.toBe("true");
    expect(calls["send-otp"]).toEqual([]);
    await context.close();
  });

  it("sends the code, counts down the resend, takes the code and the mode, verifies and goes to the checkout URL", async () => {
    const { page, context, errors } = await openStorefront(browser, server.url);
    const calls = await answerApi(page, {
      "send-otp": SENT,
      "verify-otp": { body: { success: true } },
      "create-checkout": { body: { checkoutUrl: CHECKOUT_URL } },
    });
    await page.getByLabel("Quantity").fill("2");
    await openModal(page);
    await page.getByLabel("Mobile number").fill("98765 43210");
    await page.getByRole("button", { name: "Send code" }).click();
    const code = page.getByLabel("Verification code");
    await code.waitFor();
    expect(calls["send-otp"]).toEqual([{ phone: "+919876543210", locale: "en", behaviour: { numbersTried: 0, codesAbandoned: 0, msToRequest: expect.any(Number) } }]);
    await expect(code.getAttribute("inputmode")).resolves.toBe("numeric");
    await expect(code.getAttribute("autocomplete")).resolves.toBe("one-time-code");
    await page.getByText(/Resend code in 0:(30|29)/).waitFor();
    await expect(page.getByRole("status").textContent()).resolves.toMatch(/Code sent to/);
    await code.fill("48291");
    await shot(page, "modal-code-en");
    await code.fill("482913");
    await page.getByRole("button", { name: "Confirm and continue" }).click();
    await page.getByRole("radio", { name: /Pay now online/ }).check();
    await page.getByRole("button", { name: "Continue to checkout" }).click();
    await page.waitForURL(CHECKOUT_URL);
    // The code is verified on its own: verify-otp names no mode the shopper has not chosen yet.
    expect(calls["verify-otp"]).toEqual([{ phone: "+919876543210", otp: "482913", behaviour: { numbersTried: 0, codesAbandoned: 0, msToRequest: expect.any(Number), msToType: expect.any(Number) } }]);
    expect(calls["create-checkout"]).toEqual([
      // source: where the shopper came from, the session's first touch (a direct visit here: empty).
      { selectedMode: "prepaid", phone: "+919876543210", variantId: DEMO_VARIANT, quantity: 2, productTitle: "Handwoven Cotton Kurta", source: "" },
    ]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("accepts a pasted SMS and reports a wrong code with the attempts left, then exhausted attempts with a new code", async () => {
    const { page, context } = await openStorefront(browser, server.url);
    const calls = await answerApi(page, {
      "send-otp": SENT,
      "verify-otp": [
        { status: 400, body: { success: false, error: "Wrong code.", code: "invalid_code", attemptsRemaining: 1 } },
        { status: 429, body: { success: false, error: "No attempts left.", code: "attempts_exhausted", attemptsRemaining: 0 } },
      ],
    });
    await openModal(page);
    await page.getByLabel("Mobile number").fill("+212 612 345 678");
    await page.getByRole("button", { name: "Send code" }).click();
    const code = page.getByLabel("Verification code");
    await code.waitFor();
    await code.focus();
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData("text/plain", "Your Demo Shop code is 111111. It expires in 10 minutes.");
      document.activeElement!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await expect(code.inputValue()).resolves.toBe("111111");
    await page.getByRole("button", { name: "Confirm and continue" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("That code is not right. 1 attempt left.");
    await expect(code.inputValue()).resolves.toBe("");
    await shot(page, "modal-wrong-code-en");
    await code.fill("222222");
    await page.getByRole("button", { name: "Confirm and continue" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Too many wrong codes. Request a new code to try again.");
    await expect(code.isDisabled()).resolves.toBe(true);
    await page.getByRole("button", { name: "Send a new code" }).click();
    await expect.poll(() => calls["send-otp"].length).toBe(2);
    await expect.poll(() => code.isEnabled()).toBe(true);
    // With the modal's behaviour fields (docs/risk.md): the first code was asked and never typed right.
    expect(calls["send-otp"][1]).toEqual({ phone: "+212612345678", locale: "en", behaviour: { numbersTried: 0, codesAbandoned: 1, msToRequest: expect.any(Number) } });
    await context.close();
  });

  it("counts down a rate limit on the send button", async () => {
    const { page, context } = await openStorefront(browser, server.url);
    await answerApi(page, { "send-otp": { status: 429, body: { success: false, error: "x", code: "rate_limited", retryAfter: 75 } } });
    await openModal(page);
    await page.getByLabel("Mobile number").fill("9876543210");
    await page.getByRole("button", { name: "Send code" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Too many codes were requested for this number. Try again in 1:15.");
    const send = page.getByRole("button", { name: /Send code \(1:1\d\)/ });
    await expect(send.isDisabled()).resolves.toBe(true);
    await context.close();
  });

  it("goes straight to the payment mode for a returning customer, with no code", async () => {
    const { page, context } = await openStorefront(browser, server.url);
    const calls = await answerApi(page, {
      "send-otp": { body: { success: true, skipped: true, reason: "returning_customer" } },
      "verify-otp": { body: { success: true } },
      "create-checkout": { body: { checkoutUrl: CHECKOUT_URL } },
    });
    await openModal(page);
    await page.getByLabel("Mobile number").fill("9876543210");
    await page.getByRole("button", { name: "Send code" }).click();
    await page.getByText("Welcome back! Your number is already verified.").waitFor();
    await expect(page.getByLabel("Verification code").isVisible()).resolves.toBe(false);
    await page.getByRole("radio", { name: /Part now, rest on delivery/ }).check();
    await page.getByRole("button", { name: "Continue to checkout" }).click();
    await page.waitForURL(CHECKOUT_URL);
    expect(calls["verify-otp"]).toEqual([]);
    expect(calls["create-checkout"]).toEqual([expect.objectContaining({ selectedMode: "partial", phone: "+919876543210" })]);
    await context.close();
  });

  it("prefills the number this browser verified, masked, and sends it with the device token; another browser sees an empty field", async () => {
    const first = await openStorefront(browser, server.url);
    await answerApi(first.page, {
      "send-otp": SENT,
      "verify-otp": { body: { success: true, proof: "p", deviceToken: "dt-1" } },
      "create-checkout": { body: { checkoutUrl: CHECKOUT_URL } },
    });
    await openModal(first.page);
    await first.page.getByLabel("Mobile number").fill("98765 43210");
    await first.page.getByRole("button", { name: "Send code" }).click();
    await first.page.getByLabel("Verification code").fill("123456");
    await first.page.getByRole("button", { name: "Confirm and continue" }).click();
    await first.page.getByRole("button", { name: "Continue to checkout" }).click();
    await first.page.waitForURL(CHECKOUT_URL);
    const saved = await first.context.storageState();
    await first.context.close();

    const back = await openStorefront(browser, server.url, "", saved);
    const calls = await answerApi(back.page, { "send-otp": { body: { success: true, skipped: true, reason: "returning_customer" } } });
    await openModal(back.page);
    const field = back.page.getByLabel("Mobile number");
    await expect(field.inputValue()).resolves.toBe("+91\u00a0\u2022\u2022\u2022\u2022\u2022\u20223210");
    await expect(back.page.getByText("The number you verified on this device.", { exact: false }).isVisible()).resolves.toBe(true);
    expect(await axeViolations(back.page)).toEqual([]);
    await shot(back.page, "modal-remembered-390x844");
    await back.page.setViewportSize({ width: 360, height: 640 });
    await shot(back.page, "modal-remembered-360x640");
    await back.page.getByRole("button", { name: "Send code" }).click();
    await back.page.getByText("Welcome back! Your number is already verified.").waitFor();
    expect(calls["send-otp"]).toEqual([{ phone: "+919876543210", deviceToken: "dt-1", locale: "en", behaviour: { numbersTried: 0, codesAbandoned: 0, msToRequest: expect.any(Number) } }]);
    // The whole number is nowhere on the page.
    expect(await back.page.content()).not.toContain("9876543210");
    await back.context.close();

    // Typing over it means another number.
    const edit = await openStorefront(browser, server.url, "", saved);
    const editCalls = await answerApi(edit.page, { "send-otp": SENT });
    await openModal(edit.page);
    await edit.page.getByLabel("Mobile number").fill("91234 56789");
    await edit.page.getByRole("button", { name: "Send code" }).click();
    await edit.page.getByLabel("Verification code").waitFor();
    expect(editCalls["send-otp"]).toEqual([{ phone: "+919123456789", locale: "en", behaviour: { numbersTried: 0, codesAbandoned: 0, msToRequest: expect.any(Number) } }]);
    await edit.context.close();

    const stranger = await openStorefront(browser, server.url);
    await openModal(stranger.page);
    await expect(stranger.page.getByLabel("Mobile number").inputValue()).resolves.toBe("");
    await stranger.context.close();
  });

  it("goes on to the store's own checkout without a subscription (402), once it said why, and when the cart cannot be built", async () => {
    const cases: Record<string, Reply>[] = [
      { "send-otp": { status: 402, body: { error: "x", code: "subscription_required" } } },
      { "send-otp": { body: { success: true, skipped: true, reason: "otp_disabled" } }, "create-checkout": { body: { fallback: true } } },
    ];
    for (const replies of cases) {
      const { page, context } = await openStorefront(browser, server.url);
      await answerApi(page, replies);
      await openModal(page);
      await page.getByLabel("Mobile number").fill("9876543210");
      await page.getByRole("button", { name: "Send code" }).click();
      // The paused shop (402) and the shop that asks no code now both say so before the shopper goes on.
      await page.locator(".codv-intro:visible", { hasText: /^Verification is not needed right now\./ }).waitFor();
      await page.getByRole("button", { name: "Continue to checkout" }).click();
      await page.waitForURL(`${server.url}/cart/${DEMO_VARIANT}:1?attributes%5B_cod_source%5D=`);
      await context.close();
    }
  });

  it("explains a failed send and offers the regular checkout when texts cannot be sent", async () => {
    const { page, context } = await openStorefront(browser, server.url);
    await answerApi(page, {
      "send-otp": [
        { status: 403, body: { success: false, error: "x", code: "country_not_allowed" } },
        { status: 502, body: { success: false, error: "x", code: "sms_unavailable" } },
      ],
    });
    await openModal(page);
    await page.getByLabel("Mobile number").fill("+44 7911 123456");
    await page.getByRole("button", { name: "Send code" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Cash on delivery is not available for numbers from this country.");
    await page.getByLabel("Mobile number").fill("9876543210");
    await page.getByRole("button", { name: "Send code" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("We cannot send codes right now. Please try again in a moment.");
    await page.getByRole("button", { name: "Continue to regular checkout" }).click();
    await page.waitForURL(`${server.url}/cart/${DEMO_VARIANT}:1?attributes%5B_cod_source%5D=`);
    await context.close();
  });

  it("buys the whole cart in cart mode: the cart's lines and token go to the app, the fallback keeps every line", async () => {
    const { page, context } = await openStorefront(browser, server.url, "?source=cart");
    await page.route("**/cart.js", (route) =>
      route.fulfill({
        contentType: "application/json",
        body: JSON.stringify({ token: "c1-7f3a", items: [{ variant_id: 44000000000001, quantity: 2 }, { variant_id: 44000000000003, quantity: 1 }] }),
      }),
    );
    const calls = await answerApi(page, { "send-otp": SENT, "verify-otp": { body: { success: true } }, "create-checkout": { body: { fallback: true } } });
    await openModal(page);
    await page.getByLabel("Mobile number").fill("9876543210");
    await page.getByRole("button", { name: "Send code" }).click();
    await page.getByLabel("Verification code").fill("123456");
    await page.getByRole("button", { name: "Confirm and continue" }).click();
    await page.getByRole("button", { name: "Continue to checkout" }).click();
    await page.waitForURL(`${server.url}/cart/44000000000001:2,44000000000003:1?attributes%5B_cod_source%5D=`);
    expect(calls["verify-otp"]).toEqual([{ phone: "+919876543210", otp: "123456", cartToken: "c1-7f3a", behaviour: { numbersTried: 0, codesAbandoned: 0, msToRequest: expect.any(Number), msToType: expect.any(Number) } }]);
    expect(calls["create-checkout"]).toEqual([
      {
        selectedMode: "cod",
        phone: "+919876543210",
        lines: [
          { variantId: "44000000000001", quantity: 2 },
          { variantId: "44000000000003", quantity: 1 },
        ],
        cartToken: "c1-7f3a",
        source: "",
      },
    ]);
    await context.close();
  });

  it("with one allowed mode, confirms as soon as the code is complete; reopening returns to the code without a new SMS", async () => {
    const { page, context } = await openStorefront(browser, server.url);
    await page.route("**/apps/cod/api/config", (route) =>
      route.fulfill({ contentType: "application/json", body: JSON.stringify({ otpEnabled: true, codeLength: 6, resendAfter: 30, locale: "en", modes: ["cod"], countries: [{ iso: "IN", dial: "91" }] }) }),
    );
    const calls = await answerApi(page, { "send-otp": SENT, "verify-otp": { body: { success: true } }, "create-checkout": { body: { checkoutUrl: CHECKOUT_URL } } });
    await openModal(page);
    await page.getByLabel("Mobile number").fill("9876543210");
    await page.getByRole("button", { name: "Send code" }).click();
    const code = page.getByLabel("Verification code");
    await code.waitFor();
    await expect(page.getByRole("radio").count()).resolves.toBe(0);
    await page.keyboard.press("Escape");
    await openModal(page);
    await code.waitFor();
    expect(calls["send-otp"]).toHaveLength(1);
    await code.pressSequentially("654321");
    await page.waitForURL(CHECKOUT_URL);
    expect(calls["verify-otp"]).toEqual([{ phone: "+919876543210", otp: "654321", selectedMode: "cod", behaviour: { numbersTried: 0, codesAbandoned: 0, msToRequest: expect.any(Number), msToType: expect.any(Number) } }]);
    await context.close();
  });

  it("speaks Arabic right to left, with the number and the code left to right", async () => {
    const { page, context, errors } = await openStorefront(browser, server.url, "?locale=ar");
    await answerApi(page, { "send-otp": SENT, "verify-otp": { status: 400, body: { success: false, code: "invalid_code", attemptsRemaining: 3 } } });
    const dialog = await openModal(page, "اشترِ والدفع عند الاستلام");
    await expect(dialog.getAttribute("dir")).resolves.toBe("rtl");
    await page.getByLabel("رقم الجوال").fill("٩٨٧٦٥٤٣٢١٠");
    await page.getByRole("button", { name: "أرسل الرمز" }).click();
    const code = page.getByLabel("رمز التحقق");
    await code.waitFor();
    await expect(code.getAttribute("dir")).resolves.toBe("ltr");
    await code.fill("123456");
    await page.getByRole("button", { name: "تأكيد ومتابعة" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("الرمز غير صحيح. بقيت 3 محاولات.");
    await shot(page, "modal-code-ar");
    expect(errors).toEqual([]);
    await context.close();
  });
});
