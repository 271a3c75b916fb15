import type { Locator, Page } from "playwright-core";
import { SETTINGS_SECTIONS, sectionFields } from "~/core/settings/registry";
import { until, seriousViolations } from "../helpers/browser";
import { useAdminBrowser } from "../helpers/admin-browser";
import type { RunningServer } from "../helpers/server";
import { shot } from "./modal-helpers";

/**
 * Settings as a merchant meets them in Chromium (local mode, no App Bridge) at a phone's, a tablet's and a
 * laptop's size: an index of sections, each section a page of its own no taller than about two screens at
 * 1280 px, axe clean; a section saved with the keyboard alone posts its own fields only and moves the focus
 * to the saved message, in view; a value typed that cannot be read is refused beside its field.
 */

const SIZES = [
  [360, 640],
  [768, 1024],
  [1280, 800],
] as const;

/** About two screens of a laptop: the tallest a section's page may be at 1280 px wide. */
const TWO_SCREENS = 1600;

describe("Settings in Chromium: an index and a page per section, each saved on its own", () => {
  const admin = useAdminBrowser();
  let server: RunningServer;
  let page: Page;
  beforeAll(() => {
    ({ server, page } = admin);
  });
  afterEach(async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  async function open(url: string) {
    const response = await page.goto(`${server.url}${url}`, { waitUntil: "networkidle" });
    expect(response?.status()).toBe(200);
  }

  /** Tab until `target` has the focus, as a keyboard user reaches it; fails when it never does. */
  async function tabTo(target: Locator, limit = 120) {
    await target.waitFor();
    for (let i = 0; i < limit; i++) {
      await page.keyboard.press("Tab");
      if (await target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement))) return i + 1;
    }
    throw new Error(`${target} is not reachable with Tab`);
  }

  const height = () => page.evaluate(() => document.documentElement.scrollHeight);

  it.each(SIZES)("at %dx%d, the index lists every section and each section's page is short and axe clean", { timeout: 180_000 }, async (width, viewHeight) => {
    await page.setViewportSize({ width, height: viewHeight });
    await open("/app/settings");
    const index = page.getByRole("navigation", { name: "Settings sections" });
    expect(await index.getByRole("link").count()).toBe(SETTINGS_SECTIONS.length);
    expect(await seriousViolations(page), "index").toEqual([]);
    // Every section's row is in the first screen at a laptop's size.
    if (width === 1280) expect((await index.boundingBox())!.y + (await index.boundingBox())!.height).toBeLessThanOrEqual(viewHeight);
    await shot(page, `settings-index-${width}`);
    const heights: Record<string, number> = { index: await height() };
    for (const section of SETTINGS_SECTIONS) {
      await open(`/app/settings/${section.id}`);
      await until(() => page.getByRole("heading", { level: 1, name: section.title }).count()).toBe(1);
      heights[section.id] = await height();
      expect(await seriousViolations(page), section.id).toEqual([]);
      await shot(page, `settings-${section.id}-${width}`);
    }
    console.log(`settings page heights at ${width}x${viewHeight}: ${JSON.stringify(heights)}`);
    if (width === 1280) {
      expect(heights.index).toBeLessThanOrEqual(TWO_SCREENS);
      for (const section of SETTINGS_SECTIONS) expect(heights[section.id], section.id).toBeLessThanOrEqual(TWO_SCREENS);
    }
  });

  it.each(SIZES)("at %dx%d, keyboard only: Enter in a field saves that section's fields alone and the focus lands on the saved message, in view", { timeout: 90_000 }, async (width, viewHeight) => {
    await page.setViewportSize({ width, height: viewHeight });
    await open("/app/settings");
    await page.locator("body").focus();
    await tabTo(page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: /^Costs/ }));
    await page.keyboard.press("Enter");
    const cost = page.getByRole("textbox", { name: "Cost of one failed COD parcel" });
    await cost.waitFor();
    const stops = await tabTo(cost);
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type(`1${width % 7},50`);
    const posted = page.waitForRequest((r) => r.method() === "POST" && new URL(r.url()).pathname.startsWith("/app/settings/costs"));
    await page.keyboard.press("Enter");
    const body = new URLSearchParams((await posted).postData() ?? "");
    // Only the section's fields travel (Remix adds none of its own to a form's body).
    expect([...new Set(body.keys())].sort()).toEqual([...sectionFields("costs")].sort());
    const saved = page.getByRole("status").filter({ hasText: "Costs saved" });
    await until(() => saved.count()).toBe(1);
    await until(() => page.evaluate(() => document.activeElement?.closest(".settings-answer")?.textContent ?? null)).toBe("Costs saved");
    const box = (await saved.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(viewHeight);
    expect(await cost.inputValue()).toBe(`1${width % 7}.5`);
    // Nothing else says "saved": another section's page has no answer of this save.
    expect(await page.getByText(/ saved$/).count()).toBe(1);
    expect(stops).toBeLessThan(15);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, `settings-costs-saved-${width}`);
    await open("/app/settings/codes");
    expect(await page.getByText(/ saved$/).count()).toBe(0);
  });

  it.each(SIZES)("at %dx%d, a value typed that cannot be read is refused beside its field, what was typed kept, and nothing said saved", { timeout: 90_000 }, async (width, viewHeight) => {
    await page.setViewportSize({ width, height: viewHeight });
    await open("/app/settings/checkout");
    const deposit = page.locator('input[name="depositValue"]');
    await deposit.fill("twenty");
    await deposit.press("Enter");
    // The reason is the field's own description (aria-describedby), shown beside it.
    const reason = () =>
      deposit.evaluate((input) => {
        const id = (input.getAttribute("aria-describedby") ?? "").split(" ").find((i) => i.endsWith("Error"));
        return id ? (document.getElementById(id)?.textContent ?? "") : "";
      });
    await until(reason).toMatch(/Enter a number such as 120 or 120\.50/);
    expect(await deposit.getAttribute("aria-invalid")).toBe("true");
    expect(await deposit.inputValue()).toBe("twenty");
    expect(await page.getByText(/ saved$/).count()).toBe(0);
    // The summary of what to change has the focus, in view.
    await until(() => page.evaluate(() => document.activeElement?.classList.contains("settings-answer") ?? false)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, `settings-checkout-refused-${width}`);
    await deposit.fill("25,5");
    await deposit.press("Enter");
    await until(() => page.getByRole("status").filter({ hasText: "Checkout saved" }).count()).toBe(1);
    expect(await deposit.inputValue()).toBe("25.5");
  });
});
