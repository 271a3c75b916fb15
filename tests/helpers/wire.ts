import type { WireAnswer } from "~/http/responses.server";
import { requestFromServer, type WireRequest } from "~/http/storefront.server";
import { callRoute } from "./proxy";

/**
 * The routes with an interface of their own beside Remix's (the storefront's JSON routes, the webhooks): what
 * server.mjs hands them, and the same request sent both ways.
 */

/** What server.mjs hands the route for `request`: node's raw header list and the body read whole. */
export async function asServerReads(request: Request): Promise<WireRequest> {
  const rawHeaders = [...request.headers].flatMap(([name, value]) => [name, value]);
  const body = Buffer.from(await request.arrayBuffer());
  return requestFromServer({ method: request.method, url: new URL(request.url), rawHeaders, body });
}

/**
 * The same request both ways, Remix's (`route.action`) and the server's (`wire`), made twice (a Request's body
 * is read once): status, every header and the body, byte for byte. Returns the server's answer.
 */
export async function bothWays(route: Parameters<typeof callRoute>[0], wire: (request: WireRequest) => Promise<WireAnswer>, make: () => Request): Promise<WireAnswer> {
  const remix = await callRoute(route, make());
  const answer = await wire(await asServerReads(make()));
  const remixHeaders = Object.fromEntries(remix.headers);
  expect({ status: answer.status, headers: answer.headers, body: answer.text }).toEqual({ status: remix.status, headers: remixHeaders, body: await remix.text() });
  return answer;
}
