import type { Browser, BrowserContext, Page } from "playwright-core";
import { sessionToken } from "~/dev/admin-access.server";
import { launchBrowser, DESKTOP_USER_AGENT, until, adminContext, collectPageErrors } from "../helpers/browser";
import { startServer, type RunningServer } from "../helpers/server";

/**
 * The admin as Shopify's admin opens it, on the production build: the document is asked for with
 * `embedded=1`, `shop`, `host` and a session token (`id_token`), and the page loads App Bridge from
 * Shopify's CDN. Here the CDN answers with a stand-in that does what the real script does for these
 * pages: it defines `shopify` (toasts recorded) and adds a fresh session token to the app's own fetches.
 * With App Bridge present, the page leaves the navigation, the title and the messages to it.
 */
const SHOP = "demo-shop.myshopify.com";
const API_KEY = "local-dev-api-key";
const SECRET = "local-dev-api-secret";

function appBridgeStandIn(): string {
  // A token per script load, valid for a minute: enough for this test's requests.
  const token = sessionToken(SHOP, API_KEY, SECRET);
  return `
    window.__toasts = [];
    window.__pickers = [];
    window.shopify = {
      toast: { show(message, options) { window.__toasts.push({ message, isError: Boolean(options && options.isError) }); } },
      // Shopify's product picker: the merchant picks the fee product's only variant.
      resourcePicker(options) {
        window.__pickers.push(options);
        return Promise.resolve([{ id: "gid://shopify/ProductVariant/44000000000099", displayName: "Cash on delivery fee - Default Title", title: "Default Title" }]);
      },
    };
    const appFetch = window.fetch.bind(window);
    window.fetch = (input, init = {}) => {
      const url = new URL(typeof input === "string" ? input : input.url, location.href);
      if (url.origin !== location.origin) return appFetch(input, init);
      const headers = new Headers(init.headers || (typeof input === "string" ? undefined : input.headers));
      headers.set("authorization", "Bearer ${token}");
      return appFetch(input, { ...init, headers });
    };`;
}

