import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page, Route } from "playwright-core";
import { ROOT } from "../setup/databases";

/** Screenshots are kept only when asked for (SCREENSHOT_DIR=data/screenshots npm test), so a run leaves no files. */
export const SCREENSHOTS = process.env.SCREENSHOT_DIR ? path.resolve(ROOT, process.env.SCREENSHOT_DIR) : null;
/** A phone-sized viewport (iPhone 12-14). */
export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
export const DEMO_VARIANT = "44000000000002";

export async function shot(page: Page, name: string) {
  if (!SCREENSHOTS) return null;
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** A page on the local storefront, failing the test on any script error. */
export async function openStorefront(
  browser: Browser,
  baseUrl: string,
  query = "",
  /** A browser's saved storage (e.g. the remembered-device token of an earlier verification). */
  storageState?: Awaited<ReturnType<BrowserContext["storageState"]>>,
) {
  const context = await browser.newContext({ ...PHONE, storageState });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // Leaving the storefront (a checkout URL, the store's own checkout) lands on a stub page.
  await page.route(
    (url) => !url.pathname.startsWith("/dev/") && !url.pathname.startsWith("/apps/"),
    (route: Route) =>
      route.request().isNavigationRequest()
        ? route.fulfill({ status: 200, contentType: "text/html", body: "<h1>left the storefront</h1>" })
        : route.continue(),
  );
  await page.goto(`${baseUrl}/dev/storefront${query}`);
  return { page, context, errors };
}

export async function openModal(page: Page, buttonName: string | RegExp = "Buy with Cash on Delivery") {
  await page.getByRole("button", { name: buttonName }).click();
  const dialog = page.getByRole("dialog");
  await dialog.waitFor();
  return dialog;
}
