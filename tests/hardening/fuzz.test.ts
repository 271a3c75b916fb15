import crypto from "node:crypto";
import http from "node:http";
import path from "node:path";
import Database from "better-sqlite3";
import { fc, test } from "@fast-check/vitest";
import { startServer, type RunningServer } from "../helpers/server";
import { DEMO_SHOP, SECRET, WEBHOOK_TOPICS } from "./requests";
import { signedProxyQuery } from "../../app/server/app-proxy-signature.mjs";

/**
 * Generated requests against the built server (SQLite, local mode): every proxy route and every
 * webhook topic, with generated queries, headers, methods, content types and bodies (JSON of every
 * shape, unicode, E.164 edge cases, duplicated parameters, chunked and oversized bodies).
 * Properties: the process stays up; every answer has one of the contract's statuses, never a 5xx but the
 * contract's 502 for a Shopify out of reach;
 * a JSON route answers an error as JSON with a `code`; a refused request adds no row anywhere.
 * FUZZ_RUNS scales the number of generated requests (default: about a minute of requests).
 */
const RUNS = Number(process.env.FUZZ_RUNS || 1);
const PROXY_RUNS = Math.round(250 * RUNS);
const WEBHOOK_RUNS = Math.round(150 * RUNS);
// A bound on each property's wall time, so a loaded machine runs fewer cases instead of timing out.
const TIME_LIMIT_MS = 60_000 * RUNS;

const PROXY_STATUSES = new Set([200, 400, 401, 402, 403, 404, 405, 409, 410, 413, 422, 429]);
const WEBHOOK_STATUSES = new Set([200, 400, 401, 405, 413]);
const TABLES = ["Session", "Shop", "VerifiedCustomer", "Selection", "RateCounter", "WebhookDelivery", "Job", "OtpChallenge", "BlockedPhone", "AddressCorrection"];

type Sent = { method: string; path: string; headers: Record<string, string>; body?: Buffer; chunked?: boolean };
type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

function send(server: RunningServer, req: Sent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const r = http.request(`${server.url}${req.path}`, { method: req.method, headers: req.headers, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      res.on("error", reject);
    });
    let answered = false;
    r.on("response", () => (answered = true));
    r.on("error", (e) => {
      if (!answered) reject(e);
    });
    if (req.body && req.chunked) {
      // Chunked: several writes, no Content-Length.
      for (let i = 0; i < req.body.length; i += 16 * 1024) r.write(req.body.subarray(i, i + 16 * 1024));
      r.end();
    } else r.end(req.body);
  });
}

// ---- generators -------------------------------------------------------------------------------

const e164Edge = fc.oneof(
  fc.stringMatching(/^\+[0-9]{8,17}$/),
  fc.constantFrom("+14155550123", "+919876543210", "+971501234567", "+1234567890", "+123456789012345", "+1234567890123456"),
  fc.constantFrom("+1 415 555 0123", "+14155550123\n", " +14155550123", "00919876543210", "+٩١٩٨٧٦٥٤٣٢١٠", "+1415555O123", "+", "", "+0000000000"),
  fc.string({ unit: "binary", maxLength: 20 }),
);
const otpValue = fc.oneof(fc.stringMatching(/^[0-9]{6}$/), fc.integer(), fc.string({ maxLength: 10 }), fc.constant(null));
const jsonish = fc.jsonValue({ maxDepth: 4 });
const modes = fc.constantFrom("cod", "prepaid", "partial", "COD", "", "free", null, 1);

/** Bodies shaped like each route's, with every field sometimes wrong, plus arbitrary JSON. */
const proxyBody = fc.oneof(
  fc.record({ phone: e164Edge, locale: fc.oneof(fc.constantFrom("en", "ar", "hi", "fr", "xx"), jsonish) }, { requiredKeys: [] }),
  fc.record({ phone: e164Edge, otp: otpValue, selectedMode: modes, cartToken: fc.oneof(fc.string(), jsonish) }, { requiredKeys: [] }),
  fc.record(
    {
      phone: e164Edge,
      selectedMode: modes,
      variantId: fc.oneof(fc.nat(), fc.string(), fc.constant("gid://shopify/ProductVariant/1"), jsonish),
      quantity: fc.oneof(fc.integer({ min: -5, max: 2000 }), fc.double(), fc.string()),
      lines: fc.oneof(fc.array(fc.record({ variantId: fc.oneof(fc.nat(), fc.string()), quantity: fc.integer() })), jsonish),
    },
    { requiredKeys: [] },
  ),
  fc.record({ orderId: fc.oneof(fc.nat(), fc.string(), jsonish), phone: e164Edge }, { requiredKeys: [] }),
  jsonish,
);

