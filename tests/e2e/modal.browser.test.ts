import type { Browser, BrowserContext, Page } from "playwright-core";
import { outboxCode, readOutbox } from "../helpers/outbox";
import type { RunningServer } from "../helpers/server";
import { DEMO_VARIANT, openModal, openStorefront, shot } from "./modal-helpers";
import { useBrowserStore } from "./browser-store";

/**
 * The whole storefront flow in Chromium on a phone viewport, against the real app in local mode:
 * the block on /dev/storefront -> the emulated, signed app proxy -> send-otp (the code lands in the
 * local outbox) -> verify-otp -> create-checkout (the local fake Shopify builds the cart) -> redirect.
 */
/** Lets the page's create-checkout calls through to the app and keeps their answers (the page navigates away). */
async function recordCheckouts(page: Page): Promise<{ checkoutUrl?: string; fallback?: boolean }[]> {
  const answers: { checkoutUrl?: string; fallback?: boolean }[] = [];
  await page.route("**/apps/cod/create-checkout", async (route) => {
    const response = await route.fetch();
    answers.push(await response.json());
    await route.fulfill({ response });
  });
  return answers;
}

/** The code of the newest SMS to `phone`, once there are `count` of them. */
async function codeSentTo(server: RunningServer, phone: string, count = 1): Promise<string> {
  await expect.poll(() => readOutbox(server.dataDir).filter((m) => m.to === phone).length, { timeout: 5000 }).toBeGreaterThanOrEqual(count);
  return outboxCode(server.dataDir, phone);
}

