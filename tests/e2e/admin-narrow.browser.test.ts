import { seriousViolations } from "../helpers/browser";
import { useAdminBrowser } from "../helpers/admin-browser";
import { shot } from "./modal-helpers";

/**
 * The admin on a phone and a tablet, with a month of activity (npm run seed:activity): every page has
 * no serious or critical axe violation at 360x640 and 768x1024; the dashboard's wide tables scroll
 * sideways inside a region the keyboard can reach; its chart joins the days with straight lines.
 */
describe("the merchant's admin at narrow sizes, with a month of activity", () => {
  const admin = useAdminBrowser({ seedEvents: 600 });

  it.each([
    [360, 640],
    [768, 1024],
  ] as const)("at %ix%i", async (width, height) => {
    const { page, server } = admin;
    await page.setViewportSize({ width, height });
    for (const url of ["/app", "/app/orders", "/app/blocklist", "/app/risk", "/app/deliveries", "/app/deliveries/analytics", "/app/settings", "/app/plans", "/app/data-requests"]) {
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
    const lines = await page.locator("svg path[stroke]").evaluateAll((paths) =>
      paths.map((p) => p.getAttribute("d") ?? "").filter((d) => (d.startsWith("M") && d.includes("L")) || d.includes("C")),
    );
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((d) => d.includes("C"))).toEqual([]);
    await shot(page, `admin-home-${width}`);
  }, 120_000);
});
