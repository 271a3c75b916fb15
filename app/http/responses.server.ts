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

/** Runs a route body; a thrown Response is returned as the answer (that is how guards reject). */
export async function answer(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
