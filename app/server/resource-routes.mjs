// The production server's shortcut to the app's fixed-path resource routes (the storefront API under
// /proxy/... and the webhooks): Remix's request handler matches every request against the whole
// route tree anew (flattening, ranking and compiling every route's pattern each time), which cost a
// tenth of a storefront request. Routes that have a fixed path, no params and no UI are looked up
// here by exact pathname and their loader or action called as Remix calls a resource route's:
// `{ request, params: {}, context: {} }`, a thrown Response being the answer. Everything else (pages,
// paths with params, a method the route does not handle, any other spelling of a path) goes to
// Remix's handler as before. See docs/decisions/resource-route-dispatch.md.

/** Pathname → route module, for resource routes (no default export) whose whole path is fixed. */
export function fixedResourceRoutes(build) {
  const routes = build.routes ?? {};
  const table = new Map();
  const fullPath = (route) => {
    const parts = [];
    for (let r = route; r; r = r.parentId ? routes[r.parentId] : null) if (r.path) parts.unshift(r.path);
    return `/${parts.join("/")}`;
  };
  for (const route of Object.values(routes)) {
    if (route.module?.default || route.index || !route.path) continue;
    const path = fullPath(route);
    if (/[:*?]/.test(path)) continue;
    table.set(path, route.module);
  }
  return table;
}

/** The route's answer, or null when the route has no handler for this method (Remix decides then). */
export async function callResourceRoute(module, request) {
  const reading = request.method === "GET" || request.method === "HEAD";
  const handler = reading ? module.loader : module.action;
  if (typeof handler !== "function") return null;
  let result;
  try {
    result = await handler({ request, params: {}, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
  return result instanceof Response ? result : Response.json(result ?? null);
}
