import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { ROOT } from "../setup/databases";

/** Debian's Chromium, headless, with the flags this machine's closed network needs. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-quic",
      "--no-first-run",
    ],
  });
}

/** A desktop browser's user agent: the library answers 410 to what it takes for a bot, headless Chromium's own included. */
export const DESKTOP_USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";

/** Waits for what the page shows after an answer (a loaded machine can take seconds), never timing it. */
export const until = <T,>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000, interval: 100 });

type AxeViolation = { id: string; impact: string | null; nodes: { target: string[] }[] };
const AXE = path.join(ROOT, "node_modules", "axe-core", "axe.min.js");

/** axe-core's WCAG 2.x A/AA rules on the whole page; the serious and critical violations as "rule: selectors". */
export async function seriousViolations(page: Page): Promise<string[]> {
  // The admin's wide tables make their scroll region focusable once React has mounted them
  // (app/ui/scrollable-table.tsx): on a loaded machine "networkidle" can come before that.
  await until(() => page.locator("[data-scrollable-table] .Polaris-DataTable__ScrollContainer:not([tabindex])").count()).toBe(0);
  // What the merchant sees is the styled page: a browser paints nothing before its stylesheets, but a script
  // (axe) runs as soon as the document is parsed. On a busy machine the page's own CSS (Polaris, the admin's)
  // can still be loading after a full load (the way back from a plan's approval): unstyled, the navigation's
  // links are 17 px tall and axe reports target-size. So axe waits for the load event and every same-origin
  // stylesheet a route added (a client navigation adds its route's), never for a time.
  await page.waitForLoadState("load");
  await until(() =>
    page.evaluate(() => [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].filter((l) => l.href.startsWith(location.origin)).every((l) => l.sheet !== null)),
  ).toBe(true);
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] },
      resultTypes: ["violations"],
    });
    return result.violations;
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** A desktop-sized context for the admin's pages; Shopify's CDN, out of reach here, is refused at once rather than waited for. */
export async function adminContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ userAgent: DESKTOP_USER_AGENT, viewport: { width: 1280, height: 900 } });
  await context.route(/cdn\.shopify\.com/, (route) => route.abort());
  return context;
}

/** Collects into `errors` what a page threw and every 5xx answer it received. */
export function collectPageErrors(page: Page, errors: string[]): void {
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("response", (response) => {
    if (response.status() >= 500) errors.push(`${response.status()} ${response.url()}`);
  });
}
