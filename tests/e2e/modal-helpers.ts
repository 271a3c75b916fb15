import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, BrowserContextOptions, Page, Route } from "playwright-core";
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
  /** The device: a phone (390x844) unless told otherwise. */
  device: BrowserContextOptions = PHONE,
) {
  const context = await browser.newContext({ ...device, storageState });
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

export type Reply = { status?: number; body: unknown; hold?: boolean };

/** Answers the page's calls to each app proxy route named (a list is a queue whose last answer repeats); records their bodies. */
export async function answerApi(page: Page, replies: Record<string, Reply | Reply[]>) {
  const calls: Record<string, unknown[]> = {};
  for (const [name, reply] of Object.entries(replies)) {
    const queue = Array.isArray(reply) ? [...reply] : null;
    calls[name] = [];
    await page.route(`**/apps/cod/${name}`, async (route) => {
      calls[name].push(route.request().postDataJSON());
      const r = queue ? (queue.length > 1 ? queue.shift()! : queue[0]) : (reply as Reply);
      if (r.hold) return; // never answered: the modal stays in its waiting state
      await route.fulfill({ status: r.status ?? 200, contentType: "application/json", body: JSON.stringify(r.body) });
    });
  }
  return calls;
}

export const SENT = { body: { success: true, expiresIn: 600, resendAfter: 30 } };
const AXE = path.join(ROOT, "node_modules", "axe-core", "axe.min.js");

/** axe-core's WCAG 2.x A/AA rules on the open modal; the violations as "rule: selectors". */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(
      { include: [[".codv-backdrop:not([hidden])"]] },
      { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] }, resultTypes: ["violations"] },
    );
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
}
