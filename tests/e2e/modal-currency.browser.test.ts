import type { Browser } from "playwright-core";
import type { RunningServer } from "../helpers/server";
import { answerApi, openModal, openStorefront, SENT, shot } from "./modal-helpers";
import { useBrowserStore } from "./browser-store";

/**
 * The modal's amounts in the cart's currency when the shop's is another (Chromium, the built bundle on
 * the local storefront): the split by the server's rule (app/shared/money.ts) to the currency's smallest
 * unit, a fixed saving of the shop's currency converted at the page's rate (window.Shopify.currency), no
 * fixed COD fee. A currency without decimals (JPY) and one with (EUR).
 */
describe("the modal's amounts in the shopper's currency", () => {
  let server: RunningServer;
  let browser: Browser;
  useBrowserStore({}, (s, b) => {
    [server, browser] = [s, b];
  });

  // The shop sells in USD: a $2 COD fee, a $5 prepaid code, a 60 % deposit. The product costs 1,299 of the cart's currency.
  const config = {
    otpEnabled: true,
    codeLength: 6,
    resendAfter: 30,
    locale: "en",
    modes: ["cod", "prepaid", "partial"],
    countries: [{ iso: "IN", dial: "91" }],
    pricing: { currency: "USD", codFee: { type: "fixed", value: 2 }, prepaidDiscount: { type: "fixed", value: 5 }, deposit: { type: "percentage", value: 60 } },
  };

  it.each([
    // 60 % of ¥1,299 is ¥779.4: ¥780 now (rounded up to the yen, as the server splits), ¥519 later; $5 at 150 is ¥750.
    ["JPY", 150, ["Items: ¥1,299", "¥549 now, you save ¥750", "¥780 now, ¥519 in cash on delivery"]],
    ["EUR", 0.92, ["Items: €1,299.00", "€1,294.40 now, you save €4.60", "€779.40 now, €519.60 in cash on delivery"]],
  ] as const)("%s", async (currency, rate, expected) => {
    const { page, context, errors } = await openStorefront(browser, server.url, `?currency=${currency}&rate=${rate}`);
    await page.route("**/apps/cod/api/config", (route) => route.fulfill({ contentType: "application/json", body: JSON.stringify(config) }));
    await answerApi(page, { "send-otp": SENT, "verify-otp": { body: { success: true } } });
    await openModal(page);
    await page.getByLabel("Mobile number").fill("9876543210");
    await page.getByRole("button", { name: "Send code" }).click();
    await page.locator(".codv-dialog input[autocomplete=one-time-code]").fill("123456");
    await page.locator(".codv-dialog input[autocomplete=one-time-code]").press("Enter");
    await page.getByRole("radio", { name: /Pay now online/ }).waitFor();
    const summary = await page.locator(".codv-summary").textContent();
    const amounts = await page.locator(".codv-amount").allTextContents();
    expect(summary).toContain(expected[0]);
    // The fixed $2 fee is a product line Shopify prices by its own rounding in another currency: no amount for COD.
    expect(amounts).toEqual([expected[1], expected[2]]);
    await shot(page, `modal-amounts-${currency}`);
    expect(errors).toEqual([]);
    await context.close();
  });
});
