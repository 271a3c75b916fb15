import type { Page } from "playwright-core";
import { until, seriousViolations } from "../helpers/browser";
import { useAdminBrowser } from "../helpers/admin-browser";
import { type RunningServer, deliverOrderCreated } from "../helpers/server";
import { orderCreatedPayload } from "../helpers/webhooks";
import { shot } from "./modal-helpers";
import { SETTINGS_SECTIONS } from "~/core/settings/registry";

/**
 * The merchant's admin in Chromium, opened as a developer opens it in local mode (http://localhost/app,
 * no Shopify store, App Bridge absent): every page passes axe-core with no serious or critical
 * violation, numbers are blocked, found, unblocked and imported through the page, the orders the
 * store sent are listed and filtered, settings are saved through the fallback save bar.
 */

describe("the merchant's admin in Chromium (local mode, no App Bridge)", () => {
  const admin = useAdminBrowser();
  let server: RunningServer;
  let page: Page;
  beforeAll(() => {
    ({ server, page } = admin);
  });

  async function open(url: string) {
    const response = await page.goto(`${server.url}${url}`, { waitUntil: "networkidle" });
    expect(response?.status()).toBe(200);
  }

  it.each([
    ["/app", "Home", "Home · COD Verify"],
    ["/app/orders", "Orders", "Orders · COD Verify"],
    ["/app/needs-a-person", "Needs a person", "Needs a person · COD Verify"],
    ["/app/blocklist", "Blocked numbers", "Blocked numbers · COD Verify"],
    ["/app/risk", "Risk", "Risk · COD Verify"],
    ["/app/deliveries", "Deliveries", "Deliveries · COD Verify"],
    ["/app/settings", "Settings", "Settings · COD Verify"],
    ["/app/plans", "Plans", "Plans · COD Verify"],
    ["/app/data-requests", "Data requests", "Data requests · COD Verify"],
  ] as const)("opens %s for the demo shop with its navigation and title, with no serious or critical axe violation", async (url, heading, title) => {
    await open(url);
    expect(await page.title()).toBe(title);
    await until(() => page.getByRole("heading", { level: 1, name: heading }).count()).toBe(1);
    const nav = page.getByRole("navigation", { name: "COD Verify" });
    expect(await nav.getByRole("link").allTextContents()).toEqual(["Home", "Orders", "Needs a person", "Blocked numbers", "Risk", "Deliveries", "Settings", "Plans", "Data requests"]);
    expect(await nav.locator('[aria-current="page"]').textContent()).toBe(heading);
    await shot(page, `admin-${url.replace(/\W+/g, "-")}`);
    expect(await seriousViolations(page), url).toEqual([]);
  }, 60_000);

  it("moves between pages without reloading the document (the library's AppProvider link)", async () => {
    await open("/app/orders");
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    await page.getByRole("navigation", { name: "COD Verify" }).getByRole("link", { name: "Blocked numbers" }).click();
    await until(() => page.getByRole("heading", { level: 1, name: "Blocked numbers" }).count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe("/app/blocklist");
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  });

  it("blocks a number, shows it masked, finds it, unblocks it; imports a list and names the bad lines", { timeout: 60_000 }, async () => {
    await open("/app/blocklist");
    await page.getByLabel("Phone number").fill("+91 98123 45678");
    await page.getByLabel("Reason (optional)").fill("Refused three deliveries");
    await page.getByRole("button", { name: "Block number" }).click();
    const table = page.getByRole("table");
    await until(() => table.getByRole("row").count()).toBe(2);
    const text = await table.innerText();
    expect(text).toContain("+9198•••5678");
    expect(text).toContain("Refused three deliveries");
    expect(text).not.toContain("+919812345678");
    await until(() => page.getByRole("status").filter({ hasText: "+9198•••5678 blocked" }).count()).toBe(1);

    const list = ["+971501234567, fake orders", "not a number", "+14155550199", "+14155550199", "12345"].join("\n");
    await page.getByLabel("Numbers", { exact: true }).fill(list);
    await page.getByRole("button", { name: "Import numbers" }).click();
    await until(() => table.getByRole("row").count()).toBe(4);
    const report = await page.getByText("2 numbers blocked, 1 repeated line counted once").locator("xpath=ancestor::div[contains(@class,'Polaris-Banner')][1]").innerText();
    expect(report).toContain("Line 2: not a number");
    expect(report).toContain("Line 5: 12345");
    await shot(page, "admin-blocklist-with-numbers");
    // The page with numbers on it, and the import report.
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel("Search blocked numbers").fill("97150");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await until(() => table.getByRole("row").count()).toBe(2);
    expect(await table.innerText()).toContain("+9715•••4567");
    expect(new URL(page.url()).searchParams.get("q")).toBe("97150");

    await page.getByRole("button", { name: "Unblock +9715•••4567" }).click();
    await until(() => page.getByText("No blocked number matches").count()).toBe(1);
    await until(() => page.getByRole("status").filter({ hasText: "+9715•••4567 unblocked" }).count()).toBe(1);

    await page.getByLabel("Search blocked numbers").fill("");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await until(() => page.getByRole("table").getByRole("row").count()).toBe(3);
    expect(await page.getByRole("table").innerText()).not.toContain("+9715•••4567");
  });

  it("refuses a number that is not international, beside the field, and keeps what was typed", async () => {
    await open("/app/blocklist");
    await page.getByLabel("Phone number").fill("98123 45678");
    await page.getByRole("button", { name: "Block number" }).click();
    await until(() => page.getByText("Enter the number in international format").count()).toBe(1);
    expect(await page.getByLabel("Phone number").inputValue()).toBe("98123 45678");
    expect(await page.getByLabel("Phone number").getAttribute("aria-invalid")).toBe("true");
  });

  it("lists the orders the store sent with their verification state, masked phone and a link into Shopify's admin; filters by state", { timeout: 60_000 }, async () => {
    const cod = orderCreatedPayload({ phone: "+212600000091", shipping_address: { phone: "+212600000091", country_code: "MA" } });
    const card = orderCreatedPayload({ phone: "+212600000092", gateway: "shopify_payments", payment_gateway_names: ["shopify_payments"] });
    expect((await deliverOrderCreated(server, cod)).status).toBe(200);
    expect((await deliverOrderCreated(server, card)).status).toBe(200);

    await open("/app/orders");
    const table = page.getByRole("table");
    expect(await table.getByRole("row").count()).toBe(3);
    const codRow = table.getByRole("row").filter({ hasText: cod.name });
    expect(await codRow.innerText()).toMatch(/Pending confirmation[\s\S]*Cash on delivery[\s\S]*\+2126•••0091/);
    // Without App Bridge, "Open" is the order's address in Shopify's admin, opened in the top window.
    const openLink = codRow.getByRole("link", { name: `Open order ${cod.name} in Shopify` });
    expect(await openLink.getAttribute("href")).toBe(`https://admin.shopify.com/store/demo-shop/orders/${cod.admin_graphql_api_id.split("/").pop()}`);
    expect(await openLink.getAttribute("target")).toBe("_top");
    // The pending COD order can have its confirmation resent; the card order cannot.
    expect(await codRow.getByRole("button", { name: `Resend link to confirm order ${cod.name}` }).count()).toBe(1);
    expect(await table.getByRole("row").filter({ hasText: card.name }).getByRole("button", { name: /Resend/ }).count()).toBe(0);
    expect(await table.innerText()).not.toContain("+212600000091");
    expect(await table.getByRole("row").filter({ hasText: card.name }).innerText()).toMatch(/Unverified[\s\S]*Paid at checkout/);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel("Show").selectOption("pending");
    await until(() => new URL(page.url()).searchParams.get("status")).toBe("pending");
    await until(() => table.getByRole("row").count()).toBe(2);
    expect(await table.innerText()).toContain(cod.name);
    await shot(page, "admin-orders-pending");
  });

  it("blocks an order's number from its row: told, the row says so, and the Blocked numbers page lists it", { timeout: 60_000 }, async () => {
    const order = orderCreatedPayload({ phone: "+212600000093", gateway: "shopify_payments", payment_gateway_names: ["shopify_payments"] });
    expect((await deliverOrderCreated(server, order)).status).toBe(200);
    await open("/app/orders");
    const row = page.getByRole("table").getByRole("row").filter({ hasText: order.name });
    await row.getByRole("button", { name: `Block number +2126•••0093 of order ${order.name}` }).click();
    // One press asks; Cancel takes it back and nothing is blocked.
    await row.getByRole("button", { name: "Keep +2126•••0093 unblocked" }).click();
    expect(await row.getByRole("button", { name: /^Yes, block/ }).count()).toBe(0);
    await row.getByRole("button", { name: `Block number +2126•••0093 of order ${order.name}` }).click();
    const confirm = row.getByRole("button", { name: "Yes, block +2126•••0093: no more codes to it" });
    await until(() => confirm.evaluate((el) => el === document.activeElement)).toBe(true);
    await confirm.click();
    await until(() => page.getByRole("status").filter({ hasText: `+2126•••0093 blocked: it gets no more codes (order ${order.name})` }).count()).toBe(1);
    await until(() => row.getByText("Number blocked").count()).toBe(1);
    expect(await row.getByRole("button", { name: /^Block / }).count()).toBe(0);
    await shot(page, "admin-orders-blocked");
    expect(await seriousViolations(page)).toEqual([]);
    await open("/app/blocklist?q=0093");
    expect(await page.getByRole("table").innerText()).toContain(`Blocked from order ${order.name}`);
  });

  it("saves settings through the save bar that stands in for App Bridge's, and says so", { timeout: 60_000 }, async () => {
    await open("/app/settings/codes");
    expect(await page.getByRole("region", { name: "Unsaved changes" }).count()).toBe(0);
    const ttl = page.getByLabel("Code lifetime");
    await ttl.fill("900");
    const bar = page.getByRole("region", { name: "Unsaved changes" });
    await until(() => bar.count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await bar.getByRole("button", { name: "Save" }).click();
    await until(() => page.getByRole("status").filter({ hasText: "One-time codes saved" }).count()).toBe(1);
    expect(await page.getByLabel("Code lifetime").inputValue()).toBe("900");
    expect(await bar.count()).toBe(0);

    await page.getByLabel("Code lifetime").fill("5");
    await bar.getByRole("button", { name: "Discard" }).click();
    expect(await page.getByLabel("Code lifetime").inputValue()).toBe("900");
    await page.reload({ waitUntil: "networkidle" });
    expect(await page.getByLabel("Code lifetime").inputValue()).toBe("900");
  });

  it("limits codes to countries chosen by name, shown as tags, and saves their ISO codes", { timeout: 60_000 }, async () => {
    await open("/app/settings/codes");
    const countries = page.getByRole("combobox", { name: "Countries allowed" });
    await countries.fill("Indi");
    await page.getByRole("option", { name: "India", exact: true }).click();
    await countries.fill("United Arab");
    await page.getByRole("option", { name: "United Arab Emirates", exact: true }).click();
    await until(() => page.getByRole("button", { name: "Remove India" }).count()).toBe(1);
    expect(await page.locator('input[name="allowedCountries"]').inputValue()).toBe("IN,AE");
    await countries.scrollIntoViewIfNeeded();
    await shot(page, "admin-settings-countries");
    await page.getByRole("region", { name: "Unsaved changes" }).getByRole("button", { name: "Save" }).click();
    await until(() => page.getByRole("status").filter({ hasText: "One-time codes saved" }).count()).toBe(1);
    expect(await page.locator('input[name="allowedCountries"]').inputValue()).toBe("IN,AE");
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Remove United Arab Emirates" }).click();
    await page.getByRole("button", { name: "Remove India" }).click();
    await page.getByRole("region", { name: "Unsaved changes" }).getByRole("button", { name: "Save" }).click();
    await until(() => page.getByRole("status").filter({ hasText: "One-time codes saved" }).count()).toBe(1);
    expect(await page.locator('input[name="allowedCountries"]').inputValue()).toBe("");
  });

  it.each([
    [360, 640],
    [768, 1024],
    [1280, 800],
  ])("at %dx%d, countries typed rather than picked are saved, or refused saying which and how, never dropped with \"saved\"", { timeout: 90_000 }, async (width, height) => {
    await page.setViewportSize({ width, height });
    try {
      await open("/app/settings");
      // A short index of the sections; each is a page of its own.
      const index = page.getByRole("navigation", { name: "Settings sections" });
      expect(await index.getByRole("link").count()).toBe(SETTINGS_SECTIONS.length);
      await index.getByRole("link", { name: /^One-time codes/ }).click();
      await until(() => page.getByRole("combobox", { name: "Countries allowed" }).isVisible()).toBe(true);
      const countries = page.getByRole("combobox", { name: "Countries allowed" });
      const hidden = page.locator('input[name="allowedCountries"]');
      /** Save by keyboard and wait for the answer, so nothing is clicked on the form its answer replaces. */
      const saveByKeyboard = async () => {
        await page.getByRole("region", { name: "Unsaved changes" }).getByRole("button", { name: "Save" }).focus();
        const answered = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/app/settings"));
        await page.keyboard.press("Enter");
        await answered;
        await page.waitForLoadState("networkidle");
      };
      // Typed, then the field left by Tab: what it names becomes tags; posted as codes.
      await countries.focus();
      await page.keyboard.type("IN, AE");
      await page.keyboard.press("Tab");
      await until(() => page.getByRole("button", { name: "Remove United Arab Emirates" }).count()).toBe(1);
      expect(await hidden.inputValue()).toBe("IN,AE");
      await saveByKeyboard();
      await until(() => page.getByRole("status").filter({ hasText: "One-time codes saved" }).count()).toBe(1);
      expect(await hidden.inputValue()).toBe("IN,AE");
      // The focus moves to the message, in view, not to the page's body.
      await until(() => page.evaluate(() => document.activeElement?.textContent)).toBe("One-time codes saved");
      expect(await page.getByRole("status").filter({ hasText: "One-time codes saved" }).isVisible()).toBe(true);

      // A name that is no country: refused, naming it, and nothing saved.
      await countries.focus();
      await page.keyboard.type("Kenyaa");
      await saveByKeyboard();
      await until(() => page.getByText(/Not a country phone numbers belong to: Kenyaa\. Type a country's English name/).count()).toBeGreaterThan(0);
      expect(await page.getByRole("status").filter({ hasText: "saved" }).count()).toBe(0);
      expect(await countries.inputValue()).toBe("Kenyaa");
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `admin-settings-countries-refused-${width}`);

      // Corrected and saved without leaving the field: the text in it is saved too.
      await countries.fill("Kenya");
      await saveByKeyboard();
      await until(() => page.getByRole("button", { name: "Remove Kenya" }).count()).toBe(1);
      expect(await hidden.inputValue()).toBe("IN,AE,KE");

      // Back to every country for the next size.
      for (const name of ["India", "United Arab Emirates", "Kenya"]) await page.getByRole("button", { name: `Remove ${name}` }).click();
      await saveByKeyboard();
      await until(() => hidden.inputValue()).toBe("");
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it("after a refused save, brings the summary of what to change into view and gives it focus", { timeout: 60_000 }, async () => {
    await open("/app/settings/codes");
    await page.getByLabel("Code lifetime").fill("9");
    await page.getByRole("region", { name: "Unsaved changes" }).getByRole("button", { name: "Save" }).click();
    const summary = page.locator(".settings-answer").filter({ hasText: /One setting needs a change before saving/ });
    await until(() => summary.count()).toBe(1);
    await until(() => summary.evaluate((el) => el === document.activeElement)).toBe(true);
    const box = (await summary.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y).toBeLessThan(page.viewportSize()!.height);
    expect(await summary.innerText()).toContain("Code lifetime");
    expect(await seriousViolations(page)).toEqual([]);
  });
});
