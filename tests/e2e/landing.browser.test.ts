import type { Browser } from "playwright-core";
import { launchBrowser } from "../helpers/browser";
import { startServer, type RunningServer } from "../helpers/server";

describe("the app's public landing page in Chromium", () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("renders and hydrates without script errors", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${server.url}/`);
    await expect(page.getByRole("heading", { name: "COD Verify" }).isVisible()).resolves.toBe(true);
    await page.waitForLoadState("networkidle");
    expect(errors).toEqual([]);
  });
});
