import crypto from "node:crypto";
import { LOCATION_SCRIPT } from "~/shared/location-script";
import { isDatabaseUnavailable } from "~/core/db/database-errors";
import { noteDatabaseUnavailable } from "~/core/db/outage.server";
import { log } from "~/core/utils/log.server";

/** JSON responses for the storefront API: never cached, errors always `{ error, code, ...extra }`. */

const NO_STORE = { "Cache-Control": "no-store" } as const;
const JSON_TYPE = "application/json; charset=utf-8";

/**
 * A JSON answer before it is a web Response: status, body, extra headers. The storefront's JSON routes
 * build these (app/http/storefront.server.ts); `responseOf` makes one a Response for Remix, `wireOf` the
 * bytes and headers the production server writes. Both give the same status, headers and body.
 */
export type JsonAnswer = { readonly status: number; readonly body: unknown; readonly headers?: Readonly<Record<string, string>> };

/** An answer as it goes on the wire: header names in lower case, the body serialized. */
export type WireAnswer = { status: number; headers: Record<string, string>; text: string };

export function json(data: unknown, init: number | ResponseInit = 200): Response {
  const responseInit: ResponseInit = typeof init === "number" ? { status: init } : init;
  const headers = new Headers(responseInit.headers);
  headers.set("Content-Type", JSON_TYPE);
  headers.set("Cache-Control", NO_STORE["Cache-Control"]);
  return new Response(JSON.stringify(data), { ...responseInit, headers });
}

export function jsonAnswer(body: unknown, status = 200, headers?: Record<string, string>): JsonAnswer {
  return headers ? { status, body, headers } : { status, body };
}

export function errorAnswer(status: number, code: string, error: string, extra: Record<string, unknown> = {}, headers?: Record<string, string>): JsonAnswer {
  return jsonAnswer({ error, code, ...extra }, status, headers);
}

/** The answer as a web Response (what Remix's routes return). */
export function responseOf(answer: JsonAnswer): Response {
  return json(answer.body, { status: answer.status, headers: answer.headers });
}

/** The answer as the production server writes it: the same headers `json` sets, in lower case. */
export function wireOf(answer: JsonAnswer): WireAnswer {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers ?? {})) headers[name.toLowerCase()] = value;
  headers["content-type"] = JSON_TYPE;
  headers["cache-control"] = NO_STORE["Cache-Control"];
  return { status: answer.status, headers, text: JSON.stringify(answer.body) };
}

/** `errorAnswer` as a web Response (what Remix's routes return and guards throw). */
export function jsonError(status: number, code: string, error: string, extra: Record<string, unknown> = {}, headers?: Record<string, string>): Response {
  return responseOf(errorAnswer(status, code, error, extra, headers));
}

/** A 405 for a JSON route called with the wrong method. */
export function methodNotAllowed(allowed: string[]): Response {
  return responseOf(methodNotAllowedAnswer(allowed));
}

export function methodNotAllowedAnswer(allowed: string[]): JsonAnswer {
  return errorAnswer(405, "method_not_allowed", `Use ${allowed.join(" or ")} for this route.`, {}, { Allow: allowed.join(", ") });
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
  return responseOf(unavailableAnswer());
}

function unavailableAnswer(): JsonAnswer {
  return errorAnswer(503, "unavailable", "The service is briefly unavailable. Try again in a moment.", {}, { "Retry-After": String(RETRY_AFTER_SECONDS) });
}

function internalErrorAnswer(): JsonAnswer {
  return errorAnswer(500, "internal_error", "Something went wrong on our side.");
}

/** Logs an unexpected error (name and message, never the request's URL) and answers for it. */
export function responseForError(error: unknown, where: string): Response {
  return responseOf(answerForError(error, where));
}

/** `responseForError` before it is a Response. */
export function answerForError(error: unknown, where: string): JsonAnswer {
  const down = isDatabaseUnavailable(error);
  const e = error as { name?: string; message?: string; code?: string };
  const message = String(e?.message ?? error).split("\n").filter(Boolean).slice(-1)[0]?.slice(0, 300);
  if (down) noteDatabaseUnavailable("database unavailable", { where, error: e?.name, kind: e?.code, message });
  else log.error("unexpected error", { where, error: e?.name, message, stack: String((error as Error)?.stack ?? "").slice(0, 2000) });
  return down ? unavailableAnswer() : internalErrorAnswer();
}

/**
 * A page the app hosts under the app proxy (the address form, the order confirmation): opened from a
 * texted link whose token is in the URL, so it is never cached, never sends that URL on as a referrer,
 * runs no script but the "use my location" one (allowed by its hash), and may not be framed by another
 * page (CSP for current browsers, X-Frame-Options for old ones).
 */
/** The location script's hash: the one script a hosted page may run (app/shared/location-script.ts). */
const LOCATION_SCRIPT_SOURCE = `'sha256-${crypto.createHash("sha256").update(LOCATION_SCRIPT).digest("base64")}'`;

export function hostedPage(body: string, status = 200): Response {
  return new Response(body, {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": `default-src 'none'; style-src 'unsafe-inline'; script-src ${LOCATION_SCRIPT_SOURCE}; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
      "X-Frame-Options": "DENY",
    },
  });
}
