import type { Page } from "playwright-core";
import { until, seriousViolations } from "../helpers/browser";
import { useAdminBrowser } from "../helpers/admin-browser";
import type { RunningServer } from "../helpers/server";
import { shot } from "./modal-helpers";

/**
 * The home page and the plans page in Chromium, in local mode (no App Bridge): a seeded month read on
 * the dashboard (charts drawn, the same numbers in tables, axe-core clean), the onboarding's test code,
 * and a plan chosen through Shopify's approval page (the fake Shopify's) and back.
 */

describe("the home and plans pages in Chromium (local mode, a seeded month)", () => {
  const admin = useAdminBrowser({
    seedEvents: 5000,
    // The app's configured URL (SHOPIFY_APP_URL, where Shopify returns after an approval) is this server.
    prepare: async ({ context, server }) => {
      await context.route(/^http:\/\/127\.0\.0\.1\/app\//, (route) => {
        const target = new URL(route.request().url());
        return route.fulfill({ status: 302, headers: { location: `${server.url}${target.pathname}${target.search}` } });
      });
    },
  });
  let server: RunningServer;
  let page: Page;
  let seeded = "";
  beforeAll(() => {
    ({ server, page, seeded } = admin);
  });

  it("reads the seeded month: figures, charts drawn in the browser, the same numbers in tables, no serious axe violation", { timeout: 90_000 }, async () => {
    const sent = Number(/sent ([\d,]+)/.exec(seeded)![1].replace(/,/g, ""));
    const response = await page.goto(`${server.url}/app`, { waitUntil: "networkidle" });
    expect(response?.status()).toBe(200);
    const figure = page.locator("p", { hasText: /^Codes sent$/ }).locator("xpath=..");
    await until(() => figure.textContent()).toContain(sent.toLocaleString("en-US"));
    // Polaris Viz draws SVG charts once the page runs; the tables were rendered on the server.
    await until(() => page.locator("svg path").count()).toBeGreaterThan(10);
    await page.getByText("Codes per day as a table").click();
    const daily = page.locator("details table").first();
    await until(() => daily.locator("tbody tr").count()).toBe(30);
    expect(await daily.locator("tfoot").textContent()).toContain(sent.toLocaleString("en-US"));
    await until(() => page.locator("table", { hasText: "Verified before purchase" }).count()).toBe(1);
    // What the merchant pays is the plan; our own cost of texts appears nowhere.
    const main = await page.locator("body").innerText();
    expect(main).toContain("Your plan: Pro");
    expect(main).toContain("$39.99");
    expect(main).toMatch(/verifications used this month/);
    expect(main).not.toMatch(/SMS spend|price per SMS|estimated cost/i);
    // Countries by name, not ISO code.
    const countries = page.locator("table", { hasText: "Codes sent" }).filter({ hasText: "Country" });
    expect(await countries.innerText()).toContain("India");
    expect(await countries.locator("tbody td:first-child, tbody th").allInnerTexts()).not.toContain("IN");
    // Count axes are whole numbers: no tick reads 0.5 of a code or an order.
    const ticks = await page.locator("svg text").allTextContents();
    expect(ticks.filter((t) => /^\d+$/.test(t.trim())).length).toBeGreaterThan(3);
    expect(ticks.filter((t) => /^\d*[.,]\d+$/.test(t.trim()))).toEqual([]);
    // Messages by channel: the COD orders each channel verified, beside what it sent.
    const channels = page.locator("table", { hasText: "Messages per verified order" });
    expect(await channels.locator("th").allInnerTexts()).toEqual(expect.arrayContaining(["COD orders verified", "Messages per verified order"]));
    await channels.scrollIntoViewIfNeeded();
    await shot(page, "admin-home-channels");
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, "admin-home-seeded");
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("sends a test code from the onboarding form and ticks the step", { timeout: 60_000 }, async () => {
    await page.goto(`${server.url}/app`, { waitUntil: "networkidle" });
    // The step itself (other steps may tick meanwhile: the first visit finds the block on the live theme,
    // and checkout enforcement follows within the second).
    const step = page.getByRole("listitem").filter({ hasText: "Send a test code to your own phone" });
    expect(await step.getByText("To do", { exact: true }).count()).toBe(1);
    await page.getByLabel("Your mobile number").fill("+14155550123");
    await page.getByRole("button", { name: "Send test code" }).click();
    await until(() => page.getByRole("status").filter({ hasText: "A test code was sent to +14155550123" }).count()).toBe(1);
    await until(() => step.getByText("Done", { exact: true }).count()).toBe(1);
  });

  it("chooses Starter through Shopify's approval page, comes back on it, then goes back to Free", { timeout: 90_000 }, async () => {
    await page.goto(`${server.url}/app/plans`, { waitUntil: "networkidle" });
    await until(() => page.getByText("Current plan: Pro").count()).toBe(1);
    // A change is a step: the plan's button opens the confirmation, which says what the change does.
    await page.getByRole("link", { name: /Switch to Starter/ }).click();
    await until(() => page.getByRole("heading", { name: "Switch to Starter?" }).count()).toBe(1);
    await page.getByRole("button", { name: "Switch to Starter", exact: true }).click();
    await until(() => page.getByRole("heading", { name: "Approve subscription" }).count()).toBe(1);
    expect(await page.textContent("main")).toContain("$14.99 USD every 30 days (test charge");
    await page.getByRole("button", { name: "Approve" }).click();
    await until(() => new URL(page.url()).pathname).toBe("/app/plans");
    await until(() => page.getByText("Current plan: Starter").count()).toBe(1);
    // Back from the approval page, the page says the plan changed (a success banner without App Bridge).
    await until(() => page.getByRole("status").filter({ hasText: "You are on the Starter plan." }).count()).toBe(1);
    expect(await page.getByRole("button", { name: /Current plan: Starter plan/ }).isDisabled()).toBe(true);
    await shot(page, "admin-plans-starter");
    expect(await seriousViolations(page)).toEqual([]);

    // The seeded month is far past Free's 50: the confirmation says so before anything changes.
    await page.getByRole("link", { name: /Switch to Free/ }).click();
    const confirmation = page.getByRole("region", { name: "Switch to Free?" });
    await until(() => confirmation.count()).toBe(1);
    const used = /This month: ([\d,]+) verifications used/.exec((await confirmation.textContent()) ?? "")?.[1];
    expect(Number(used?.replace(/,/g, ""))).toBeGreaterThan(50);
    expect(await confirmation.textContent()).toContain("Free includes 50 a month.");
    expect(await confirmation.textContent()).toContain("Verification pauses as soon as you switch");
    expect(await confirmation.textContent()).toContain("checkout offers cash on delivery to everyone, unverified");
    expect(await confirmation.textContent()).toContain("Your Starter plan ($14.99 / 30 days) is cancelled at once");
    await shot(page, "admin-plans-confirm-free");
    expect(await seriousViolations(page)).toEqual([]);
    // "Keep Starter" changes nothing.
    await page.getByRole("link", { name: "Keep Starter" }).click();
    await until(() => confirmation.count()).toBe(0);
    expect(await page.getByText("Current plan: Starter").count()).toBe(1);

    await page.getByRole("link", { name: /Switch to Free/ }).click();
    await page.getByRole("button", { name: "Switch to Free", exact: true }).click();
    await until(() => page.getByRole("status").filter({ hasText: "You are on the Free plan." }).count()).toBe(1);
    await until(() => page.getByText("Current plan: Free").count()).toBe(1);
  });

  it("while verification is paused, every admin page says so: why, what shoppers see now, how to resume", { timeout: 60_000 }, async () => {
    for (const url of ["/app", "/app/orders", "/app/settings", "/app/plans"]) {
      await page.goto(`${server.url}${url}`, { waitUntil: "networkidle" });
      const banner = page.locator(".Polaris-Banner", { hasText: "Verification paused: This month's verifications are used up." });
      await until(() => banner.count()).toBe(1);
      const text = (await banner.textContent()) ?? "";
      // The seeded month began on Pro: past Free's 50, never "5,000 of 50".
      expect(text).toMatch(/[\d,]+ verifications this month, more than the 50 your plan includes\./);
      expect(text).toContain("Shoppers are not asked for a code, and checkout offers cash on delivery to everyone.");
      expect(text).toContain("resumes by itself on the 1st of next month (UTC)");
      if (url === "/app") {
        // Home's checklist tells the same truth.
        expect(await page.textContent("body")).toContain("Paused: This month's verifications are used up.");
        await shot(page, "admin-home-paused-banner");
      }
      // The seeded Orders page paginates: its footer's unavailable "Previous" is a disabled button (app/ui/table-parts.tsx).
      expect({ url, violations: await seriousViolations(page) }).toEqual({ url, violations: [] });
      if (url === "/app/orders") {
        expect(await page.getByRole("navigation", { name: "Pages" }).getByRole("button", { name: "Previous" }).isDisabled()).toBe(true);
        await page.getByRole("link", { name: /^Next page, 2 of/ }).click();
        await until(() => new URL(page.url()).searchParams.get("page")).toBe("2");
        await until(() => page.getByRole("link", { name: /^Previous page, 1 of/ }).count()).toBe(1);
        expect({ url: "/app/orders?page=2", violations: await seriousViolations(page) }).toEqual({ url: "/app/orders?page=2", violations: [] });
      }
    }
  });
});
