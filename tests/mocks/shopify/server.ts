import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake Shopify for local mode and tests: a loopback HTTP server that answers the Admin and
 * Storefront GraphQL calls the app makes (the app reaches it through SHOPIFY_API_ORIGIN), by operation name, and records
 * every call so tests can assert on what was sent.
 *
 * Handlers are registered per operation name (the `query Name` / `mutation Name` in the document).
 * A handler returns the GraphQL `data` (or a full `{ data, errors, extensions }` body with `raw: true`),
 * or an HTTP failure with `{ status }`, or throws to simulate a dropped connection.
 */
export type FakeCall = {
  api: "admin" | "storefront";
  shop: string;
  apiVersion: string;
  operationName: string | null;
  query: string;
  variables: Record<string, unknown>;
  headers: Record<string, string>;
};

export type HandlerResult =
  | { data: unknown; errors?: unknown[]; extensions?: unknown }
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { delayMs: number; then: HandlerResult };

export type Handler = (call: FakeCall) => HandlerResult | Promise<HandlerResult>;

/** A plain HTTP page of the fake (local mode's checkout preview, its control endpoint). */
export type PageHandler = (request: { method: string; url: URL; body: string }) => { status: number; type: string; body: string };

export class FakeShopify {
  readonly calls: FakeCall[] = [];
  private readonly handlers = new Map<string, Handler>();
  private readonly pages = new Map<string, PageHandler>();
  private server: http.Server | null = null;
  origin = "";

  /** Registers (or replaces) the answer to an operation, for both APIs unless `api` is given. */
  on(operationName: string, handler: Handler, api?: "admin" | "storefront"): this {
    this.handlers.set(api ? `${api}:${operationName}` : operationName, handler);
    return this;
  }

  /** Serves `pathname` (any method) outside the GraphQL endpoints. */
  page(pathname: string, handler: PageHandler): this {
    this.pages.set(pathname, handler);
    return this;
  }

  /** The calls made to one operation. */
  callsTo(operationName: string): FakeCall[] {
    return this.calls.filter((c) => c.operationName === operationName);
  }

  reset(): void {
    this.calls.length = 0;
  }

  async start(port = 0, host = "127.0.0.1"): Promise<string> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, host, resolve));
    const { port: bound } = this.server.address() as AddressInfo;
    this.origin = `http://${host}:${bound}`;
    return this.origin;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    // /<shop>/admin/api/<version>/graphql.json or /<shop>/api/<version>/graphql.json
    const m = /^\/([^/]+)\/(admin\/)?api\/([^/]+)\/graphql\.json/.exec(req.url ?? "");
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(typeof body === "string" ? body : JSON.stringify(body));
    };
    const url = new URL(req.url ?? "/", "http://fake.invalid");
    const page = this.pages.get(url.pathname);
    if (page) {
      const answer = page({ method: req.method ?? "GET", url, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(answer.status, { "content-type": answer.type, "cache-control": "no-store" });
      return void res.end(answer.body);
    }
    if (!m) return send(404, { errors: "Not Found" });
    let parsed: { query?: string; variables?: Record<string, unknown>; operationName?: string } = {};
    try {
      parsed = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
    } catch {
      return send(400, { errors: "invalid JSON" });
    }
    const query = parsed.query ?? "";
    const operationName = parsed.operationName ?? /\b(?:query|mutation)\s+([A-Za-z0-9_]+)/.exec(query)?.[1] ?? null;
    const call: FakeCall = {
      api: m[2] ? "admin" : "storefront",
      shop: m[1],
      apiVersion: m[3],
      operationName,
      query,
      variables: parsed.variables ?? {},
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
    };
    this.calls.push(call);
    const handler =
      (operationName && (this.handlers.get(`${call.api}:${operationName}`) ?? this.handlers.get(operationName))) || null;
    if (!handler) {
      return send(200, { errors: [{ message: `fake Shopify has no handler for ${call.api} operation ${operationName}` }] });
    }
    try {
      let result = await handler(call);
      while ("delayMs" in result) {
        await new Promise((r) => setTimeout(r, (result as { delayMs: number }).delayMs));
        result = (result as { then: HandlerResult }).then;
      }
      if ("status" in result) return send(result.status, result.body ?? { errors: "error" }, result.headers);
      return send(200, result);
    } catch {
      res.destroy();
    }
  }
}
