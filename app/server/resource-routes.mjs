// The production server's shortcut to the app's fixed-path resource routes (the storefront API under
// /proxy/... and the webhooks): Remix's request handler matches every request against the whole
// route tree anew (flattening, ranking and compiling every route's pattern each time), which cost a
// tenth of a storefront request. The routes listed in app/server-build.ts (fixed path, no params,
// no UI) are looked up here by exact pathname and their loader or action called as Remix calls a resource route's:
// `{ request, params: {}, context: {} }`, a thrown Response being the answer and any other thrown error
// handed to the app's handleError and answered as Remix answers it. Everything else (pages, paths with
// params, a method the route does not handle, any other spelling of a path) goes to Remix's handler as
// before. See docs/decisions/resource-route-dispatch.md; tests/server/resource-route-errors.test.ts
// holds the two ways to the same answers.

/**
 * Pathname → route module: the app's own table (app/server-build.ts), which the server build
 * exports beside the Remix build. Nothing here reads Remix's route table.
 */
export function fixedResourceRoutes(build) {
  return new Map(Object.entries(build.FIXED_RESOURCE_ROUTES ?? {}));
}

/**
 * The route's answer, or null when the route has no handler for this method (Remix decides then).
 * `handleError` is the app's (app/entry.server.tsx, the build's `entry.module.handleError`), called
 * as Remix's handler calls it for an error a resource route threw; the answer is then Remix's own
 * last resort (a plain-text 500), which `lastResortAsJson` turns into the contract's JSON.
 */
export async function callResourceRoute(module, request, handleError) {
  const reading = request.method === "GET" || request.method === "HEAD";
  const handler = reading ? module.loader : module.action;
  if (typeof handler !== "function") return null;
  const args = { request, params: {}, context: {} };
  let result;
  try {
    result = await handler(args);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    handleError?.(thrown, args);
    return new Response("Unexpected Server Error", { status: 500, headers: { "Content-Type": "text/plain" } });
  }
  return result instanceof Response ? result : Response.json(result ?? null);
}

/**
 * Remix answers an error no route caught with a plain-text 500 (in development with the error and
 * file paths in it). The app's handleError (app/entry.server.tsx) marks such requests; their answer
 * becomes the contract's JSON: 503 `unavailable` with Retry-After when the database failed, else
 * 500 `internal_error`. Pages with their own error boundary (HTML) are left as they are.
 */
export function lastResortAsJson(request, response) {
  const failure = request[Symbol.for("cod.failure")];
  if (!failure || response.status < 500 || /text\/html/.test(response.headers.get("content-type") ?? "")) return response;
  const headers = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };
  if (failure === "unavailable") {
    return new Response(JSON.stringify({ error: "The service is briefly unavailable. Try again in a moment.", code: "unavailable" }), {
      status: 503,
      headers: { ...headers, "retry-after": "5" },
    });
  }
  return new Response(JSON.stringify({ error: "Something went wrong on our side.", code: "internal_error" }), { status: 500, headers });
}

/**
 * The server's handler for a request that reached the app: a fixed-path resource route directly, the
 * rest through Remix's handler (`remixHandle`); either way an error no route caught answers as JSON.
 */
export function createAppHandler(build, remixHandle) {
  const routes = fixedResourceRoutes(build);
  const handleError = build.entry?.module?.handleError;
  const started = build.requestStarted ?? (() => {});
  const finished = build.requestFinished ?? (() => {});
  const handle = async (request, pathname) => {
    // The job worker waits while requests are being answered (app/core/jobs/foreground.server.ts).
    started();
    try {
      const route = routes.get(pathname);
      const response = (route && (await callResourceRoute(route, request, handleError))) ?? (await remixHandle(request));
      return lastResortAsJson(request, response);
    } finally {
      finished();
    }
  };
  /** Whether `pathname` is a fixed-path resource route (the server reads such a route's body whole). */
  handle.isFixedRoute = (pathname) => routes.has(pathname);
  /**
   * The route at `pathname` that answers `method` through its own interface, without web Request/Response
   * (a storefront JSON route, app/http/storefront.server.ts, or a webhook, app/http/webhook.server.ts), or
   * null: `wire(request)` is its answer, as the server writes it. It never throws (the route answers its own errors).
   */
  const wired = new Map(
    [...routes].flatMap(([pathname, module]) => {
      const route = module.storefront ?? module.webhook;
      if (!route) return [];
      const wire = async (request) => {
        started();
        try {
          return await route.wire(request);
        } finally {
          finished();
        }
      };
      return [[pathname, { method: route.method, wire }]];
    }),
  );
  handle.wireRoute = (pathname, method) => {
    const route = wired.get(pathname);
    return route && route.method === method ? route : null;
  };
  return handle;
}