const bodyBytes = fc.oneof(
  { weight: 6, arbitrary: proxyBody.map((v) => Buffer.from(JSON.stringify(v) ?? "null")) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 200 }).map((s) => Buffer.from(s)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)) },
  { weight: 1, arbitrary: fc.constantFrom(16 * 1024 + 1, 64 * 1024, 200 * 1024, 1024 * 1024 + 1).map((n) => Buffer.alloc(n, "{")) },
);

const contentType = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-8",
  "application/vnd.api+json",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "",
  "application/json; charset=utf-16",
);

const proxyPath = fc.constantFrom(
  "/send-otp",
  "/verify-otp",
  "/create-checkout",
  "/api/config",
  "/api/auth/ping",
  "/api/address-correction.request",
  "/api/address-correction.status",
  "/ac/some-token",
  "/ac/",
  "/nope",
);

const extraParams = fc.array(
  fc.tuple(
    fc.oneof(fc.constantFrom("token", "shop", "locale", "timestamp", "path_prefix", "logged_in_customer_id", "index"), fc.string({ maxLength: 8 })),
    fc.string({ unit: "grapheme", maxLength: 12 }),
  ),
  { maxLength: 3 },
);

const proxyRequest = fc.record({
  path: proxyPath,
  method: fc.constantFrom("GET", "POST", "POST", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"),
  signing: fc.constantFrom("valid", "valid", "valid", "wrong", "none", "stale", "duplicate-shop", "other-shop", "bad-shop"),
  extra: extraParams,
  contentType,
  body: fc.option(bodyBytes, { nil: undefined, freq: 5 }),
  chunked: fc.boolean(),
  accept: fc.constantFrom("*/*", "application/json", "text/html"),
});

function proxyQuery(signing: string, extra: [string, string][]): string {
  const timestamp = signing === "stale" ? Math.floor(Date.now() / 1000) - 3600 : undefined;
  const shop = signing === "other-shop" ? "other-shop.myshopify.com" : signing === "bad-shop" ? "evil.com" : DEMO_SHOP;
  // The storefront's own params are signed along (Shopify signs everything it forwards).
  const params = signedProxyQuery({ secret: signing === "wrong" ? "not-the-secret" : SECRET, shop, timestamp, extra: extra.filter(([k]) => k !== "shop" && k !== "timestamp" && k !== "signature") });
  if (signing === "none") params.delete("signature");
  if (signing === "duplicate-shop") params.append("shop", "evil.myshopify.com");
  return params.toString();
}

const webhookRequest = fc.record({
  topic: fc.constantFrom(...WEBHOOK_TOPICS),
  hmac: fc.constantFrom("valid", "valid", "valid", "wrong", "none"),
  shop: fc.constantFrom("other-shop.myshopify.com", "other-shop.myshopify.com", "", "evil.com", "x y.myshopify.com", "ÄÖ.myshopify.com"),
  body: fc.oneof(
    { weight: 5, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? "null") },
    { weight: 3, arbitrary: fc.record({ id: fc.oneof(fc.nat(), fc.string(), fc.constant(2 ** 60)), admin_graphql_api_id: fc.oneof(fc.string(), fc.constant("gid://shopify/Order/820982911946154508")), phone: e164Edge, customer: fc.oneof(fc.constant(null), fc.record({ phone: fc.oneof(e164Edge, fc.integer()) })), note_attributes: fc.oneof(fc.array(fc.record({ name: fc.string(), value: fc.string() })), fc.jsonValue()), orders_to_redact: fc.oneof(fc.array(fc.nat()), fc.jsonValue()), orders_requested: fc.jsonValue(), app_subscription: fc.jsonValue() }, { requiredKeys: [] }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 100 }) },
  ),
  missingHeader: fc.constantFrom(null, null, null, "x-shopify-topic", "x-shopify-webhook-id", "x-shopify-api-version"),
  method: fc.constantFrom("POST", "POST", "POST", "POST", "GET", "PUT"),
  webhookId: fc.constantFrom("fixed-id-1", "fixed-id-2", "") ,
});

// ---- the suite --------------------------------------------------------------------------------

