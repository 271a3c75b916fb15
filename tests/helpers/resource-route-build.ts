import type { ServerBuild } from "@remix-run/node";
import { handleError } from "~/entry.server";
import type { ResourceRouteModule } from "~/server-build";

export type BuildWithRoute = ServerBuild & { FIXED_RESOURCE_ROUTES: Record<string, ResourceRouteModule> };

/**
 * A Remix build of one resource route at `path` under a root, the app's handleError as its entry's, for the
 * server's handler (app/server/resource-routes.mjs): with `shortcut` the route is in the fixed-path table too,
 * without it every request goes through Remix's handler. `extra` adds the build's other exports.
 */
export function buildWith(path: string, module: ResourceRouteModule, shortcut: boolean, extra: Record<string, unknown> = {}): BuildWithRoute {
  return {
    mode: "production",
    entry: { module: { default: () => new Response("document", { status: 200 }), handleError } },
    routes: {
      root: { id: "root", path: "", module: { default: () => null } },
      "routes/under-test": { id: "routes/under-test", parentId: "root", path: path.slice(1), module },
    },
    assets: { entry: { module: "/build/entry.js", imports: [] }, routes: {}, url: "/build/manifest.js", version: "test" },
    publicPath: "/build/",
    assetsBuildDirectory: "public/build",
    future: { v3_fetcherPersist: true, v3_relativeSplatPath: true, v3_throwAbortReason: true, v3_lazyRouteDiscovery: true, v3_singleFetch: true },
    isSpaMode: false,
    basename: undefined,
    FIXED_RESOURCE_ROUTES: shortcut ? { [path]: module } : {},
    ...extra,
  } as unknown as BuildWithRoute;
}
