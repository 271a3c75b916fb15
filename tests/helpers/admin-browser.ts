import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ROOT } from "../setup/databases";
import { adminContext, collectPageErrors, launchBrowser } from "./browser";
import { startServer, type RunningServer } from "./server";

export type AdminBrowser = { server: RunningServer; browser: Browser; context: BrowserContext; page: Page; errors: string[]; seeded: string };

/**
 * The merchant's admin in Chromium for one describe block: a local-mode server, a desktop browser context
 * and one page whose errors fail the test that made them; `seedEvents` fills the demo shop with that much
 * of a month (npm run seed:activity) first, its summary in `seeded`; `env`: more of the server's environment.
 */
export function useAdminBrowser(options: { seedEvents?: number; env?: Record<string, string>; prepare?: (admin: AdminBrowser) => Promise<void> } = {}): AdminBrowser {
  const admin = { errors: [] as string[], seeded: "" } as AdminBrowser;
  beforeAll(async () => {
    [admin.server, admin.browser] = await Promise.all([startServer({ NODE_ENV: "development", ...options.env }), launchBrowser()]);
    if (options.seedEvents) {
      const { stdout } = await promisify(execFile)(process.execPath, [path.join(ROOT, "scripts", "seed-activity.mjs"), "--events", String(options.seedEvents)], {
        env: { ...process.env, DATABASE_URL: `file:${path.join(admin.server.dataDir, "app.db")}`, NODE_ENV: "development" },
      });
      admin.seeded = stdout;
    }
    admin.context = await adminContext(admin.browser);
    await options.prepare?.(admin);
    admin.page = await admin.context.newPage();
    collectPageErrors(admin.page, admin.errors);
  }, 120_000);
  afterAll(async () => {
    await admin.context?.close();
    await admin.browser?.close();
    await admin.server?.stop();
  });
  afterEach(() => {
    expect(admin.errors).toEqual([]);
  });
  return admin;
}
