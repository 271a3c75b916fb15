import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * One config, three suites chosen by TEST_SUITE (scripts/test.mjs runs them all):
 *   sqlite    unit tests, route tests and server tests, on a SQLite file per worker
 *   postgres  the route and database tests again, on a PostgreSQL database per worker
 *   browser   Chromium driving the storefront pages against the built server
 */
const suite = process.env.TEST_SUITE ?? "sqlite";

const include: Record<string, string[]> = {
  sqlite: ["app/**/*.test.ts", "tests/**/*.test.ts"],
  // *.pg.test.ts: PostgreSQL only (several app instances on one database).
  postgres: ["tests/routes/**/*.test.ts", "tests/db/**/*.test.ts", "tests/hardening/**/*.pg.test.ts"],
  browser: ["tests/e2e/**/*.browser.test.ts"],
};

export default defineConfig({
  resolve: {
    alias: {
      "~": path.resolve(__dirname, "app"),
      "@remix-run/dev/server-build": path.resolve(__dirname, "tests/setup/server-build-stub.ts"),
    },
  },
  test: {
    globals: true,
    environment: "node",
    include: include[suite],
    exclude: [
      "node_modules/**",
      ...(suite === "browser" ? [] : ["tests/e2e/**/*.browser.test.ts"]),
      ...(suite === "postgres" ? [] : ["**/*.pg.test.ts"]),
    ],
    globalSetup: ["tests/setup/global.ts"],
    setupFiles: ["tests/setup/worker.ts"],
    pool: "forks",
    maxWorkers: 2,
    minWorkers: 1,
    restoreMocks: true,
    // A hang guard, not a speed check: a browser test drives several pages through the built server,
    // and on a shared, loaded machine one can take well over 20 s while being correct.
    testTimeout: suite === "browser" ? 90_000 : 20_000,
    hookTimeout: 60_000,
    // The library's React entry imports JSON without an import attribute once patched (patches/, for the
    // Remix compiler): Vite transforms it instead of Node loading it, as the app's bundler does.
    server: { deps: { inline: [/@shopify\/shopify-app-remix\/dist\/esm\/react/] } },
    env: { NODE_ENV: "test", TEST_DB: suite === "postgres" ? "postgres" : "sqlite", LOG_LEVEL: "error" },
  },
});
