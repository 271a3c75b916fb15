import type { Browser } from "playwright-core";
import type { RunningServer } from "../helpers/server";
import { answerApi, axeViolations, openModal, openStorefront } from "./modal-helpers";
import { useBrowserStore } from "./browser-store";

/**
 * The code's channel (docs/whatsapp.md): where the shop lets the shopper choose, the phone step offers
 * SMS or WhatsApp, the choice goes with send-otp, and the code step says where the code went.
 */
const CONFIG = {
  otpEnabled: true,
  codeLength: 6,
  resendAfter: 30,
  locale: "en",
  modes: ["cod"],
  countries: [{ iso: "IN", dial: "91" }],
  whatsapp: true,
  channelChoice: true,
};

describe("the modal's SMS or WhatsApp choice (Chromium)", () => {
  let server: RunningServer;
  let browser: Browser;
  useBrowserStore({}, (s, b) => {
    [server, browser] = [s, b];
  });

  async function open(config: object, sent: object) {
    const { page, context, errors } = await openStorefront(browser, server.url, "");
    await page.route("**/apps/cod/api/config", (route) => route.fulfill({ contentType: "application/json", body: JSON.stringify(config) }));
    const calls = await answerApi(page, { "send-otp": { body: sent } });
    await openModal(page);
    return { page, context, errors, calls };
  }

  it("offers both channels, sends the choice, and says the code went on WhatsApp", async () => {
    const { page, context, errors, calls } = await open(CONFIG, { success: true, expiresIn: 600, resendAfter: 30, channel: "whatsapp" });
    const group = page.getByRole("group", { name: "Get the code by" });
    await expect(group.getByRole("radio", { name: "Text message (SMS)" }).isChecked()).resolves.toBe(true);
    await group.getByRole("radio", { name: "WhatsApp" }).check();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel("Mobile number").fill("98765 43210");
    await page.getByRole("button", { name: "Send code" }).click();
    await page.getByText(/^Enter the 6-digit code we sent on WhatsApp to \+91/).waitFor();
    expect(calls["send-otp"]).toEqual([expect.objectContaining({ phone: "+919876543210", channel: "whatsapp" })]);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it("says a text when WhatsApp was refused and SMS took over, and shows no choice where the shop gives none", async () => {
    const chosen = await open(CONFIG, { success: true, expiresIn: 600, resendAfter: 30, channel: "sms" });
    await chosen.page.getByRole("radio", { name: "WhatsApp" }).check();
    await chosen.page.getByLabel("Mobile number").fill("98765 43210");
    await chosen.page.getByRole("button", { name: "Send code" }).click();
    await chosen.page.getByText(/^WhatsApp could not take the message, so we sent the 6-digit code by text message \(SMS\) to \+91/).waitFor();
    await chosen.context.close();

    const plain = await open({ ...CONFIG, channelChoice: false }, { success: true, expiresIn: 600, resendAfter: 30 });
    await expect(plain.page.getByRole("radio").count()).resolves.toBe(0);
    await plain.page.getByLabel("Mobile number").fill("98765 43210");
    await plain.page.getByRole("button", { name: "Send code" }).click();
    await plain.page.getByText(/^Enter the 6-digit code we sent to \+91/).waitFor();
    expect(plain.calls["send-otp"]).toEqual([expect.not.objectContaining({ channel: expect.anything() })]);
    await plain.context.close();
  }, 60_000);
});
