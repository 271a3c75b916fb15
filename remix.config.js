import path from "node:path";

/**
 * Remix v2 with the classic compiler. The server build is ESM, served by server.mjs.
 *
 * Two variants, chosen at build time: `npm run build` (what `remix build` does by default) leaves out
 * local mode's tools: the storefront emulator, its assets, the theme's cart and the /apps proxy
 * stand-in (the routes below), and the admin access stand-in (`#admin-access` in package.json resolves
 * to app/core/shopify/admin-access.server.ts, which changes nothing). `npm run build:dev` (LOCAL_TOOLS=true,
 * which `npm run local` and the server and browser tests use) keeps the routes and builds with the
 * `cod-local-tools` condition, under which `#admin-access` is app/dev/admin-access.server.ts. Both are
 * production-mode builds of the same app (NODE_ENV at run time decides the rest).
 * tests/server/production-build.test.ts builds the production variant into REMIX_BUILD_DIR and checks.
 */
const localTools = process.env.LOCAL_TOOLS === "true";
const LOCAL_MODE_ROUTES = ["**/dev.*", "**/cart*", "**/apps.$subpath.$.ts"];
const out = process.env.REMIX_BUILD_DIR;

export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}", ...(localTools ? [] : LOCAL_MODE_ROUTES)],
  ...(out ? { serverBuildPath: path.join(out, "index.js"), assetsBuildDirectory: path.join(out, "public", "build") } : {}),
  serverModuleFormat: "esm",
  // build/index.js is app/server-build.ts bundled with the app: the Remix build plus the background
  // work server.mjs starts (docs/architecture.md).
  server: "app/server-build.ts",
  // esbuild's default conditions plus ours (a list replaces the default, which includes "module").
  ...(localTools ? { serverConditions: ["cod-local-tools", "module"] } : {}),
  // The library's React components are bundled like Polaris: their JSON import (patches/) needs the bundler.
  // `#` imports are the app's own (package.json "imports"), bundled like the rest of it.
  serverDependenciesToBundle: [/^@shopify\/polaris/, /^@shopify\/shopify-app-remix\/react/, /^#/],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
