import { createRequestHandler } from "@remix-run/node";
import { jsonError } from "~/http/responses.server";
import { FIXED_RESOURCE_ROUTES, type ResourceRouteModule } from "~/server-build";
import { createAppHandler } from "../../app/server/resource-routes.mjs";
import { buildWith } from "../helpers/resource-route-build";

/**
 * server.mjs calls the fixed-path resource routes itself instead of through Remix's request handler
 * (docs/decisions/resource-route-dispatch.md). The shortcut must not change an answer: for every route
 * of the table, at its own path, the server's handler (createAppHandler, what server.mjs runs) and the
 * same handler with the shortcut off (every request through Remix's createRequestHandler) give the same
 * status, headers the contract names, and body, for
 *   - every method, unsigned: the route's own guard refuses (a thrown or returned Response), and a
 *     method it does not serve gets its 405;
 *   - a Response the route throws (how guards refuse);
 *   - an unexpected error, and a database that cannot be reached, thrown out of the route: handleError
 *     (app/entry.server.tsx) runs either way and the answer is the contract's JSON 500 `internal_error`
 *     or 503 `unavailable` (docs/contract.md, "Errors").
 */
type Answer = { status: number; headers: Record<string, string | null>; body: string };
const CONTRACT_HEADERS = ["content-type", "cache-control", "retry-after", "allow", "www-authenticate", "location"];
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;

async function answerOf(path: string, module: ResourceRouteModule, shortcut: boolean, method: string): Promise<Answer> {
  const build = buildWith(path, module, shortcut);
  const handle = createAppHandler(build, createRequestHandler(build, "production"));
  const body = method === "GET" || method === "HEAD" ? undefined : "{}";
  const request = new Request(`https://app.example.com${path}?shop=some-shop.myshopify.com`, { method, body, headers: body ? { "content-type": "application/json" } : {} });
  const response: Response = await handle(request, path);
  const headers = Object.fromEntries(CONTRACT_HEADERS.map((h) => [h, response.headers.get(h)]));
  // A HEAD answer's body is never sent (Remix empties it; node:http writes none).
  return { status: response.status, headers, body: method === "HEAD" ? "" : await response.text() };
}

/** Both ways to the answer, which must agree. */
async function bothWays(path: string, module: ResourceRouteModule, method: string): Promise<Answer> {
  const direct = await answerOf(path, module, true, method);
  const throughRemix = await answerOf(path, module, false, method);
  expect(direct, `${method} ${path}`).toEqual(throughRemix);
  return direct;
}

const throwing = (thrown: () => unknown): ResourceRouteModule => ({
  loader: async () => {
    throw thrown();
  },
  action: async () => {
    throw thrown();
  },
});

/** What Prisma throws when the database cannot be reached (app/core/db/database-errors.ts reads it as unavailable). */
function databaseUnreachable() {
  return Object.assign(new Error("Can't reach database server at `db:5432`"), { name: "PrismaClientInitializationError", errorCode: "P1001" });
}

/** Runs `work` with the app's error log (stderr) captured: the lines logged as an unhandled error. */
async function unhandledErrorsLogged<T>(work: () => Promise<T>): Promise<{ result: T; logged: number }> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    return { result: await work(), logged: lines.filter((l) => l.includes('"msg":"unhandled error"')).length };
  } finally {
    spy.mockRestore();
  }
}

const routes = Object.entries(FIXED_RESOURCE_ROUTES);

describe("fixed-path resource routes answer the same through server.mjs's shortcut as through Remix's handler", () => {
  it("covers every route of the table", () => {
    expect(routes.length).toBeGreaterThanOrEqual(20);
  });

  it.each(routes)("%s: every method, unsigned, gets the route's own refusal or its 405", async (path, module) => {
    for (const method of METHODS) {
      const answer = await bothWays(path, module, method);
      // The health check is public: it reads and answers.
      if (path === "/proxy/api/auth/ping" && (method === "GET" || method === "HEAD")) {
        expect(answer.status).toBe(200);
        continue;
      }
      expect(answer.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, `${method} ${path}`).toBeLessThan(500);
      // docs/contract.md: every /proxy route but the health check refuses an unsigned request with 401 `invalid_signature`.
      if (path.startsWith("/proxy/") && answer.status !== 405 && method !== "HEAD") {
        expect(JSON.parse(answer.body), `${method} ${path}`).toMatchObject({ code: "invalid_signature", error: expect.any(String) });
      }
      if (answer.status === 405) {
        expect(answer.headers.allow, `${method} ${path}`).toBeTruthy();
        if (method !== "HEAD") expect(JSON.parse(answer.body)).toMatchObject({ code: "method_not_allowed", error: expect.any(String) });
      }
    }
  });

  it.each(routes)("%s: a thrown Response is the answer", async (path) => {
    for (const method of ["GET", "POST"]) {
      const answer = await bothWays(path, throwing(() => jsonError(401, "unauthorized", "The request is not signed.")), method);
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toEqual({ error: "The request is not signed.", code: "unauthorized" });
      expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    }
  });

  it.each(routes)("%s: an unexpected error is the contract's JSON 500, a database out of reach its 503", async (path) => {
    for (const method of ["GET", "POST"]) {
      // handleError runs both ways: one line each.
      const { result: failed, logged } = await unhandledErrorsLogged(() => bothWays(path, throwing(() => new Error("a defect")), method));
      expect(logged).toBe(2);
      expect(failed).toMatchObject({ status: 500, headers: { "content-type": expect.stringMatching(/^application\/json/), "cache-control": "no-store" } });
      expect(JSON.parse(failed.body)).toEqual({ error: "Something went wrong on our side.", code: "internal_error" });

      const { result: down } = await unhandledErrorsLogged(() => bothWays(path, throwing(databaseUnreachable), method));
      expect(down).toMatchObject({ status: 503, headers: { "retry-after": "5", "cache-control": "no-store" } });
      expect(JSON.parse(down.body)).toEqual({ error: "The service is briefly unavailable. Try again in a moment.", code: "unavailable" });
    }
  });
});
