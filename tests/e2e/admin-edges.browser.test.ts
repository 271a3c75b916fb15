import type { Locator } from "playwright-core";
import { OPERATIONS } from "../../app/core/shopify/operations";
import { ADMIN_PAGES } from "../../app/admin/navigation";
import { seriousViolations, until } from "../helpers/browser";
import { useAdminBrowser } from "../helpers/admin-browser";
import { deliverOrderCreated, deliverWebhook } from "../helpers/server";
import { orderCreatedPayload } from "../helpers/webhooks";
import { shot } from "./modal-helpers";

/**
 * What a merchant meets walking the admin at a phone's, a tablet's and a laptop's size, with the keyboard
 * only (Tab, Enter, Space, arrows): every page passes axe-core with no serious or critical violation; the
 * pause banner says what checkout does, at once and after a plan is approved; Home's checklist finishes its
 * enforcement step in place and shows Settings' changes on the way back; Deliveries holds its analytics as
 * a tab (the old address redirects); the Orders page uses one period for every figure, shows times in the
 * store's time zone, and a block from a row asks first and can be undone.
 *
 * The server caches shop rows for ten minutes (CACHE_TTL_SECONDS), far longer than any wait here: a page
 * that read the storefront's cached row instead of the database would be caught saying something stale.
 */

const SIZES = [
  [360, 640],
  [768, 1024],
  [1280, 800],
] as const;

const OFFERED = "Shoppers are not asked for a code, and checkout offers cash on delivery to everyone.";