describe("fuzzing the built server", () => {
  let server: RunningServer;
  let db: Database.Database;
  // The app's own background rows (shop "*": housekeeping and retention, queued by the server when it
  // starts and by their own runs) are no request's doing.
  const rowsOf = (t: string) => (t === "Job" ? `SELECT COUNT(*) AS n FROM "Job" WHERE "shop" <> '*'` : `SELECT COUNT(*) AS n FROM "${t}"`);
  const rows = () => Object.fromEntries(TABLES.map((t) => [t, (db.prepare(rowsOf(t)).get() as { n: number }).n]));

  beforeAll(async () => {
    server = await startServer();
    db = new Database(path.join(server.dataDir, "app.db"), { readonly: true });
  });
  afterAll(async () => {
    db?.close();
    await server?.stop();
  });

  function expectContractAnswer(res: Answer, allowed: Set<number>, what: string, jsonExpected: boolean) {
    // This server runs in production with no Shopify in reach (production refuses to be pointed at a
    // fake), so a route that reads the store rightly answers the contract's 502 shopify_unavailable.
    const upstream = res.status === 502 && /"code":"(shopify|sms)_unavailable"/.test(res.body);
    if (!allowed.has(res.status) && !upstream) throw new Error(`${what}: status ${res.status} (${res.body.slice(0, 200)})`);
    if (res.status >= 400 && jsonExpected) {
      if (!/application\/json/.test(String(res.headers["content-type"]))) throw new Error(`${what}: ${res.status} is not JSON: ${res.headers["content-type"]}`);
      const body = JSON.parse(res.body) as { code?: unknown; error?: unknown };
      if (typeof body.code !== "string" || typeof body.error !== "string") throw new Error(`${what}: ${res.status} without code/error: ${res.body.slice(0, 200)}`);
    }
    if (server.process.exitCode !== null) throw new Error(`${what}: the server exited`);
  }

  test.prop([proxyRequest], { numRuns: PROXY_RUNS, endOnFailure: true, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false })("proxy routes answer per the contract, never 5xx, and store nothing for a refused request", async (r) => {
    const before = rows();
    const headers: Record<string, string> = { accept: r.accept };
    if (r.contentType) headers["content-type"] = r.contentType;
    const body = r.method === "GET" || r.method === "HEAD" ? undefined : r.body;
    if (body && !r.chunked) headers["content-length"] = String(body.length);
    const res = await send(server, { method: r.method, path: `/proxy${r.path}?${proxyQuery(r.signing, r.extra)}`, headers, body, chunked: r.chunked });
    const what = `${r.method} ${r.path} (${r.signing}, ${body?.length ?? 0} bytes${r.chunked ? " chunked" : ""})`;
    // The hosted form answers pages (HTML) with the contract's statuses; every other route answers JSON.
    const html = r.path.startsWith("/ac/");
    expectContractAnswer(res, PROXY_STATUSES, what, !html && r.method !== "HEAD");
    if (res.status >= 400) {
      const after = rows();
      // A refused request may count an attempt (a wrong code, a rate-limited send) but never adds a row;
      // a correction request that got as far as asking Shopify has counted against its rate limits.
      const counted = res.status === 502 && r.path === "/api/address-correction.request" ? ["RateCounter"] : [];
      for (const t of TABLES) if (after[t] > before[t] && !counted.includes(t)) throw new Error(`${what}: ${res.status} but ${t} grew ${before[t]} -> ${after[t]}`);
    }
  }, 240_000);

  test.prop([webhookRequest], { numRuns: WEBHOOK_RUNS, endOnFailure: true, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false })("webhooks answer per the contract, never 5xx, and store nothing for a refused delivery", async (w) => {
    const before = rows();
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "x-shopify-topic": w.topic,
      "x-shopify-api-version": "2026-10",
      "x-shopify-webhook-id": w.webhookId || crypto.randomUUID(),
      "x-shopify-triggered-at": new Date().toISOString(),
      "content-length": String(Buffer.byteLength(w.body)),
    };
    // Node refuses some characters in headers: send those shops percent-free as they are, or skip the header.
    if (/^[\x21-\x7e]*$/.test(w.shop)) headers["x-shopify-shop-domain"] = w.shop;
    if (w.hmac !== "none") {
      headers["x-shopify-hmac-sha256"] = crypto.createHmac("sha256", w.hmac === "valid" ? SECRET : "nope").update(w.body, "utf8").digest("base64");
    }
    if (w.missingHeader) delete headers[w.missingHeader];
    const body = w.method === "GET" ? undefined : Buffer.from(w.body);
    if (!body) delete headers["content-length"];
    const res = await send(server, { method: w.method, path: `/webhooks/${w.topic}`, headers, body });
    const what = `${w.method} webhook ${w.topic} (${w.hmac}, shop ${JSON.stringify(w.shop)}, missing ${w.missingHeader})`;
    expectContractAnswer(res, WEBHOOK_STATUSES, what, true);
    if (res.status >= 400) {
      const after = rows();
      for (const t of TABLES) if (after[t] > before[t]) throw new Error(`${what}: ${res.status} but ${t} grew ${before[t]} -> ${after[t]}`);
    }
  }, 240_000);

  it("is still up and answering at the end", async () => {
    const res = await fetch(`${server.url}/proxy/api/auth/ping`);
    expect(res.status).toBe(200);
    expect(server.process.exitCode).toBeNull();
  });
});
