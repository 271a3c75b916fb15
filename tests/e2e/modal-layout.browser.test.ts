import type { Browser, Locator, Page } from "playwright-core";
import type { RunningServer } from "../helpers/server";
import { answerApi, axeViolations, openModal, openStorefront, PHONE, SENT, shot, type Reply } from "./modal-helpers";
import { useBrowserStore } from "./browser-store";

/**
 * Where the shopper's next step is, and that there always is one (issue 27.4, 27.5): the main action
 * and the current error inside the visible viewport at phone and laptop sizes, with a phone's
 * keyboard open (the viewport shrunk); Enter on the code verifies the code only; every refusal of a
 * code by text offers what the shop allows (pay online, the code by WhatsApp, the store's checkout) or
 * the countdown. Positions are asserted, never timings.
 */
const CHECKOUT_URL = "https://demo-shop.myshopify.com/cart/c/hWN1fake?key=abc";
const THREE_MODES = {
  otpEnabled: true,
  codeLength: 6,
  resendAfter: 30,
  locale: "en",
  modes: ["cod", "prepaid", "partial"],
  countries: [{ iso: "IN", dial: "91" }],
  pricing: { currency: "INR", codFee: { type: "fixed", value: 49 }, prepaidDiscount: { type: "percentage", value: 5 }, deposit: { type: "percentage", value: 20 } },
  whatsapp: true,
};

/** Sizes the issue measured, and the height an on-screen keyboard leaves on each phone. */
const SIZES = [
  { name: "390x844", device: PHONE, keyboard: 500 },
  { name: "360x640", device: { ...PHONE, viewport: { width: 360, height: 640 } }, keyboard: 340 },
  { name: "1366x768", device: { viewport: { width: 1366, height: 768 } }, keyboard: null },
];

/**
 * The element is inside the viewport and on top at its centre (not covered, not scrolled away). Polled:
 * after the viewport shrinks the sheet follows on the next resize event, and only the position counts.
 */
async function expectInView(page: Page, locator: Locator, what: string) {
  const problems = async () => {
    const box = await locator.boundingBox();
    if (!box) return [`${what}: not rendered`];
    const { width, height } = page.viewportSize()!;
    const out: string[] = [];
    if (box.y < 0) out.push(`${what}: top ${box.y} above the viewport`);
    if (box.y + box.height > height + 0.5) out.push(`${what}: bottom ${box.y + box.height} below ${height}`);
    if (box.x < 0 || box.x + box.width > width + 0.5) out.push(`${what}: outside the width ${width}`);
    const onTop = await locator.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return hit !== null && (hit === el || el.contains(hit));
    });
    if (!onTop) out.push(`${what}: covered`);
    return out;
  };
  await expect.poll(problems, { timeout: 5000, interval: 50 }).toEqual([]);
}

async function withKeyboard(page: Page, height: number | null, check: () => Promise<void>) {
  await check();
  if (height === null) return;
  const full = page.viewportSize()!;
  await page.setViewportSize({ width: full.width, height });
  try {
    await check();
  } finally {
    await page.setViewportSize(full);
  }
}

