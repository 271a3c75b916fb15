import { PassThrough } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { createReadableStreamFromReadable, type EntryContext } from "@remix-run/node";
import { isbot } from "isbot";
import { addDocumentResponseHeaders } from "~/core/shopify/app.server";
import { isDatabaseUnavailable } from "~/core/db/database-errors";
import { noteDatabaseUnavailable } from "~/core/db/outage.server";
import { log } from "~/core/utils/log.server";

export const streamTimeout = 5000;

/**
 * Errors no route caught (Remix then answers its own plain-text 500). Logged without the URL (signed
 * query strings, tokens), and marked on the request so the server (server.mjs) answers with the
 * contract's JSON instead: 503 `unavailable` for a database failure, 500 `internal_error` otherwise.
 */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  // A 4xx Remix made itself (a method the page does not serve: 405; no such route: 404) or a thrown
  // Response below 500 is an answer to the client, not a failure of ours: at most a debug line.
  const status = isRouteErrorResponse(error) || error instanceof Response ? error.status : 500;
  if (status < 500) {
    log.debug("request refused", { path: loggedPath(request), status });
    return;
  }
  // Remix reports every `?_data` request of a single-fetch app through handleError: a client's probe
  // (server.mjs refuses them with 400 before Remix), not a fault of ours.
  if (error instanceof Error && error.message.startsWith("Warning: Single fetch-enabled apps should not be making ?_data requests")) {
    log.debug("legacy ?_data request", { path: loggedPath(request) });
    return;
  }
  const down = isDatabaseUnavailable(error);
  (request as unknown as Record<symbol, string>)[Symbol.for("cod.failure")] = down ? "unavailable" : "internal";
  const e = error as { name?: string; message?: string; stack?: string };
  const fields = { path: loggedPath(request), error: e?.name, message: String(e?.message ?? error).slice(0, 300) };
  if (down) noteDatabaseUnavailable("database unavailable", fields);
  else log.error("unhandled error", { ...fields, stack: String(e?.stack ?? "").slice(0, 2000) });
}

function loggedPath(request: Request) {
  return new URL(request.url).pathname.replace(/\/ac\/[^/]+/, "/ac/:token");
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  addDocumentResponseHeaders(request, responseHeaders);
  const userAgent = request.headers.get("user-agent");
  const callbackName = isbot(userAgent ?? "") ? "onAllReady" : "onShellReady";

  return new Promise((resolve, reject) => {
    const { pipe, abort } = renderToPipeableStream(<RemixServer context={remixContext} url={request.url} />, {
      [callbackName]: () => {
        const body = new PassThrough();
        const stream = createReadableStreamFromReadable(body);
        responseHeaders.set("Content-Type", "text/html");
        resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
        pipe(body);
      },
      onShellError(error) {
        reject(error);
      },
      onError(error) {
        responseStatusCode = 500;
        console.error(error);
      },
    });
    setTimeout(abort, streamTimeout + 1000);
  });
}
