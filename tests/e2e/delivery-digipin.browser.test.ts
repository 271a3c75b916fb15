import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { launchBrowser } from "../helpers/browser";
import { allViolations } from "./hosted-helpers";
import { shot } from "./modal-helpers";
import { renderRecoveryPage, type RecoveryPageState } from "~/delivery/page";
import { hostedPage } from "~/http/responses.server";
import { LOCATION_TEXTS } from "~/shared/location-texts";
import { LOCALES, type Locale } from "~/shared/locales";

const NARROW: BrowserContextOptions = { viewport: { width: 360, height: 640 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const ORIGIN = "https://demo-shop.myshopify.com";
const STATE: RecoveryPageState = { orderName: "#1001", nonce: "1.abc", minDay: "2026-11-28", maxDay: "2026-12-04", location: { digipin: "", note: null } };

/**
 * The failed-delivery page's "where you are" in Chromium at 360 px: the page as the server renders it,
 * with the server's own headers (its CSP allows the location script by its hash), served at the store's
 * address. The tap posts the location form with the position (the server's answer is the route tests'
 * part: tests/routes/delivery-digipin.test.ts). In the five languages, no axe violation, within 360 px.
 */
describe("the failed-delivery page's DIGIPIN in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Serves the rendered page at the store's address, and records what its forms post. */
  async function open(page: Page, locale: Locale, state: RecoveryPageState = STATE) {
    const posts: string[] = [];
    await page.route(`${ORIGIN}/apps/cod/dr/token`, async (route) => {
      if (route.request().method() === "POST") posts.push(route.request().postData() ?? "");
      const res = hostedPage(renderRecoveryPage({ locale, shopName: "Demo shop" }, state));
      await route.fulfill({ status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() });
    });
    await page.goto(`${ORIGIN}/apps/cod/dr/token`);
    return posts;
  }

  it("posts the position with the location form on the tap, under the page's own CSP", async () => {
    const context = await browser.newContext({ ...NARROW, geolocation: { latitude: 18.921984, longitude: 72.834654 }, permissions: ["geolocation"] });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("console", (m) => (m.type() === "error" ? problems.push(m.text()) : undefined));
    const posts = await open(page, "en");
    await Promise.all([page.waitForRequest((r) => r.method() === "POST"), page.getByRole("button", { name: "Use my location" }).tap()]);
    await expect.poll(() => posts.length).toBe(1);
    const sent = new URLSearchParams(posts[0]);
    expect(Object.fromEntries(sent)).toMatchObject({ nonce: "1.abc", choice: "location", intent: "locate", lat: "18.921984", lon: "72.834654", digipin: "" });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("says so when the position is refused, and sends nothing", async () => {
    const context = await browser.newContext({ ...NARROW, permissions: [] });
    const page = await context.newPage();
    const posts = await open(page, "hi");
    await page.getByRole("button", { name: LOCATION_TEXTS.hi.useLocation }).tap();
    await page.getByText(LOCATION_TEXTS.hi.denied).waitFor();
    expect(posts).toEqual([]);
    await context.close();
  });

  it.each(LOCALES)("in %s at 360 px, before and after a DIGIPIN is sent: no axe violation, nothing wider than the screen", async (locale) => {
    const context = await browser.newContext({ ...NARROW, bypassCSP: true }); // axe-core is injected as a script
    const page = await context.newPage();
    await open(page, locale);
    await page.getByText(LOCATION_TEXTS[locale].legend).waitFor();
    expect(await allViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, `delivery-digipin-${locale}-360`);
    await page.unroute(`${ORIGIN}/apps/cod/dr/token`);
    await open(page, locale, { ...STATE, location: { digipin: "4FK-595-8823", note: { kind: "found", digipin: "4FK-595-8823", district: "Mumbai" }, sent: true } });
    await page.getByRole("status").filter({ hasText: "4FK-595-8823" }).waitFor();
    expect(await allViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await context.close();
  });
});
