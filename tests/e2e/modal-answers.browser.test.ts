import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import type { RunningServer } from "../helpers/server";
import { ROOT } from "../setup/databases";
import { answerApi, axeViolations, openStorefront, shot, type Reply } from "./modal-helpers";
import { useBrowserStore } from "./browser-store";

/**
 * Answers the modal words and ways it lays out, driven by the keyboard alone at a phone's, a tablet's and
 * a laptop's size, axe clean on the way:
 *  - a send limit met after asking for the code on WhatsApp offers the code by text (a send like any other:
 *    the server applies every limit to it) beside paying online;
 *  - at 360x640 every payment option is reachable, and the one focused is shown whole above the footer;
 *  - a paused shop's sheet never says this browser remembers the number, on the way to checkout either;
 *  - verify-otp's `already_verified` (another answer of the right code came first) reads "already verified"
 *    and goes on, and send-otp's `cap_fallback` (the daily cap spent; cash on delivery confirmed after
 *    purchase) says so and goes on, in each of the modal's five languages.
 */
const SIZES: { name: string; device: BrowserContextOptions }[] = [
  { name: "360x640", device: { viewport: { width: 360, height: 640 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } },
  { name: "768x1024", device: { viewport: { width: 768, height: 1024 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true } },
  { name: "1280x800", device: { viewport: { width: 1280, height: 800 } } },
];

const CHECKOUT_URL = "https://demo-shop.myshopify.com/cart/c/hWN1fake?key=abc";
const CONFIG = { otpEnabled: true, codeLength: 6, resendAfter: 30, locale: "en", modes: ["cod"], countries: [{ iso: "IN", dial: "91" }], whatsapp: true, channelChoice: true };
const THREE_MODES = {
  ...CONFIG,
  modes: ["cod", "prepaid", "partial"],
  pricing: { currency: "INR", codFee: { type: "fixed", value: 49 }, prepaidDiscount: { type: "percentage", value: 5 }, deposit: { type: "percentage", value: 20 } },
};
const SENT = { body: { success: true, expiresIn: 600, resendAfter: 0 } };
const LOCALES: Record<string, string> = { en: "en.default.json", hi: "hi.json", ar: "ar.json", fr: "fr.json", es: "es.json" };

function localeTexts(locale: string): Record<string, string> {
  return JSON.parse(fs.readFileSync(path.join(ROOT, "extensions", "cod-verify", "locales", LOCALES[locale]), "utf8")).cod_verify;
}

describe("the modal's answers and ways forward (Chromium, keyboard only)", () => {
  let server: RunningServer;
  let browser: Browser;
  useBrowserStore({}, (s, b) => {
    [server, browser] = [s, b];
  });

  async function open(device: BrowserContextOptions, config: object, replies: Record<string, Reply | Reply[]>, locale = "en") {
    const { page, context, errors } = await openStorefront(browser, server.url, `?locale=${locale}`, undefined, device);
    await page.route("**/apps/cod/api/config", (route) => route.fulfill({ contentType: "application/json", body: JSON.stringify({ ...config, locale }) }));
    const calls = await answerApi(page, replies);
    // The keyboard alone: the buy button focused, Enter opens the sheet with the number field focused.
    await page.locator("[data-cod-open]").first().focus();
    await page.keyboard.press("Enter");
    await page.getByRole("dialog").waitFor();
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe("tel");
    return { page, context, errors, calls };
  }

  /** Types the number where focus is and sends it with Enter. */
  async function sendNumber(page: Page) {
    await page.keyboard.type("98765 43210");
    await page.keyboard.press("Enter");
  }

  /** Tab (forward) until the element named `name` has the focus; fails when it never does. */
  async function tabTo(page: Page, name: string) {
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press("Tab");
      if ((await page.evaluate(() => document.activeElement?.textContent ?? "")) === name) return;
    }
    throw new Error(`${name} is not reachable with Tab`);
  }

  /** Whether `selector`'s element lies whole inside the sheet's scrolling body and is on top there (not under the footer). */
  function wholeInBody(page: Page, selector: string, index: number) {
    return page.evaluate(
      ([sel, i]) => {
        const el = document.querySelectorAll(sel)[i as number] as HTMLElement;
        const body = document.querySelector(".codv-backdrop:not([hidden]) .codv-body")!.getBoundingClientRect();
        const r = el.getBoundingClientRect();
        const inside = r.top >= body.top - 0.5 && r.bottom <= body.bottom + 0.5;
        // Its last line (the amount) is what a shopper reads last: on top, not under the footer.
        const hit = document.elementFromPoint(r.left + r.width / 2, r.bottom - 6);
        return inside && hit !== null && el.contains(hit);
      },
      [selector, index] as const,
    );
  }

  for (const size of SIZES) {
    it(`at the send limit after asking on WhatsApp, offers the code by text beside paying online (${size.name})`, async () => {
      const limited: Reply = { status: 429, body: { success: false, code: "rate_limited", error: "x", retryAfter: 300 } };
      const { page, context, errors, calls } = await open(size.device, { ...CONFIG, modes: ["cod", "prepaid"] }, { "send-otp": [limited, { body: { ...SENT.body, channel: "sms" } }] });
      await page.keyboard.press("Tab"); // the channel choice follows the number field: SMS
      await page.keyboard.press("ArrowDown"); // WhatsApp
      await page.keyboard.press("Shift+Tab");
      await sendNumber(page);
      await page.getByRole("alert").filter({ hasText: /Too many codes were requested for this number\. Try again in [45]:\d\d\./ }).waitFor();
      const sms = page.getByRole("button", { name: "Send by SMS instead" });
      await expect(sms.isVisible()).resolves.toBe(true);
      await expect(page.getByRole("button", { name: "Pay online instead" }).isVisible()).resolves.toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, `modal-whatsapp-limit-${size.name}`);
      // Reached and pressed by the keyboard, during the wait: a send on the SMS channel, answered by the server.
      await tabTo(page, "Send by SMS instead");
      await page.keyboard.press("Enter");
      await page.getByLabel("Verification code").waitFor();
      expect(calls["send-otp"].map((b) => (b as { channel?: string }).channel)).toEqual(["whatsapp", "sms"]);
      // The wait was the refused WhatsApp request's: the code's resend is not held by it.
      await expect.poll(() => page.getByRole("button", { name: "Resend code" }).isEnabled()).toBe(true);
      expect(errors).toEqual([]);
      await context.close();
    });

    it(`reaches every payment option and shows the focused one whole above the footer (${size.name})`, async () => {
      const { page, context, errors } = await open(size.device, THREE_MODES, { "send-otp": SENT, "verify-otp": { body: { success: true, proof: "p" } } });
      await sendNumber(page);
      await page.getByLabel("Verification code").waitFor();
      await page.keyboard.type("123456");
      await page.keyboard.press("Enter");
      await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe("cod");
      for (const [index, mode] of ["prepaid", "partial"].entries()) {
        await page.keyboard.press("ArrowDown");
        await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe(mode);
        await expect.poll(() => wholeInBody(page, ".codv-backdrop:not([hidden]) .codv-mode", index + 1), { message: `${mode} whole in view` }).toBe(true);
      }
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, `modal-third-option-focused-${size.name}`);
      // Scrolled rather than focused (a thumb): each option in turn is whole in view.
      for (const index of [2, 1, 0]) {
        await page.locator(".codv-backdrop:not([hidden]) .codv-mode").nth(index).evaluate((el) => el.scrollIntoView({ block: "nearest" }));
        await expect.poll(() => wholeInBody(page, ".codv-backdrop:not([hidden]) .codv-mode", index)).toBe(true);
      }
      expect(errors).toEqual([]);
      await context.close();
    });

    it(`never says a paused shop's browser remembers the number, on the way to checkout either (${size.name})`, async () => {
      const { page, context, errors } = await open(size.device, CONFIG, { "send-otp": { status: 402, body: { success: false, code: "subscription_required", error: "x" } } });
      const note = page.locator(".codv-backdrop:not([hidden]) .codv-note");
      await expect(note.isVisible()).resolves.toBe(true); // the phone step says what the number is for
      await sendNumber(page);
      await page.getByText("Verification is not needed right now. Continue to checkout.").waitFor();
      await expect(note.isVisible()).resolves.toBe(false);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, `modal-paused-${size.name}`);
      // On the way to the store's checkout the note must not come back: every change of the sheet is watched
      // until the page is left, and what was seen is kept in the tab's session (the checkout is this origin's).
      await page.evaluate(() => {
        const el = document.querySelector<HTMLElement>(".codv-backdrop:not([hidden]) .codv-note")!;
        const seen = () => sessionStorage.setItem("noteSeen", String(sessionStorage.getItem("noteSeen") === "true" || el.offsetParent !== null));
        sessionStorage.setItem("noteSeen", "false");
        new MutationObserver(seen).observe(document.querySelector(".codv-dialog")!, { attributes: true, subtree: true, childList: true });
        addEventListener("pagehide", () => {
          seen();
          sessionStorage.setItem("left", "true");
        });
      });
      await page.keyboard.press("Enter");
      await page.waitForURL(/\/cart\/44000000000002:1/);
      expect(await page.evaluate(() => [sessionStorage.getItem("left"), sessionStorage.getItem("noteSeen")])).toEqual(["true", "false"]);
      expect(errors).toEqual([]);
      await context.close();
    });

    it(`reads a second answer of the right code as already verified and goes on (${size.name})`, async () => {
      const already: Reply = { status: 409, body: { success: false, code: "already_verified", error: "x" } };
      const three = await open(size.device, THREE_MODES, { "send-otp": SENT, "verify-otp": already });
      await sendNumber(three.page);
      await three.page.getByLabel("Verification code").waitFor();
      await three.page.keyboard.type("123456");
      await three.page.keyboard.press("Enter");
      await three.page.locator(".codv-intro:visible", { hasText: "This number is already verified." }).waitFor();
      await expect(three.page.getByRole("alert").isVisible()).resolves.toBe(false);
      await expect(three.page.getByText(/Too many wrong codes/).count()).resolves.toBe(0);
      await expect.poll(() => three.page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe("radio");
      expect(await axeViolations(three.page)).toEqual([]);
      await shot(three.page, `modal-already-verified-${size.name}`);
      expect(three.errors).toEqual([]);
      await three.context.close();

      // One way to pay: on to checkout at once, as after a first right answer.
      const one = await open(size.device, CONFIG, { "send-otp": SENT, "verify-otp": already, "create-checkout": { body: { checkoutUrl: CHECKOUT_URL } } });
      await sendNumber(one.page);
      await one.page.getByLabel("Verification code").waitFor();
      await one.page.keyboard.type("123456");
      await one.page.waitForURL(CHECKOUT_URL);
      expect(one.calls["create-checkout"]).toEqual([expect.objectContaining({ selectedMode: "cod", phone: "+919876543210" })]);
      expect(one.errors).toEqual([]);
      await one.context.close();
    });

    it(`says the code is not needed when the shop's daily cap is spent and the order is confirmed after purchase (${size.name})`, async () => {
      const capped: Reply = { body: { success: true, skipped: true, reason: "cap_fallback" } };
      const three = await open(size.device, THREE_MODES, { "send-otp": capped });
      await sendNumber(three.page);
      await three.page.locator(".codv-intro:visible", { hasText: localeTexts("en").cap_fallback_choose }).waitFor();
      await expect.poll(() => three.page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe("radio");
      expect(await axeViolations(three.page)).toEqual([]);
      await shot(three.page, `modal-cap-fallback-${size.name}`);
      expect(three.errors).toEqual([]);
      await three.context.close();

      // One way to pay: said, and on to checkout on the shopper's word.
      const one = await open(size.device, CONFIG, { "send-otp": capped, "create-checkout": { body: { checkoutUrl: CHECKOUT_URL } } });
      await sendNumber(one.page);
      await one.page.getByText(localeTexts("en").cap_fallback, { exact: true }).waitFor();
      await expect.poll(() => one.page.evaluate(() => document.activeElement?.textContent)).toBe("Continue to checkout");
      expect(await axeViolations(one.page)).toEqual([]);
      await one.page.keyboard.press("Enter");
      await one.page.waitForURL(CHECKOUT_URL);
      expect(one.calls["create-checkout"]).toEqual([expect.objectContaining({ selectedMode: "cod", phone: "+919876543210" })]);
      expect(one.errors).toEqual([]);
      await one.context.close();
    });
  }

  it.each(Object.keys(LOCALES))("words already verified and the cap's fallback in %s", async (locale) => {
    {
      const texts = localeTexts(locale);
      const capped = await open(SIZES[0].device, CONFIG, { "send-otp": { body: { success: true, skipped: true, reason: "cap_fallback" } } }, locale);
      await sendNumber(capped.page);
      await capped.page.getByText(texts.cap_fallback, { exact: true }).waitFor();
      expect(await axeViolations(capped.page)).toEqual([]);
      await shot(capped.page, `modal-cap-fallback-${locale}`);
      expect(capped.errors).toEqual([]);
      await capped.context.close();

      const already = await open(SIZES[0].device, THREE_MODES, { "send-otp": SENT, "verify-otp": { status: 409, body: { success: false, code: "already_verified", error: "x" } } }, locale);
      await sendNumber(already.page);
      await already.page.locator(".codv-code").waitFor();
      await already.page.keyboard.type("123456");
      await already.page.keyboard.press("Enter");
      await already.page.locator(".codv-intro:visible", { hasText: texts.already_verified }).waitFor();
      await expect(already.page.getByText(texts.error_attempts_exhausted).count()).resolves.toBe(0);
      expect(await axeViolations(already.page)).toEqual([]);
      await shot(already.page, `modal-already-verified-${locale}`);
      expect(already.errors).toEqual([]);
      await already.context.close();
    }
  });
});
