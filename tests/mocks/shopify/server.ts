import http from "node:http";
import type { AddressInfo } from "node:net";
import { checkRequest, shapeAnswer, warmUpSchemas, type Refusal } from "./rules";
import { SCHEMA_SOURCE } from "./schemas";
import { installedAccessToken, UNAUTHORIZED } from "./tokens";

export type { Refusal };

/**
 * Every request any fake Shopify of this process refused (an invalid document or variables, a missing
 * scope): the test setup fails the test during which one happened, whichever
 * fake and whichever test file sent it (tests/setup/worker.ts). On globalThis so that one list serves
 * every copy of this module in the process. (An operation this fake has no handler for is answered
 * with an error but is not a refusal: it is the test's choice of answer.)
 */
const REFUSALS_KEY = Symbol.for("cod-verify.fake-shopify.refusals");
export function fakeShopifyRefusals(): Refusal[] {
  const g = globalThis as { [REFUSALS_KEY]?: Refusal[] };
  return (g[REFUSALS_KEY] ??= []);
}

/**
 * The operation names this process sent to any fake Shopify and the fake accepted (valid, in scope,
 * authenticated): the test setup collects them per run, and the run fails when one of the app's
 * documents never ran (tests/setup/global.ts, with SHOPIFY_OPERATIONS_CHECK=1 as `npm test` sets it).
 */
const RUN_KEY = Symbol.for("cod-verify.fake-shopify.operations-run");
export function fakeShopifyOperationsRun(): Set<string> {
  const g = globalThis as { [RUN_KEY]?: Set<string> };
  return (g[RUN_KEY] ??= new Set());
}

/** Answers of a handler that Shopify could not have sent (they fail the test too: a fake that lies hides bugs). */
const ANSWERS_KEY = Symbol.for("cod-verify.fake-shopify.answer-problems");
export function fakeShopifyAnswerProblems(): string[] {
  const g = globalThis as { [ANSWERS_KEY]?: string[] };
  return (g[ANSWERS_KEY] ??= []);
}

/**
 * A fake Shopify for local mode and tests: a loopback HTTP server that answers the Admin and
 * Storefront GraphQL calls the app makes (the app reaches it through SHOPIFY_API_ORIGIN), by operation name, and records
 * every call so tests can assert on what was sent.
 *
 * It plays by Shopify's rules first (./rules.ts): each request's document and variables are checked
 * against Shopify's published schema of the URL's version, each root field against the scopes the app
 * requests; a refusal gets Shopify's answer and is recorded (`fakeShopifyRefusals`). A handler's answer is
 * then shaped to the query's selection under the schema, as Shopify would send it; where the handler's
 * data does not fit (a non-null field missing, a wrong scalar) the problem is recorded in `answerProblems`.
 *
 * Handlers are registered per operation name (the `query Name` / `mutation Name` in the document).
 * A handler returns the GraphQL `data` (or a full `{ data, errors, extensions }` body with `raw: true`),
 * or an HTTP failure with `{ status }`, or throws to simulate a dropped connection.
 */
/** The resources that belong to one shop: its orders (and their fulfillment orders and edits), customers, carts, draft orders. */
const OWNED_ID = /^gid:\/\/shopify\/(Order|Customer|Cart|DraftOrder|FulfillmentOrder|CalculatedOrder|OrderTransaction)\/([^?/]+)/;
function ownedKey(gid: string): string {
  const m = OWNED_ID.exec(gid);
  return m ? `${m[1]}/${m[2]}` : gid;
}