describe("the merchant's admin by keyboard at three sizes (local mode, a seeded month)", () => {
  const admin = useAdminBrowser({ seedEvents: 600, env: { CACHE_TTL_SECONDS: "600" } });
  const page = () => admin.page;

  beforeAll(async () => {
    // The store's time zone, as Shopify's shop/update tells it.
    const answer = await deliverWebhook(admin.server, "shop/update", { domain: "demo-shop.myshopify.com", name: "Demo shop", iana_timezone: "Asia/Kolkata" });
    expect(answer.status).toBe(200);
    // A busy machine, made so on purpose: every stylesheet answers a little late, so a check that ran before
    // the page's CSS applied (axe's target-size on the unstyled navigation after a plan's approval) fails every
    // run instead of one run in many. It delays, never times: nothing waits for it by the clock.
    await admin.context.route(/\.css(\?|$)/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 250));
      await route.fallback();
    });
    // A laptop-sized context opens the app; the approval page's return (SHOPIFY_APP_URL) lands on this server.
    await admin.context.route(/^http:\/\/127\.0\.0\.1\/app\//, (route) => {
      const target = new URL(route.request().url());
      return route.fulfill({ status: 302, headers: { location: `${admin.server.url}${target.pathname}${target.search}` } });
    });
  });

  async function open(url: string) {
    const response = await page().goto(`${admin.server.url}${url}`, { waitUntil: "networkidle" });
    expect(response?.status()).toBe(200);
  }

  /** Tab until `target` (or something inside it) has the focus, as a keyboard user reaches it; fails when it never does. */
  async function tabTo(target: Locator, limit = 250) {
    await target.first().waitFor();
    for (let i = 0; i < limit; i++) {
      await page().keyboard.press("Tab");
      if (await target.first().evaluate((el) => el === document.activeElement || el.contains(document.activeElement))) return;
    }
    throw new Error(`${target} is not reachable with Tab`);
  }

  async function press(target: Locator, key = "Enter") {
    await tabTo(target);
    await page().keyboard.press(key);
  }

  /** A move through the admin's own navigation bar, keyboard only, with no document load. */
  async function navigateTo(label: string) {
    const nav = page().getByRole("navigation", { name: "COD Verify" });
    await page().evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    await page().locator("body").focus();
    await press(nav.getByRole("link", { name: label, exact: true }));
    await until(() => nav.locator('[aria-current="page"]').textContent()).toBe(label);
    await until(() => page().evaluate(() => document.readyState)).toBe("complete");
    expect(await page().evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  }

  const banner = () => page().locator(".Polaris-Banner", { hasText: "Verification paused" });

  /** Whether checkout hides COD now: what the app last told Shopify (the fake records it). */
  function checkoutHidesCod(): boolean | null {
    const calls = admin.server.shopify!.fake.calls.filter(
      (c) => !c.refused && (c.operationName === OPERATIONS.paymentCustomizationUpdate || c.operationName === OPERATIONS.paymentCustomizationCreate),
    );
    const input = calls.at(-1)?.variables.input as { enabled?: boolean } | undefined;
    return input?.enabled ?? null;
  }

  async function expectClean(label: string) {
    expect(await seriousViolations(page()), label).toEqual([]);
  }

  it.each(SIZES)("at %ix%i every page opens with its heading and no serious axe violation; the nav has one Deliveries entry", async (width, height) => {
    await page().setViewportSize({ width, height });
    for (const { url, label } of ADMIN_PAGES) {
      await open(url);
      const nav = page().getByRole("navigation", { name: "COD Verify" });
      expect(await nav.getByRole("link").allTextContents()).toEqual(["Home", "Orders", "Needs a person", "Blocked numbers", "Risk", "Deliveries", "Settings", "Plans", "Data requests"]);
      expect(await nav.locator('[aria-current="page"]').textContent()).toBe(label);
      await until(() => page().getByRole("heading", { level: 1 }).count()).toBe(1);
      await shot(page(), `admin-walk-${url.replace(/\W+/g, "-")}-${width}`);
      await expectClean(`${url} at ${width}x${height}`);
    }
    // The old address of delivery analytics lands on its tab, the period kept.
    await open("/app/analytics?days=90");
    expect(new URL(page().url()).pathname).toBe("/app/deliveries/analytics");
    expect(new URL(page().url()).searchParams.get("days")).toBe("90");
    expect(await page().getByRole("navigation", { name: "COD Verify" }).locator('[aria-current="page"]').textContent()).toBe("Deliveries");
    expect(await page().getByRole("navigation", { name: "Deliveries" }).locator('[aria-current="page"]').textContent()).toBe("Analytics");
    await shot(page(), `admin-walk-deliveries-analytics-${width}`);
    await expectClean(`/app/deliveries/analytics at ${width}x${height}`);
  });

  it.each(SIZES)("at %ix%i Plans: the plans' buttons sit level, each at the bottom of its card, whatever the length of its text", async (width, height) => {
    await page().setViewportSize({ width, height });
    await open("/app/plans");
    const cards = page().locator("section").filter({ has: page().getByRole("heading", { level: 3 }) });
    expect(await cards.count()).toBe(4);
    const boxes = await cards.evaluateAll((sections) =>
      sections.map((section) => {
        const card = section.getBoundingClientRect();
        const button = [...section.querySelectorAll("a, button")].at(-1)!.getBoundingClientRect();
        return { top: Math.round(card.top), bottom: Math.round(card.bottom), buttonBottom: Math.round(button.bottom) };
      }),
    );
    // Cards side by side share a top; their buttons share a bottom, the card's padding above the card's edge.
    for (const top of new Set(boxes.map((b) => b.top))) {
      const row = boxes.filter((b) => b.top === top);
      expect(new Set(row.map((b) => b.buttonBottom)).size, `${width}: ${JSON.stringify(row)}`).toBe(1);
      for (const b of row) expect(b.bottom - b.buttonBottom).toBe(16);
    }
    expect(await page().getByText("Past that, verification pauses until next month: Free has no usage charges").count()).toBe(1);
    await shot(page(), `admin-plans-${width}`);
    await expectClean(`/app/plans at ${width}x${height}`);
  });

  it.each(SIZES)("at %ix%i Deliveries' two tabs are reached and followed with the keyboard", async (width, height) => {
    await page().setViewportSize({ width, height });
    await open("/app/deliveries");
    const tabs = page().getByRole("navigation", { name: "Deliveries" });
    await press(tabs.getByRole("link", { name: "Analytics" }));
    await until(() => new URL(page().url()).pathname).toBe("/app/deliveries/analytics");
    await until(() => page().getByRole("heading", { name: "Worst postal codes" }).count()).toBe(1);
    await press(tabs.getByRole("link", { name: "At risk" }));
    await until(() => new URL(page().url()).pathname).toBe("/app/deliveries");
    await until(() => page().getByRole("heading", { name: "Deliveries at risk" }).count()).toBe(1);
    await expectClean(`deliveries tabs at ${width}x${height}`);
  });

  it.each(SIZES)(
    "at %ix%i Home's enforcement step is done in place, and shows what Settings changed on the way back",
    async (width, height) => {
      await page().setViewportSize({ width, height });
      // The first visit reads the live theme (the app's block is on it) and checkout follows.
      await open("/app");
      const step = page().getByRole("listitem").filter({ hasText: "Hide cash on delivery at checkout until the phone is verified" });
      await until(async () => {
        await page().reload({ waitUntil: "networkidle" });
        return step.getByText("Done", { exact: true }).count();
      }).toBe(1);

      // Settings: the merchant turns it off there and saves, keyboard only.
      await navigateTo("Settings");
      await press(page().getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: /^Enforcement/ }));
      const box = page().getByRole("checkbox", { name: "Hide cash on delivery at checkout unless verified" });
      await box.waitFor();
      await press(box, "Space");
      expect(await box.isChecked()).toBe(false);
      await press(page().getByRole("region", { name: "Unsaved changes" }).getByRole("button", { name: "Save" }));
      await until(() => page().getByRole("status").filter({ hasText: "Enforcement saved" }).count()).toBe(1);

      // Back on Home: the checklist reads the shop as it is, the step is to do again and can be done right there.
      await navigateTo("Home");
      await until(() => step.getByText("To do", { exact: true }).count()).toBe(1);
      expect(await step.textContent()).toContain("Off: checkout offers cash on delivery to every shopper");
      expect(await step.getByRole("link", { name: /settings/i }).count()).toBe(0);
      await shot(page(), `admin-home-enforcement-off-${width}`);
      await expectClean(`home, enforcement off, at ${width}x${height}`);
      await press(step.getByRole("button", { name: "Hide cash on delivery until verified" }));
      await until(() => page().getByRole("status").filter({ hasText: "Checkout now hides cash on delivery until the shopper's phone is verified." }).count()).toBe(1);
      await until(() => step.getByText("Done", { exact: true }).count()).toBe(1);
      expect(checkoutHidesCod()).toBe(true);

      // And Settings shows it on again.
      await navigateTo("Settings");
      await press(page().getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: /^Enforcement/ }));
      expect(await page().getByRole("checkbox", { name: "Hide cash on delivery at checkout unless verified" }).isChecked()).toBe(true);
    },
    120_000,
  );

  it.each(SIZES)(
    "at %ix%i Orders: one period for every figure, times in the store's zone, a block asked first and undone from its row",
    async (width, height) => {
      await page().setViewportSize({ width, height });
      const phone = `+2126000001${width % 100}`.slice(0, 13);
      const order = orderCreatedPayload({ phone, gateway: "shopify_payments", payment_gateway_names: ["shopify_payments"] });
      expect((await deliverOrderCreated(admin.server, order)).status).toBe(200);
      await open("/app/orders");
      const caption = page().getByText(/^Counts and rows: orders/);
      expect(await caption.textContent()).toBe("Counts and rows: orders since the app was installed. Times in your store's time zone (Asia/Kolkata).");
      expect(await page().getByRole("columnheader", { name: "Placed (Asia/Kolkata)" }).count()).toBe(1);
      const allTime = await page().getByLabel("Show").locator("option").first().textContent();

      // The period, chosen with the arrow keys: the filter's counts, the footer and the rows all follow it.
      const period = page().getByLabel("Period");
      await tabTo(period);
      await page().keyboard.press("Home");
      await until(() => new URL(page().url()).searchParams.get("days")).toBe("7");
      await until(() => caption.textContent()).toContain("placed in the last 7 days");
      const lastWeek = await page().getByLabel("Show").locator("option").first().textContent();
      expect(Number(/\((\d+)\)/.exec(lastWeek ?? "")?.[1])).toBeLessThan(Number(/\((\d+)\)/.exec(allTime ?? "")?.[1]));
      expect(await page().getByText(/orders? placed in the last 7 days$/).count()).toBe(1);
      const placed = await page()
        .locator("time")
        .evaluateAll((times) => times.map((t) => new Date(t.getAttribute("datetime") ?? "").getTime()));
      expect(placed.length).toBeGreaterThan(0);
      expect(Math.min(...placed)).toBeGreaterThan(Date.now() - 7 * 86_400_000 - 60_000);

      const row = page().getByRole("table").getByRole("row").filter({ hasText: order.name });
      const shown = await row.locator("time").textContent();
      const expected = new Intl.DateTimeFormat("en", { timeZone: "Asia/Kolkata", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(
        new Date(order.created_at),
      );
      expect(shown).toBe(expected);

      // Block: asked first (Enter on the row's button), confirmed, then undone from the same row.
      const masked = `${phone.slice(0, 5)}•••${phone.slice(-4)}`;
      await press(row.getByRole("button", { name: `Block number ${masked} of order ${order.name}` }));
      const confirm = row.getByRole("button", { name: `Yes, block ${masked}: no more codes to it` });
      await until(() => confirm.evaluate((el) => el === document.activeElement)).toBe(true);
      await page().keyboard.press("Enter");
      await until(() => row.getByText("Number blocked").count()).toBe(1);
      await until(() => page().getByRole("status").filter({ hasText: `${masked} blocked` }).count()).toBe(1);
      // The focus goes to the row's Undo, which is brought into view (on a phone the table scrolls sideways).
      const undo = row.getByRole("button", { name: `Undo: unblock ${masked} of order ${order.name}` });
      await until(() => undo.evaluate((el) => el === document.activeElement)).toBe(true);
      const inView = await undo.evaluate((el) => {
        const box = el.getBoundingClientRect();
        return Math.floor(box.left) >= 0 && Math.floor(box.right) <= window.innerWidth;
      });
      expect(inView, `Undo in view at ${width}`).toBe(true);
      // The period is kept through the action.
      expect(new URL(page().url()).searchParams.get("days")).toBe("7");
      await shot(page(), `admin-orders-blocked-undo-${width}`);
      await expectClean(`orders, blocked, at ${width}x${height}`);
      await page().keyboard.press("Enter");
      await until(() => page().getByRole("status").filter({ hasText: `${masked} unblocked: it can get codes again` }).count()).toBe(1);
      // Undone: the focus is back on the row's Block number.
      const block = row.getByRole("button", { name: `Block number ${masked} of order ${order.name}` });
      await until(() => block.evaluate((el) => el === document.activeElement)).toBe(true);
      await open(`/app/blocklist?q=${phone.slice(-4)}`);
      expect(await page().getByText("No blocked number matches").count()).toBe(1);
    },
    120_000,
  );

  it.each(SIZES)(
    "at %ix%i the pause banner says what checkout does: at once on the next page, and gone on the way back from approving a plan",
    async (width, height) => {
      await page().setViewportSize({ width, height });
      await open("/app/plans");
      const current = (await page().getByText(/^Current plan: /).textContent())?.replace("Current plan: ", "");
      expect(current).not.toBe("Free");
      // Free: the seeded month is past its 50 verifications, so verification pauses and checkout offers COD to everyone.
      await press(page().getByRole("link", { name: /Switch to Free/ }));
      const confirmation = page().getByRole("region", { name: "Switch to Free?" });
      await until(() => confirmation.count()).toBe(1);
      await press(confirmation.getByRole("button", { name: "Switch to Free", exact: true }));
      await until(() => page().getByText("Current plan: Free").count()).toBe(1);
      await until(() => banner().count()).toBe(1);
      // Checkout follows through a job; then the next page's banner says the same as checkout, not what was true before.
      await until(() => checkoutHidesCod()).toBe(false);
      await navigateTo("Orders");
      await until(() => banner().count()).toBe(1);
      expect(await banner().textContent()).toContain(OFFERED);
      expect(await banner().textContent()).not.toContain("being updated");
      // The month's use began on a larger plan: it says so, never "139 of 50 used".
      expect(await banner().textContent()).toMatch(/\d+ verifications this month, more than the 50 your plan includes\./);
      await shot(page(), `admin-paused-banner-${width}`);
      await expectClean(`orders, paused, at ${width}x${height}`);

      // A plan with room for the month, approved on Shopify's page: back on Plans, no paused banner, without a reload.
      await navigateTo("Plans");
      await press(page().getByRole("link", { name: /Choose Starter/ }));
      await until(() => page().getByRole("heading", { name: "Choose Starter?" }).count()).toBe(1);
      await press(page().getByRole("button", { name: "Choose Starter", exact: true }));
      await until(() => page().getByRole("heading", { name: "Approve subscription" }).count()).toBe(1);
      await press(page().getByRole("button", { name: "Approve" }));
      await until(() => new URL(page().url()).pathname).toBe("/app/plans");
      await until(() => page().getByText("Current plan: Starter").count()).toBe(1);
      await until(() => page().getByRole("status").filter({ hasText: "You are on the Starter plan." }).count()).toBe(1);
      expect(await banner().count()).toBe(0);
      await expectClean(`plans, approved, at ${width}x${height}`);
      // Nor on the next page.
      await navigateTo("Home");
      await until(() => page().getByRole("heading", { level: 1, name: "Home" }).count()).toBe(1);
      expect(await banner().count()).toBe(0);
      await until(() => checkoutHidesCod()).toBe(true);
    },
    150_000,
  );
});
