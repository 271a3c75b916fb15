import { execFileSync } from "node:child_process";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { adminContext, collectPageErrors, launchBrowser, seriousViolations } from "../helpers/browser";
import { startServer, type RunningServer } from "../helpers/server";
import { ROOT } from "../setup/databases";
import { shot } from "./modal-helpers";

/**
 * The admin on a phone and a tablet, with a month of activity (npm run seed:activity): every page has
 * no serious or critical axe violation at 360x640 and 768x1024; the dashboard's wide tables scroll
 * sideways inside a region the keyboard can reach.
 */
describe("the merchant's admin at narrow sizes, with a month of activity", () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ NODE_ENV: "development" }), launchBrowser()]);
    execFileSync(process.execPath, [path.join(ROOT, "scripts", "seed-activity.mjs"), "--events", "600"], {
      env: { ...process.env, DATABASE_URL: `file:${path.join(server.dataDir, "app.db")}`, NODE_ENV: "development" },
      stdio: "ignore",
    });
    context = await adminContext(browser);
    page = await context.newPage();
    collectPageErrors(page, errors);
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
  });
  afterEach(() => {
    expect(errors).toEqual([]);
  });

  it.each([
    [360, 640],
    [768, 1024],
  ] as const)("at %ix%i", async (width, height) => {
    await page.setViewportSize({ width, height });
    for (const url of ["/app", "/app/orders", "/app/blocklist", "/app/risk", "/app/analytics", "/app/settings", "/app/plans", "/app/data-requests"]) {
      const response = await page.goto(`${server.url}${url}`, { waitUntil: "networkidle" });
      expect(response?.status()).toBe(200);
      expect(await seriousViolations(page), `${url} at ${width}x${height}`).toEqual([]);
    }
    await page.goto(`${server.url}/app`, { waitUntil: "networkidle" });
    const region = page.getByRole("region", { name: "Messages by channel" });
    expect(await region.count()).toBe(1);
    await region.focus();
    expect(await region.evaluate((el) => el === document.activeElement)).toBe(true);
    // The codes-per-day lines join the days with straight segments: no curve (a spline's C command) invents a slope.
    const lines = await page.locator('[aria-label*="line chart" i] path, svg path[stroke]').evaluateAll((paths) =>
      paths.map((p) => p.getAttribute("d") ?? "").filter((d) => d.startsWith("M") && d.includes("L") || d.includes("C")),
    );
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((d) => d.includes("C"))).toEqual([]);
    await shot(page, `admin-home-${width}`);
  }, 120_000);
});
