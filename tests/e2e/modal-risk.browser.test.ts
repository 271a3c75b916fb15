import path from "node:path";
import Database from "better-sqlite3";
import type { Browser, Page } from "playwright-core";
import { outboxCode, readOutbox } from "../helpers/outbox";
import type { RunningServer } from "../helpers/server";
import { openModal, openStorefront, shot } from "./modal-helpers";
import { useBrowserStore } from "./browser-store";

/**
 * A high-risk shopper in the real modal against the real app in local mode (docs/risk.md): the
 * merchant's prepaid-only rule for the number takes cash on delivery out of verify-otp's
 * `allowedModes`, and the modal offers the ways left with a neutral sentence why. A rule added after
 * the code was verified meets create-checkout's 403 `cod_not_allowed`, which the modal answers the same
 * way instead of with its generic error. The shop's cache is off, so the rule written to the database
 * counts at once.
 */
describe("the modal for a shopper who may not pay cash on delivery (Chromium, local mode)", () => {
  let server: RunningServer;
  let browser: Browser;
  useBrowserStore({ env: { CACHE_TTL_SECONDS: "0" } }, (s, b) => {
    [server, browser] = [s, b];
  });

  /** The merchant's prepaid-only list, as the Risk page saves it. */
  function setPrepaidPhones(phones: string[]) {
    const db = new Database(path.join(server.dataDir, "app.db"));
    try {
      db.prepare(`UPDATE "Shop" SET "riskPrepaidPhones" = ?`).run(phones.join("\n"));
    } finally {
      db.close();
    }
  }

  async function verify(page: Page, national: string, phone: string) {
    await openModal(page);
    await page.getByLabel("Mobile number").fill(national);
    await page.getByRole("button", { name: "Send code" }).click();
    const input = page.getByLabel("Verification code");
    await input.waitFor();
    await expect.poll(() => readOutbox(server.dataDir).filter((m) => m.to === phone).length, { timeout: 5000 }).toBeGreaterThanOrEqual(1);
    await input.fill(outboxCode(server.dataDir, phone));
    await page.getByRole("button", { name: "Confirm and continue" }).click();
  }

  it("offers no cash on delivery to a number on the no-cash-on-delivery list, says why, and checks out prepaid", async () => {
    const phone = "+919876500011";
    setPrepaidPhones([phone]);
    const { page, context, errors } = await openStorefront(browser, server.url);
    const checkouts: { checkoutUrl?: string }[] = [];
    const bodies: { selectedMode?: string }[] = [];
    await page.route("**/apps/cod/create-checkout", async (route) => {
      bodies.push(route.request().postDataJSON());
      const response = await route.fetch();
      checkouts.push(await response.json());
      await route.fulfill({ response });
    });
    await verify(page, "98765 00011", phone);

    await page.getByText("For this phone number the store does not offer cash on delivery. You can pay another way below.").waitFor();
    await expect(page.getByRole("radio", { name: /Cash on delivery/ }).count()).resolves.toBe(0);
    await expect(page.getByRole("radio", { name: /Pay now online/ }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole("radio", { name: /Part now, rest on delivery/ }).count()).resolves.toBe(1);
    await expect(page.getByRole("alert").count()).resolves.toBe(0); // an explanation, not an error
    await shot(page, "modal-risk-prepaid-only");
    await page.getByRole("button", { name: "Continue to checkout" }).click();
    await expect.poll(() => checkouts.length, { timeout: 10_000 }).toBe(1);
    expect(bodies[0].selectedMode).toBe("prepaid");
    expect(checkouts[0].checkoutUrl).toEqual(expect.stringMatching(/^https?:\/\//));
    await page.waitForURL(checkouts[0].checkoutUrl!);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("meets create-checkout's 403 cod_not_allowed with the ways left and the sentence, not the generic error", async () => {
    const phone = "+919876500012";
    setPrepaidPhones([]);
    const { page, context, errors } = await openStorefront(browser, server.url);
    const answers: { status: number; body: { code?: string; allowedModes?: string[] } }[] = [];
    await page.route("**/apps/cod/create-checkout", async (route) => {
      const response = await route.fetch();
      answers.push({ status: response.status(), body: await response.json() });
      await route.fulfill({ response });
    });
    await verify(page, "98765 00012", phone);
    // Verified while no rule named the number: cash on delivery is offered...
    await page.getByRole("radio", { name: /Cash on delivery/ }).check();
    // ...then the merchant adds it to the prepaid-only list before the shopper continues.
    setPrepaidPhones([phone]);
    await page.getByRole("button", { name: "Continue to checkout" }).click();

    await expect.poll(() => answers.length, { timeout: 10_000 }).toBe(1);
    expect(answers[0]).toMatchObject({ status: 403, body: { code: "cod_not_allowed", allowedModes: ["prepaid", "partial"] } });
    await page.getByText("For this phone number the store does not offer cash on delivery. You can pay another way below.").waitFor();
    await expect(page.getByRole("radio", { name: /Cash on delivery/ }).count()).resolves.toBe(0);
    await expect(page.getByText("Something went wrong. Please try again.").count()).resolves.toBe(0);
    await expect(page.getByRole("radio", { name: /Pay now online/ }).isChecked()).resolves.toBe(true);
    await shot(page, "modal-risk-cod-not-allowed");
    await page.getByRole("button", { name: "Continue to checkout" }).click();
    await expect.poll(() => answers.length, { timeout: 10_000 }).toBe(2);
    expect(answers[1].status).toBe(200);
    expect(errors).toEqual([]);
    await context.close();
  });
});
