import { env, type Env } from "~/core/env.server";

/**
 * The local storefront emulation (/dev/storefront, /dev/assets/*, /apps/<subpath>/*) exists only in
 * local mode outside production: it signs requests with the app's secret on behalf of anyone who asks.
 */
export function devToolsEnabled(e: Pick<Env, "localMode" | "production"> = env): boolean {
  return e.localMode && !e.production;
}

/** What a refused dev route answers: the same 404 as a path that does not exist. */
export function devToolsRefused(): Response {
  return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}
