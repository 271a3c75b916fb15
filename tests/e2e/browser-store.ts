import type { Browser } from "playwright-core";
import type { FakeShopify } from "../mocks/shopify/server";
import { launchBrowser } from "../helpers/browser";
import { startServer, type RunningServer } from "../helpers/server";

/**
 * The built server in local mode (development, the local demo shop) and Chromium for one describe
 * block: started before its tests, stopped after; `use` receives them. Given `fake`, that fake Shopify
 * is started first and the server's Admin calls go to it (SHOPIFY_API_ORIGIN is a development-only
 * switch), and it is stopped last. `env` adds to or overrides the server's environment.
 */
export function useBrowserStore(
  options: { fake?: FakeShopify; env?: Record<string, string> },
  use: (server: RunningServer, browser: Browser) => void,
): void {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    const origin = await options.fake?.start();
    const env = { NODE_ENV: "development", ...(origin ? { SHOPIFY_API_ORIGIN: origin } : {}), ...options.env };
    const [started, launched] = await Promise.all([startServer(env), launchBrowser()]);
    [server, browser] = [started, launched];
    use(started, launched);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await options.fake?.stop();
  });
}
