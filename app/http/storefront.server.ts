import { answerForError, methodNotAllowedAnswer, responseOf, wireOf, type JsonAnswer, type WireAnswer } from "~/http/responses.server";

/**
 * The storefront's JSON routes (send-otp, verify-otp) with an interface of their own beside Remix's:
 * a request that is not a web `Request`, an answer that is not a web `Response`. Remix still serves
 * them (`action` below turns its Request into one of these and the answer into a Response); the
 * production server calls `wire` directly with the body it has read and writes the answer it gets
 * back. The two ways run the same guard, parse and domain call and give the same status, headers and
 * body (tests/routes/storefront-interface.test.ts). Why: docs/decisions/storefront-interface.md.
 * The webhooks read the same request (`webhookRoute`, app/http/webhook.server.ts).
 */
export type WireRequest = {
  readonly method: string;
  readonly url: URL;
  /** A header's value as `Headers.get` gives it (every value of the name, joined by ", "), or null. */
  header(name: string): string | null;
  /** The body's bytes, or "too_large" as soon as it passes `limit` bytes (nothing past that is read). */
  body(limit: number): Promise<Uint8Array | "too_large">;
  /** The same request as a web Request, for the steps that need one (the library's token refresh, its event-webhook check). */
  toRequest(): Request;
};

/**
 * The one edge on the way in: every guard and parser under app/http takes a WireRequest, and a web
 * Request (Remix's way in) is adapted here; the production server's read request already is one.
 */
export function wireRequest(request: Request | WireRequest): WireRequest {
  return request instanceof Request ? requestFromWeb(request) : request;
}

/** A web Request (Remix's way in): the body is read as it arrives and cut off past the limit. */
function requestFromWeb(request: Request): WireRequest {
  return {
    method: request.method,
    url: new URL(request.url),
    header: (name) => request.headers.get(name),
    body: (limit) => readLimited(request, limit),
    toRequest: () => request,
  };
}

/**
 * What the production server read (server.mjs): the method, the URL it made of the request line and
 * headers, node's raw header list (name, value, name, value...) and the whole body.
 */
export function requestFromServer(input: { method: string; url: URL; rawHeaders: readonly string[]; body: Uint8Array<ArrayBuffer> }): WireRequest {
  const { rawHeaders, body } = input;
  return {
    method: input.method,
    url: input.url,
    header(name) {
      const wanted = name.toLowerCase();
      let value: string | null = null;
      for (let i = 0; i < rawHeaders.length; i += 2) {
        if (rawHeaders[i].toLowerCase() === wanted) value = value === null ? rawHeaders[i + 1] : `${value}, ${rawHeaders[i + 1]}`;
      }
      return value;
    },
    body: async (limit) => (body.byteLength > limit ? "too_large" : body),
    toRequest() {
      const headers = new Headers();
      for (let i = 0; i < rawHeaders.length; i += 2) headers.append(rawHeaders[i], rawHeaders[i + 1]);
      const reading = input.method === "GET" || input.method === "HEAD";
      return new Request(input.url, { method: input.method, headers, body: reading ? undefined : body });
    },
  };
}

async function readLimited(request: Request, limit: number): Promise<Uint8Array | "too_large"> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return "too_large";
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

/**
 * A storefront JSON route answering `method`: the handler is the guard, the parse, the one domain call
 * and the answer. A guard's refusal is thrown as a Response (as everywhere in the app) and is the answer;
 * any other error is logged and answered 503 `unavailable` or 500 `internal_error`, as `answer` does.
 * Another method gets 405 `method_not_allowed`.
 */
export function storefrontRoute(method: "POST", handler: (request: WireRequest) => Promise<JsonAnswer>) {
  async function run(request: WireRequest): Promise<JsonAnswer | Response> {
    try {
      if (request.method !== method) return methodNotAllowedAnswer([method]);
      return await handler(request);
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      return answerForError(thrown, "route");
    }
  }
  return bothWays(method, run);
}

/**
 * The one edge on the way out, for the storefront's JSON routes and the webhooks alike: `run` answers a
 * WireRequest with a JSON answer, a Response (a guard's refusal, as thrown) or null (200, no body), and
 * this gives the route its two ways: `action`, Remix's (a Request in, a Response out), and `wire`, the
 * production server's (server.mjs: a request it read in, what it writes out). Same status, headers, body.
 */
export function bothWays<M extends string>(method: M, run: (request: WireRequest) => Promise<JsonAnswer | Response | null>) {
  return {
    method,
    action: async ({ request }: { request: Request; params?: unknown; context?: unknown }): Promise<Response> => {
      const answer = await run(wireRequest(request));
      return answer === null ? new Response(null, { status: 200 }) : answer instanceof Response ? answer : responseOf(answer);
    },
    wire: async (request: WireRequest): Promise<WireAnswer> => {
      const answer = await run(request);
      return answer === null ? { status: 200, headers: {}, text: "" } : answer instanceof Response ? wireOfResponse(answer) : wireOf(answer);
    },
  };
}

export type StorefrontRoute = ReturnType<typeof storefrontRoute>;

/** A thrown Response (a guard's refusal), as the server writes it. */
export async function wireOfResponse(response: Response): Promise<WireAnswer> {
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  return { status: response.status, headers, text: await response.text() };
}