export type FakeCall = {
  api: "admin" | "storefront";
  shop: string;
  apiVersion: string;
  operationName: string | null;
  query: string;
  variables: Record<string, unknown>;
  headers: Record<string, string>;
  /** Why the fake refused the request as Shopify would (it never reached a handler), or absent. */
  refused?: string;
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
  /** Where a handler's answer did not fit the schema or the selection (the fake's own data to fix). */
  readonly answerProblems: string[] = [];
  private readonly handlers = new Map<string, Handler>();
  /** Which shop each order, customer, cart and draft order belongs to (`own`, or the first shop that named it). */
  private readonly owners = new Map<string, string>();
  /** Tokens issued besides each shop's install token (./tokens.ts): token → the one shop it is good for. */
  private readonly tokens = new Map<string, string>();
  private readonly pages = new Map<string, PageHandler>();
  private server: http.Server | null = null;
  origin = "";

  /** Registers (or replaces) the answer to an operation, for both APIs unless `api` is given. */
  on(operationName: string, handler: Handler, api?: "admin" | "storefront"): this {
    this.handlers.set(api ? `${api}:${operationName}` : operationName, handler);
    return this;
  }

  /** Records that `gid` (an order, customer, cart...) belongs to `shop`: another shop asking for it finds nothing. */
  own(shop: string, gid: string): this {
    this.owners.set(ownedKey(gid), shop);
    return this;
  }

  /** The shop `gid` belongs to, if any has claimed or named it yet. */
  ownerOf(gid: string): string | undefined {
    return this.owners.get(ownedKey(gid));
  }

  /**
   * The call as Shopify runs it for its shop: a resource of another shop does not exist there. Every ID
   * in the variables that another shop owns is replaced by an ID no store holds (the same type, id 0), so
   * the handler answers what it answers an unknown ID (null, or its "does not exist" user error), as Shopify
   * does. An ID no shop has named yet becomes the asking shop's.
   */
  private scopedToShop(call: FakeCall): FakeCall {
    let foreign = false;
    const walk = (v: unknown): unknown => {
      if (typeof v === "string") {
        const m = OWNED_ID.exec(v);
        if (!m) return v;
        const owner = this.owners.get(ownedKey(v));
        if (!owner) this.owners.set(ownedKey(v), call.shop);
        if (owner && owner !== call.shop) {
          foreign = true;
          return `gid://shopify/${m[1]}/0`;
        }
        return v;
      }
      if (Array.isArray(v)) return v.map(walk);
      if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
      return v;
    };
    const variables = walk(call.variables) as Record<string, unknown>;
    return foreign ? { ...call, variables } : call;
  }

  /** A list answer (orders or customers found by a search) without the entries another shop owns: a store sees only its own. */
  private withoutForeign(shop: string, data: unknown): unknown {
    const foreign = (v: unknown) => {
      const id = (v as { id?: unknown } | null)?.id;
      const owner = typeof id === "string" && OWNED_ID.test(id) ? this.owners.get(ownedKey(id)) : undefined;
      return !!owner && owner !== shop;
    };
    const walk = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.filter((x) => !foreign(x)).map(walk);
      if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
      return v;
    };
    return walk(data);
  }

  /** What the fake hands a shop (a cart it created, an order it read) is that shop's, unless another's already. */
  private claimAnswered(shop: string, data: unknown): void {
    const walk = (v: unknown) => {
      if (typeof v === "string") {
        if (OWNED_ID.test(v) && !this.owners.has(ownedKey(v))) this.owners.set(ownedKey(v), shop);
      } else if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === "object") Object.values(v).forEach(walk);
    };
    walk(data);
  }

  /** Issues `token` for `shop` (the token exchange, local mode's demo shop): good for that shop only. */
  issueToken(shop: string, token: string): this {
    this.tokens.set(token, shop);
    return this;
  }

  /** Whether `token` is one this fake issued for `shop` (the install token of tests' shops, or an issued one). */
  knowsToken(shop: string, token: string | undefined): boolean {
    if (!token) return false;
    return this.tokens.get(token) === shop || (!this.tokens.has(token) && token === installedAccessToken(shop));
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
    this.owners.clear();
    this.answerProblems.length = 0;
  }

  /**
   * The refusals this fake recorded, taken off the process-wide list so they no longer fail the test:
   * for a test that sends a request Shopify refuses on purpose, and asserts on it.
   */
  takeRefusals(): Refusal[] {
    const all = fakeShopifyRefusals();
    const mine = all.filter((r) => this.refusalsOwned.has(r));
    for (const r of mine) all.splice(all.indexOf(r), 1);
    return mine;
  }

  /** This fake's answer problems, taken off the process-wide list (a test of the check itself). */
  takeAnswerProblems(): string[] {
    const mine = this.answerProblems.splice(0);
    const all = fakeShopifyAnswerProblems();
    for (const p of mine) {
      const i = all.indexOf(p);
      if (i >= 0) all.splice(i, 1);
    }
    return mine;
  }

  private readonly refusalsOwned = new WeakSet<Refusal>();

  private refuse(call: FakeCall, reason: string) {
    const refusal: Refusal = { api: call.api, operationName: call.operationName, reason, query: call.query, variables: call.variables };
    call.refused = reason;
    this.refusalsOwned.add(refusal);
    fakeShopifyRefusals().push(refusal);
    this.onRefusal?.(refusal);
  }

  /** Called on each refusal (local mode prints it). */
  onRefusal: ((refusal: Refusal) => void) | null = null;

  async start(port = 0, host = "127.0.0.1"): Promise<string> {
    warmUpSchemas(SCHEMA_SOURCE.apiVersion);
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
    // Shopify authenticates before it parses: no token, or one not issued for this shop, is a 401 with no GraphQL body.
    const token = call.api === "admin" ? call.headers["x-shopify-access-token"] : (call.headers["shopify-storefront-private-token"] ?? call.headers["x-shopify-storefront-access-token"]);
    if (!this.knowsToken(call.shop, token)) {
      this.refuse(call, token ? `unauthorized: the access token was not issued for ${call.shop}` : "unauthorized: no access token");
      return send(UNAUTHORIZED.status, UNAUTHORIZED.body, UNAUTHORIZED.headers);
    }
    const checked = checkRequest(call.api, call.apiVersion, query, parsed.variables, parsed.operationName ?? operationName);
    if (!checked.ok) {
      this.refuse(call, checked.reason);
      return send(200, checked.body);
    }
    if (operationName) fakeShopifyOperationsRun().add(operationName);
    const handler =
      (operationName && (this.handlers.get(`${call.api}:${operationName}`) ?? this.handlers.get(operationName))) || null;
    if (!handler) {
      // Not Shopify refusing: this fake has no answer registered (a test that leaves an operation out).
      return send(200, { errors: [{ message: `fake Shopify has no handler for ${call.api} operation ${operationName}` }] });
    }
    try {
      let result = await handler(this.scopedToShop(call));
      while ("delayMs" in result) {
        await new Promise((r) => setTimeout(r, (result as { delayMs: number }).delayMs));
        result = (result as { then: HandlerResult }).then;
      }
      if ("status" in result) return send(result.status, result.body ?? { errors: "error" }, result.headers);
      if (result.data == null) return send(200, result);
      const shaped = shapeAnswer(call.api, call.apiVersion, checked.document, checked.operation, call.variables, this.withoutForeign(call.shop, result.data));
      for (const p of shaped.problems) {
        this.answerProblems.push(`${call.api} ${operationName}: ${p}`);
        fakeShopifyAnswerProblems().push(`${call.api} ${operationName}: ${p}`);
      }
      this.claimAnswered(call.shop, shaped.data);
      return send(200, { ...result, data: shaped.data });
    } catch {
      res.destroy();
    }
  }
}
