// The production server's shortcut to the app's fixed-path resource routes (the storefront API under
// /proxy/... and the webhooks): Remix's request handler matches every request against the whole
// route tree anew (flattening, ranking and compiling every route's pattern each time), which cost a
// tenth of a storefront request. The routes listed in app/server-build.ts (fixed path, no params,
// no UI) are looked up here by exact pathname and their loader or action called as Remix calls a resource route's:
// `{ request, params: {}, context: {} }`, a thrown Response being the answer. Everything else (pages,
// paths with params, a method the route does not handle, any other spelling of a path) goes to
// Remix's handler as before. See docs/decisions/resource-route-dispatch.md.

/**
 * Pathname → route module: the app's own table (app/server-build.ts), which the server build
 * exports beside the Remix build. Nothing here reads Remix's route table.
 */
export function fixedResourceRoutes(build) {
  return new Map(Object.entries(build.FIXED_RESOURCE_ROUTES ?? {}));
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
