import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import type { RunningServer } from "../helpers/server";
import { ROOT } from "../setup/databases";
import { answerApi, axeViolations, openStorefront, shot, type Reply } from "./modal-helpers";
import { useBrowserStore } from "./browser-store";

/**
 * Where the shopper used to be left guessing, driven by the keyboard alone at a phone's, a tablet's and
 * a laptop's size, with no axe violation on the way:
 *  - the shop is paused (send-otp's 402): the sheet says verification is not needed now, and the shopper
 *    goes on to checkout with their own click, in each of the modal's languages;
 *  - the code asked for on WhatsApp went as a text (WhatsApp refused it, e.g. at its send limit): said, and
 *    resends go by text; WhatsApp failing outright offers "Send by SMS instead";
 *  - a high band: "Number verified." heads the payment step above the choices, as for every band.
 */
const SIZES: { name: string; device: BrowserContextOptions }[] = [
  { name: "360x640", device: { viewport: { width: 360, height: 640 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } },
  { name: "768x1024", device: { viewport: { width: 768, height: 1024 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true } },
  { name: "1280x800", device: { viewport: { width: 1280, height: 800 } } },
];

const CONFIG = { otpEnabled: true, codeLength: 6, resendAfter: 30, locale: "en", modes: ["cod"], countries: [{ iso: "IN", dial: "91" }], whatsapp: true, channelChoice: true };
const SENT = { success: true, expiresIn: 600, resendAfter: 0 };

function localeTexts(file: string): Record<string, string> {
  return JSON.parse(fs.readFileSync(path.join(ROOT, "extensions", "cod-verify", "locales", file), "utf8")).cod_verify;
}

describe("the modal where a shopper was left guessing (Chromium, keyboard only)", () => {
  let server: RunningServer;
  let browser: Browser;
  useBrowserStore({}, (s, b) => {
    [server, browser] = [s, b];
  });

  async function open(device: BrowserContextOptions, config: object, replies: Record<string, Reply | Reply[]>, query = "") {
    const { page, context, errors } = await openStorefront(browser, server.url, query, undefined, device);
    await page.route("**/apps/cod/api/config", (route) => route.fulfill({ contentType: "application/json", body: JSON.stringify(config) }));
    const calls = await answerApi(page, replies);
    // The keyboard alone: the buy button focused, Enter opens the sheet with the number field focused.
    await page.locator("[data-cod-open]").first().focus();
    await page.keyboard.press("Enter");
    await page.getByRole("dialog").waitFor();
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe("tel");
    return { page, context, errors, calls };
  }

  /** Types the number where focus is and sends it with Enter. */
  async function sendNumber(page: Page, national = "98765 43210") {
    await page.keyboard.type(national);
    await page.keyboard.press("Enter");
  }

  const focusedName = (page: Page) => page.evaluate(() => document.activeElement?.textContent ?? "");

  for (const size of SIZES) {
    it(`says plainly that a paused shop needs no verification now, and goes on to checkout on the shopper's word (${size.name})`, async () => {
      const { page, context, errors, calls } = await open(size.device, CONFIG, { "send-otp": { status: 402, body: { success: false, code: "plan_limit_reached", error: "x" } } });
      await sendNumber(page);
      await page.getByText("Verification is not needed right now. Continue to checkout.").waitFor();
      // Told, not moved on: still on the storefront, the way forward focused.
      expect(new URL(page.url()).pathname).toBe("/dev/storefront");
      await expect.poll(() => focusedName(page)).toBe("Continue to checkout");
      // Nothing is verified or remembered here: the note that says this browser remembers the number is gone.
      expect(await page.getByText(/this browser remembers your number/).isVisible()).toBe(false);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, `modal-paused-${size.name}`);
      await page.keyboard.press("Enter");
      await page.waitForURL(/\/cart\/44000000000002:1/);
      expect(calls["send-otp"]).toHaveLength(1);
      expect(errors).toEqual([]);
      await context.close();
    });

    it(`puts "Number verified." above the choices for a high band as for a low one (${size.name})`, async () => {
      const config = { ...CONFIG, modes: ["cod", "prepaid", "partial"] };
      const high = { allowedModes: ["prepaid", "partial"], risk: { band: "high", reasons: [{ code: "phone_prepaid_only", text: "x" }] } };
      for (const band of ["low", "high"] as const) {
        const verified = { success: true, proof: "p", ...(band === "high" ? high : { allowedModes: ["cod", "prepaid", "partial"], risk: { band: "low", reasons: [] } }) };
        const { page, context, errors } = await open(size.device, config, { "send-otp": { body: SENT }, "verify-otp": { body: verified } });
        await sendNumber(page);
        await page.getByLabel("Verification code").waitFor();
        await page.keyboard.type("123456");
        await page.keyboard.press("Enter");
        const intro = page.locator(".codv-intro:visible", { hasText: "Number verified." });
        await intro.waitFor();
        if (band === "high") await expect(intro.textContent()).resolves.toBe("Number verified. For this phone number the store does not offer cash on delivery. You can pay another way below.");
        const introBox = (await intro.boundingBox())!;
        const firstChoice = (await page.getByRole("radio").first().boundingBox())!;
        expect(introBox.y + introBox.height).toBeLessThanOrEqual(firstChoice.y);
        // Said once, where the eye lands first: not again in the status line under the choices.
        await expect(page.locator(".codv-status").textContent()).resolves.toBe("");
        await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe("radio");
        expect(await axeViolations(page)).toEqual([]);
        await shot(page, `modal-verified-${band}-${size.name}`);
        expect(errors).toEqual([]);
        await context.close();
      }
    });

    it(`says the code went by text when WhatsApp refused it, and offers SMS when WhatsApp fails outright (${size.name})`, async () => {
      // WhatsApp refused at once (its send limit): the server texted the code instead.
      const fellBack = await open(size.device, CONFIG, { "send-otp": [{ body: { ...SENT, channel: "sms" } }] });
      await fellBack.page.keyboard.press("Tab"); // the channel choice follows the number field: SMS
      await fellBack.page.keyboard.press("ArrowDown"); // WhatsApp
      await expect(fellBack.page.getByRole("radio", { name: "WhatsApp" }).isChecked()).resolves.toBe(true);
      await fellBack.page.keyboard.press("Shift+Tab"); // back to the number
      await sendNumber(fellBack.page);
      await fellBack.page.getByText(/^WhatsApp could not take the message, so we sent the 6-digit code by text message \(SMS\) to \+91/).waitFor();
      expect(await axeViolations(fellBack.page)).toEqual([]);
      await shot(fellBack.page, `modal-whatsapp-fell-back-${size.name}`);
      // The resend goes by text.
      await fellBack.page.getByRole("button", { name: "Resend code" }).focus();
      await fellBack.page.keyboard.press("Enter");
      await expect.poll(() => fellBack.calls["send-otp"].length).toBe(2);
      expect(fellBack.calls["send-otp"]).toEqual([expect.objectContaining({ channel: "whatsapp" }), expect.objectContaining({ channel: "sms" })]);
      expect(fellBack.errors).toEqual([]);
      await fellBack.context.close();

      // WhatsApp and the immediate text both failed: "Send by SMS instead", and it asks for a text.
      const failed = await open(size.device, { ...CONFIG, channelChoice: false }, {
        "send-otp": [{ status: 502, body: { success: false, code: "sms_unavailable", error: "x" } }, { status: 502, body: { success: false, code: "sms_unavailable", error: "x" } }, { body: { ...SENT, channel: "sms" } }],
      });
      await sendNumber(failed.page);
      await failed.page.getByRole("alert").filter({ hasText: "We cannot send codes right now." }).waitFor();
      await expect(failed.page.getByRole("button", { name: "Send by SMS instead" }).isVisible()).resolves.toBe(false); // a text failed: WhatsApp is offered
      await failed.page.getByRole("button", { name: "Get the code on WhatsApp" }).focus();
      await failed.page.keyboard.press("Enter");
      const sms = failed.page.getByRole("button", { name: "Send by SMS instead" });
      await sms.waitFor();
      expect(await axeViolations(failed.page)).toEqual([]);
      await shot(failed.page, `modal-sms-instead-${size.name}`);
      await sms.focus();
      await failed.page.keyboard.press("Enter");
      await failed.page.getByLabel("Verification code").waitFor();
      expect(failed.calls["send-otp"].map((b) => (b as { channel?: string }).channel)).toEqual([undefined, "whatsapp", "sms"]);
      expect(failed.errors).toEqual([]);
      await failed.context.close();
    });
  }

  it("tells a paused shop's shopper in each of the modal's languages", async () => {
    const files: Record<string, string> = { en: "en.default.json", hi: "hi.json", ar: "ar.json", fr: "fr.json", es: "es.json" };
    for (const [locale, file] of Object.entries(files)) {
      const text = localeTexts(file).not_needed;
      expect(text).toBeTruthy();
      const { page, context, errors } = await open(SIZES[0].device, { ...CONFIG, locale }, { "send-otp": { status: 402, body: { success: false, code: "subscription_required", error: "x" } } }, `?locale=${locale}`);
      await sendNumber(page);
      await page.getByText(text, { exact: true }).waitFor();
      await expect.poll(() => focusedName(page)).toBe(localeTexts(file).continue_to_checkout);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, `modal-paused-${locale}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