describe("the storefront modal, end to end in local mode (Chromium, phone viewport)", () => {
  let server: RunningServer;
  let browser: Browser;
  let verifiedBrowser: Awaited<ReturnType<BrowserContext["storageState"]>> | undefined;
  useBrowserStore({}, (s, b) => {
    [server, browser] = [s, b];
  });

  it("verifies the phone with the texted code, reports a wrong code, and redirects to the checkout the app built", async () => {
    const phone = "+919876543210";
    const { page, context, errors } = await openStorefront(browser, server.url);
    const checkouts = await recordCheckouts(page);
    await openModal(page);
    await page.getByLabel("Mobile number").fill("98765 43210");
    await page.getByRole("button", { name: "Send code" }).click();
    const codeInput = page.getByLabel("Verification code");
    await codeInput.waitFor();
    const code = await codeSentTo(server, phone);

    const wrong = code === "000000" ? "111111" : "000000";
    await codeInput.fill(wrong);
    await page.getByRole("button", { name: "Confirm and continue" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toMatch(/^That code is not right\. \d+ attempts? left\.$/);
    await shot(page, "modal-flow-wrong-code");

    await codeInput.fill(code);
    await expect(page.getByRole("alert").count()).resolves.toBe(0); // typing again clears the old error
    await shot(page, "modal-flow-code");
    await page.getByRole("button", { name: "Confirm and continue" }).click();
    // The code verified, the payment mode is its own decision, seen before it is confirmed.
    await page.getByRole("radio", { name: /Cash on delivery/ }).check();
    await page.getByRole("button", { name: "Continue to checkout" }).click();
    await expect.poll(() => checkouts.length, { timeout: 10_000 }).toBe(1);
    const answer = checkouts[0];
    expect(answer.checkoutUrl).toEqual(expect.stringMatching(/^https?:\/\//));
    await page.waitForURL(answer.checkoutUrl!);

    // The local checkout the fake Shopify's cart points at carries our line.
    const preview = await fetch(answer.checkoutUrl!);
    expect(preview.status).toBe(200);
    const previewHtml = await preview.text();
    expect(previewHtml).toContain(DEMO_VARIANT);
    expect(previewHtml).toMatch(/<code>_cod_proof<\/code> = v1\.919876543210\.cod\./); // the proof checkout reads
    expect(errors).toEqual([]);
    verifiedBrowser = await context.storageState();
    await context.close();
  });

  it("lets a returning customer skip the code and choose how to pay, on the browser that verified", async () => {
    // The previous test verified this number for the demo shop; only its browser holds the device token.
    const { page, context } = await openStorefront(browser, server.url, "", verifiedBrowser);
    const checkouts = await recordCheckouts(page);
    await openModal(page);
    await page.getByLabel("Mobile number").fill("+91 98765 43210");
    const before = readOutbox(server.dataDir).length;
    await page.getByRole("button", { name: "Send code" }).click();
    await page.getByText("Welcome back! Your number is already verified.").waitFor();
    expect(readOutbox(server.dataDir).length).toBe(before);
    await page.getByRole("radio", { name: /Pay now online/ }).check();
    await shot(page, "modal-flow-returning");
    await page.getByRole("button", { name: "Continue to checkout" }).click();
    await expect.poll(() => checkouts.length, { timeout: 10_000 }).toBe(1);
    expect(checkouts[0].checkoutUrl).toEqual(expect.stringMatching(/^https?:\/\//));
    await page.waitForURL(checkouts[0].checkoutUrl!);
    await context.close();

    // Another browser typing the same number is not told it was verified: it gets a code.
    const stranger = await openStorefront(browser, server.url);
    await openModal(stranger.page);
    await stranger.page.getByLabel("Mobile number").fill("+91 98765 43210");
    await stranger.page.getByRole("button", { name: "Send code" }).click();
    await stranger.page.getByLabel("Verification code").waitFor();
    await stranger.context.close();
  });

  it("when the app cannot build the cart, writes the proof onto the theme's own cart and takes it to the store's checkout", async () => {
    const phone = "+919876543219";
    // The fake Shopify refuses to build carts: create-checkout answers a fallback with a fresh proof.
    const refuse = await fetch(`${server.shopify!.origin}/answers`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ operation: "cartCreate", answer: "user_errors" }),
    });
    expect(refuse.status).toBe(200);
    try {
      const { page, context, errors } = await openStorefront(browser, server.url);
      const checkouts = await recordCheckouts(page);
      const cartWrites: unknown[] = [];
      page.on("request", (r) => {
        if (new URL(r.url()).pathname === "/cart/update.js") cartWrites.push(r.postDataJSON());
      });
      await openModal(page);
      await page.getByLabel("Mobile number").fill("98765 43219");
      await page.getByRole("button", { name: "Send code" }).click();
      await page.getByLabel("Verification code").fill(await codeSentTo(server, phone));
      await page.getByRole("button", { name: "Confirm and continue" }).click();
      await page.getByRole("radio", { name: /Cash on delivery/ }).check();
      await page.getByRole("button", { name: "Continue to checkout" }).click();

      await expect.poll(() => checkouts.length, { timeout: 10_000 }).toBe(1);
      const answer = checkouts[0] as { fallback?: boolean; proof?: string };
      expect(answer).toMatchObject({ fallback: true, proof: expect.stringMatching(/^v1\.919876543219\.cod\./) });
      // The store's checkout: a permalink of the line, carrying the proof as a cart attribute.
      await page.waitForURL((url) => url.pathname === `/cart/${DEMO_VARIANT}:1`);
      expect(new URL(page.url()).searchParams.get("attributes[_cod_proof]")).toBe(answer.proof);
      // And the theme's own cart holds it too (the local storefront's /cart.js, this browser's cart).
      // With where the shopper came from (a direct visit here: empty), also on the permalink.
      expect(cartWrites).toEqual([{ attributes: { _cod_proof: answer.proof, _cod_source: "" } }]);
      expect(new URL(page.url()).searchParams.get("attributes[_cod_source]")).toBe("");
      const cart = await context.request.get(`${server.url}/cart.js`);
      expect(await cart.json()).toMatchObject({ attributes: { _cod_proof: answer.proof } });
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await fetch(`${server.shopify!.origin}/answers`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ operation: "cartCreate", answer: "ok" }),
      });
    }
  });
});