describe("the admin inside Shopify's admin (App Bridge present)", () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    // The production build: no local development access, the library's own embedded-app checks.
    [server, browser] = await Promise.all([startServer({ SHOPIFY_APP_URL: "http://127.0.0.1" }), launchBrowser()]);
    context = await adminContext(browser);
    // Playwright tries the route added last first: everything else of the CDN is out of reach.
    await context.route(/cdn\.shopify\.com\/shopifycloud\/app-bridge\.js/, (route) =>
      route.fulfill({ status: 200, contentType: "text/javascript", body: appBridgeStandIn() }),
    );
    page = await context.newPage();
    collectPageErrors(page, errors);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
  });

  it("refuses /app opened outside Shopify's admin with no token: the library sends it to the login page", async () => {
    const response = await fetch(`${server.url}/app`, { headers: { "user-agent": DESKTOP_USER_AGENT }, redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/\/auth\/login/);
  });

  it("draws no navigation bar or heading of its own, declares App Bridge's menu and title bar, and answers a block with a toast", { timeout: 60_000 }, async () => {
    const host = Buffer.from(`admin.shopify.com/store/${SHOP.replace(".myshopify.com", "")}`).toString("base64url");
    const query = new URLSearchParams({ embedded: "1", shop: SHOP, host, id_token: sessionToken(SHOP, API_KEY, SECRET) });
    const response = await page.goto(`${server.url}/app/blocklist?${query}`, { waitUntil: "networkidle" });
    expect(response?.status()).toBe(200);
    expect(await page.evaluate(() => typeof (window as unknown as { shopify?: unknown }).shopify)).toBe("object");
    // App Bridge's script once, first in the document's head (where Shopify's Web Vitals collection needs it).
    expect(await page.evaluate(() => [...document.querySelectorAll('script[src*="app-bridge.js"]')].map((s) => s.parentElement?.tagName))).toEqual(["HEAD"]);
    expect(await page.evaluate(() => document.head.firstElementChild?.getAttribute("src"))).toMatch(/app-bridge\.js$/);

    expect(await page.locator("ui-nav-menu a").allTextContents()).toEqual(["Home", "Orders", "Needs a person", "Blocked numbers", "Risk", "Deliveries", "Settings", "Plans", "Data requests"]);
    expect(await page.locator("ui-title-bar").getAttribute("title")).toBe("Blocked numbers");
    await until(() => page.getByRole("navigation", { name: "COD Verify" }).count()).toBe(0);
    expect(await page.getByRole("heading", { level: 1 }).count()).toBe(0);

    await page.getByLabel("Phone number").fill("+14155550123");
    await page.getByRole("button", { name: "Block number" }).click();
    await until(() => page.evaluate(() => (window as unknown as { __toasts: unknown[] }).__toasts)).toEqual([{ message: "+1415•••0123 blocked", isError: false }]);
    expect(await page.getByRole("table").innerText()).toContain("+1415•••0123");
    // The toast said it: no banner stands in for it.
    expect(await page.getByRole("status").filter({ hasText: "blocked" }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("chooses the COD fee's product in Shopify's product picker instead of a pasted variant ID", { timeout: 60_000 }, async () => {
    const host = Buffer.from(`admin.shopify.com/store/${SHOP.replace(".myshopify.com", "")}`).toString("base64url");
    const query = new URLSearchParams({ embedded: "1", shop: SHOP, host, id_token: sessionToken(SHOP, API_KEY, SECRET) });
    expect((await page.goto(`${server.url}/app/settings/checkout?${query}`, { waitUntil: "networkidle" }))?.status()).toBe(200);
    // The picker takes the pasted ID's place once the page has found App Bridge (after hydration).
    await page.getByRole("button", { name: "Choose the fee product" }).waitFor();
    expect(await page.getByRole("textbox", { name: "Fee product" }).count()).toBe(0);
    await page.getByRole("button", { name: "Choose the fee product" }).click();
    await until(() => page.getByText("Cash on delivery fee - Default Title").count()).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { __pickers: unknown[] }).__pickers)).toEqual([{ type: "variant", action: "select", multiple: false }]);
    expect(await page.locator('input[name="codFeeVariantId"]').inputValue()).toBe("44000000000099");
    await page.locator("form[data-save-bar]").evaluate((f: HTMLFormElement) => f.requestSubmit());
    await until(() => page.evaluate(() => (window as unknown as { __toasts: { message: string }[] }).__toasts.map((t) => t.message))).toContain("Checkout saved");
    expect(await page.locator('input[name="codFeeVariantId"]').inputValue()).toBe("44000000000099");
    expect(errors).toEqual([]);
  });

  it("gives the settings form to App Bridge's save bar and shows no save button of its own; a save is told by a toast", { timeout: 60_000 }, async () => {
    const host = Buffer.from(`admin.shopify.com/store/${SHOP.replace(".myshopify.com", "")}`).toString("base64url");
    const query = new URLSearchParams({ embedded: "1", shop: SHOP, host, id_token: sessionToken(SHOP, API_KEY, SECRET) });
    expect((await page.goto(`${server.url}/app/settings/codes?${query}`, { waitUntil: "networkidle" }))?.status()).toBe(200);
    const form = page.locator("form[data-save-bar]");
    expect(await form.count()).toBe(1);
    await page.getByLabel("Code lifetime").fill("700");
    await until(() => page.getByRole("button", { name: "Save", exact: true }).count()).toBe(0);
    expect(await page.getByRole("region", { name: "Unsaved changes" }).count()).toBe(0);
    // What App Bridge's Save does: submit the form.
    await form.evaluate((f: HTMLFormElement) => f.requestSubmit());
    await until(() => page.evaluate(() => (window as unknown as { __toasts: { message: string }[] }).__toasts.map((t) => t.message))).toContain("One-time codes saved");
    expect(await page.getByLabel("Code lifetime").inputValue()).toBe("700");
    expect(errors).toEqual([]);
  });
});
