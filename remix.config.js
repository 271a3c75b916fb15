/** Remix v2 with the classic compiler. The server build is ESM, served by server.mjs. */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  // build/index.js is app/server-build.ts bundled with the app: the Remix build plus the background
  // work server.mjs starts (docs/architecture.md).
  server: "app/server-build.ts",
  // The library's React components are bundled like Polaris: their JSON import (patches/) needs the bundler.
  serverDependenciesToBundle: [/^@shopify\/polaris/, /^@shopify\/shopify-app-remix\/react/],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