describe("the modal's main action, errors and ways forward (Chromium)", () => {
  let server: RunningServer;
  let browser: Browser;
  useBrowserStore({}, (s, b) => {
    [server, browser] = [s, b];
  });

  async function open(size: (typeof SIZES)[number], config: object, replies: Record<string, Reply | Reply[]>) {
    const { page, context, errors } = await openStorefront(browser, server.url, "", undefined, size.device);
    await page.route("**/apps/cod/api/config", (route) => route.fulfill({ contentType: "application/json", body: JSON.stringify(config) }));
    const calls = await answerApi(page, replies);
    await openModal(page);
    return { page, context, errors, calls };
  }

  for (const size of SIZES) {
    it(`keeps the main action and the current error in view at ${size.name}${size.keyboard ? ` and with the keyboard open (${size.keyboard} px)` : ""}, with three ways to pay`, async () => {
      const { page, context, errors, calls } = await open(size, THREE_MODES, {
        "send-otp": SENT,
        "verify-otp": [{ status: 400, body: { success: false, code: "invalid_code", attemptsRemaining: 2 } }, { body: { success: true, proof: "p" } }],
        "create-checkout": { body: { checkoutUrl: CHECKOUT_URL } },
      });
      const send = page.getByRole("button", { name: "Send code" });
      await withKeyboard(page, size.keyboard, () => expectInView(page, send, "Send code"));
      await page.getByLabel("Mobile number").fill("12");
      await send.click();
      await withKeyboard(page, size.keyboard, async () => {
        await expectInView(page, page.getByRole("alert"), "invalid number error");
        await expectInView(page, send, "Send code after the error");
      });

      await page.getByLabel("Mobile number").fill("98765 43210");
      await send.click();
      const code = page.getByLabel("Verification code");
      await code.waitFor();
      const confirm = page.getByRole("button", { name: "Confirm and continue" });
      await withKeyboard(page, size.keyboard, () => expectInView(page, confirm, "Confirm and continue"));
      await shot(page, `layout-code-${size.name}`);

      // A wrong code: the error and the action stay in sight, the keyboard open.
      await code.fill("111111");
      await code.press("Enter");
      await page.getByText("That code is not right. 2 attempts left.").waitFor();
      await withKeyboard(page, size.keyboard, async () => {
        await expectInView(page, page.getByRole("alert"), "wrong code error");
        await expectInView(page, confirm, "Confirm and continue after the error");
      });
      await shot(page, `layout-wrong-code-${size.name}`);

      // Enter on the right code verifies it, and nothing more: the modes come next, in sight.
      await code.fill("222222");
      await code.press("Enter");
      const next = page.getByRole("button", { name: "Continue to checkout" });
      await next.waitFor();
      expect(calls["verify-otp"].at(-1)).toEqual({ phone: "+919876543210", otp: "222222", behaviour: { numbersTried: 0, codesAbandoned: 0, msToRequest: expect.any(Number), msToType: expect.any(Number) } });
      expect(calls["create-checkout"]).toEqual([]);
      await expect(page.getByRole("radio").count()).resolves.toBe(3);
      await withKeyboard(page, size.keyboard, () => expectInView(page, next, "Continue to checkout"));
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, `layout-modes-${size.name}`);
      // Where the options run under the footer, the body shows a shadow at the edge it can scroll past.
      const body = await page.locator(".codv-body").evaluate((el) => {
        const style = getComputedStyle(el);
        return { overflows: el.scrollHeight > el.clientHeight + 1, shadows: (style.backgroundImage.match(/radial-gradient/g) ?? []).length, attachment: style.backgroundAttachment };
      });
      if (size.name === "360x640") expect(body.overflows).toBe(true);
      if (body.overflows) expect(body).toMatchObject({ shadows: 2, attachment: "local, local, scroll, scroll" });
      await page.getByRole("radio", { name: /Part now, rest on delivery/ }).check();
      await next.click();
      await page.waitForURL(CHECKOUT_URL);
      expect(calls["create-checkout"]).toEqual([expect.objectContaining({ selectedMode: "partial", phone: "+919876543210", proof: "p" })]);
      expect(errors).toEqual([]);
      await context.close();
    }, 60_000);
  }

  const refusals: [string, Reply, { whatsapp: boolean; text: RegExp }][] = [
    ["phone_blocked", { status: 403, body: { success: false, code: "phone_blocked" } }, { whatsapp: false, text: /cannot be used for cash on delivery/ }],
    ["country_not_allowed", { status: 403, body: { success: false, code: "country_not_allowed" } }, { whatsapp: false, text: /not available for numbers from this country/ }],
    ["rate_limited", { status: 429, body: { success: false, code: "rate_limited", retryAfter: 300 } }, { whatsapp: false, text: /Try again in [45]:\d\d/ }],
    ["phone_unreachable", { status: 400, body: { success: false, code: "phone_unreachable" } }, { whatsapp: true, text: /could not send a text/ }],
    ["sms_unavailable", { status: 502, body: { success: false, code: "sms_unavailable" } }, { whatsapp: true, text: /cannot send codes right now/ }],
  ];

  for (const [code, reply, expected] of refusals) {
    it(`offers a way forward after ${code}: pay online (the prepaid checkout)${expected.whatsapp ? " or the code by WhatsApp" : ""}, in view and accessible`, async () => {
      for (const size of SIZES.slice(0, 2)) {
        const { page, context, errors, calls } = await open(size, THREE_MODES, {
          "send-otp": [reply, SENT],
          "create-checkout": { body: { checkoutUrl: CHECKOUT_URL } },
        });
        await page.getByLabel("Mobile number").fill("98765 43210");
        await page.getByRole("button", { name: "Send code" }).click();
        await expect.poll(() => page.getByRole("alert").textContent()).toMatch(expected.text);
        const payOnline = page.getByRole("button", { name: "Pay online instead" });
        const whatsapp = page.getByRole("button", { name: "Get the code on WhatsApp" });
        await withKeyboard(page, size.keyboard, async () => {
          await expectInView(page, page.getByRole("alert"), `${code} error`);
          await expectInView(page, payOnline, "Pay online instead");
          if (expected.whatsapp) await expectInView(page, whatsapp, "Get the code on WhatsApp");
        });
        await expect(whatsapp.isVisible()).resolves.toBe(expected.whatsapp);
        expect(await axeViolations(page), `${code} at ${size.name}`).toEqual([]);
        await shot(page, `refusal-${code}-${size.name}`);

        if (expected.whatsapp && size === SIZES[0]) {
          await whatsapp.click();
          await page.getByLabel("Verification code").waitFor();
          expect(calls["send-otp"]).toEqual([
            // A refused send is no code asked: the second still counts none abandoned.
            { phone: "+919876543210", locale: "en", behaviour: { numbersTried: 0, codesAbandoned: 0, msToRequest: expect.any(Number) } },
            { phone: "+919876543210", locale: "en", channel: "whatsapp", behaviour: { numbersTried: 0, codesAbandoned: 0, msToRequest: expect.any(Number) } },
          ]);
        } else {
          await payOnline.click();
          await page.waitForURL(CHECKOUT_URL);
          expect(calls["create-checkout"]).toEqual([expect.objectContaining({ selectedMode: "prepaid", phone: "+919876543210" })]);
        }
        expect(errors).toEqual([]);
        await context.close();
      }
    }, 60_000);
  }

  it("where the shop takes only cash on delivery: the store's checkout after a refusal, the countdown alone while waiting", async () => {
    const codOnly = { ...THREE_MODES, modes: ["cod"], whatsapp: false };
    let { page, context } = await open(SIZES[0], codOnly, { "send-otp": { status: 403, body: { success: false, code: "phone_blocked" } } });
    await page.getByLabel("Mobile number").fill("98765 43210");
    await page.getByRole("button", { name: "Send code" }).click();
    await page.getByRole("alert").waitFor();
    await expect(page.getByRole("button", { name: "Pay online instead" }).isVisible()).resolves.toBe(false);
    await expectInView(page, page.getByRole("button", { name: "Continue to regular checkout" }), "Continue to regular checkout");
    expect(await axeViolations(page)).toEqual([]);
    await context.close();

    ({ page, context } = await open(SIZES[0], codOnly, { "send-otp": { status: 429, body: { success: false, code: "rate_limited", retryAfter: 90 } } }));
    await page.getByLabel("Mobile number").fill("98765 43210");
    await page.getByRole("button", { name: "Send code" }).click();
    const countdown = page.getByRole("button", { name: /Send code \(1:[23]\d\)/ });
    await countdown.waitFor();
    await expectInView(page, countdown, "the countdown");
    await expect(page.getByRole("button", { name: "Pay online instead" }).isVisible()).resolves.toBe(false);
    await expect(page.getByRole("button", { name: "Continue to regular checkout" }).isVisible()).resolves.toBe(false);
    await context.close();
  });
});
