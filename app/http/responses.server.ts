import { isDatabaseUnavailable } from "~/core/db/database-errors";
import { noteDatabaseUnavailable } from "~/core/db/outage.server";
import { log } from "~/core/utils/log.server";

/** JSON responses for the storefront API: never cached, errors always `{ error, code, ...extra }`. */

const NO_STORE = { "Cache-Control": "no-store" } as const;

export function json(data: unknown, init: number | ResponseInit = 200): Response {
  const responseInit: ResponseInit = typeof init === "number" ? { status: init } : init;
  const headers = new Headers(responseInit.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", NO_STORE["Cache-Control"]);
  return new Response(JSON.stringify(data), { ...responseInit, headers });
}

export function jsonError(
  status: number,
  code: string,
  error: string,
  extra: Record<string, unknown> = {},
  headers?: HeadersInit,
): Response {
  return json({ error, code, ...extra }, { status, headers });
}

/** A 405 for a JSON route called with the wrong method. */
export function methodNotAllowed(allowed: string[]): Response {
  return jsonError(405, "method_not_allowed", `Use ${allowed.join(" or ")} for this route.`, {}, { Allow: allowed.join(", ") });
}

/**
 * Runs a route body; a thrown Response is returned as the answer (that is how guards reject). Any
 * other error is logged and answered per the contract: 503 `unavailable` when the database failed,
 * else 500 `internal_error`; the body never names the error.
 */
export async function answer(run: () => Promise<Response>, where = "route"): Promise<Response> {
  try {
    return await run();
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    return responseForError(thrown, where);
  }
}

/*
 * What an unexpected error becomes on the wire. Two kinds only:
 *   the database (or its connection) failed: 503 `unavailable` with Retry-After, so a client (and
 *     Shopify, for webhooks) retries; nothing was answered 2xx for it, so nothing is lost;
 *   anything else is a defect: 500 `internal_error`.
 */

/** Seconds a client is asked to wait before retrying while the database is unavailable. */
export const RETRY_AFTER_SECONDS = 5;

export function unavailable(): Response {
  return jsonError(
    503,
    "unavailable",
    "The service is briefly unavailable. Try again in a moment.",
    {},
    { "Retry-After": String(RETRY_AFTER_SECONDS) },
  );
}

export function internalError(): Response {
  return jsonError(500, "internal_error", "Something went wrong on our side.");
}

/** Logs an unexpected error (name and message, never the request's URL) and answers for it. */
export function responseForError(error: unknown, where: string): Response {
  const down = isDatabaseUnavailable(error);
  const e = error as { name?: string; message?: string; code?: string };
  const message = String(e?.message ?? error).split("\n").filter(Boolean).slice(-1)[0]?.slice(0, 300);
  if (down) noteDatabaseUnavailable("database unavailable", { where, error: e?.name, kind: e?.code, message });
  else log.error("unexpected error", { where, error: e?.name, message, stack: String((error as Error)?.stack ?? "").slice(0, 2000) });
  return down ? unavailable() : internalError();
}


/**
 * A page the app hosts under the app proxy (the address form, the order confirmation): opened from a
 * texted link whose token is in the URL, so it is never cached, never sends that URL on as a referrer,
 * runs no script, and may not be framed by another page (CSP for current browsers, X-Frame-Options
 * for old ones).
 */
export function hostedPage(body: string, status = 200): Response {
  return new Response(body, {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
      "X-Frame-Options": "DENY",
    },
  });
}
