#!/usr/bin/env node
// The floor that `npm run bench` measures the app against: a bare node:http server doing only the
// essential work of POST /proxy/send-otp, with no framework and no ORM:
//   app-proxy signature check (HMAC-SHA256 over the sorted params, timestamp within 90 s),
//   JSON body parse, E.164 check, the per-number rate-counter upsert, and the keyed hash of a new
//   code written as the number's pending challenge (the same two atomic statements the app runs).
// SQLite through better-sqlite3 (WAL, prepared once) or PostgreSQL through a pg pool, chosen by
// DATABASE_URL (file:... or postgres://...). The tables are the app's own (run the migrations first).
// It answers every other path 404. Started by scripts/bench.mjs; prints `floor: listening on PORT`.
import crypto from "node:crypto";
import http from "node:http";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const url = process.env.DATABASE_URL ?? "";
const secret = process.env.SHOPIFY_API_SECRET ?? "local-dev-api-secret";
const hashKey = process.env.OTP_HASH_SECRET ?? "local-dev-otp-hash-secret-0123456789abcdef";
const shopId = process.env.FLOOR_SHOP_ID ?? "floor-shop";
const E164 = /^\+\d{10,15}$/;
const LIMIT = 3;
const WINDOW_MS = 600_000;
const TTL_MS = 600_000;

const UPSERT_COUNTER = `INSERT INTO "RateCounter" ("key", "windowStart", "count", "expiresAt") VALUES ($1, $2, 1, $3)
  ON CONFLICT ("key") DO UPDATE SET
    "count" = CASE WHEN "RateCounter"."windowStart" <= $4 THEN 1 ELSE "RateCounter"."count" + 1 END,
    "windowStart" = CASE WHEN "RateCounter"."windowStart" <= $4 THEN $2 ELSE "RateCounter"."windowStart" END,
    "expiresAt" = CASE WHEN "RateCounter"."windowStart" <= $4 THEN $3 ELSE "RateCounter"."expiresAt" END
  RETURNING "count"`;
const UPSERT_CHALLENGE = `INSERT INTO "OtpChallenge" ("id", "shopId", "phone", "codeHash", "sentAt", "expiresAt", "attempts", "maxAttempts")
  VALUES ($1, $2, $3, $4, $5, $6, 0, 5)
  ON CONFLICT ("shopId", "phone") DO UPDATE SET "id" = excluded."id", "codeHash" = excluded."codeHash",
    "sentAt" = excluded."sentAt", "expiresAt" = excluded."expiresAt", "attempts" = 0
  RETURNING "id"`;

let counter;
let challenge;
if (url.startsWith("postgres")) {
  const { Pool } = require("pg");
  const pool = new Pool({ connectionString: url, max: 10 });
  counter = async (...args) => (await pool.query(UPSERT_COUNTER, args)).rows[0];
  challenge = async (...args) => (await pool.query(UPSERT_CHALLENGE, args)).rows[0];
} else {
  const Database = require("better-sqlite3");
  const db = new Database(url.replace(/^file:/, ""));
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  // better-sqlite3 takes named parameters: $1 → @p1.
  const named = (sql) => db.prepare(sql.replaceAll(/\$(\d)/g, "@p$1"));
  const byName = (args) => Object.fromEntries(args.map((v, i) => [`p${i + 1}`, v]));
  const c = named(UPSERT_COUNTER);
  const h = named(UPSERT_CHALLENGE);
  counter = async (...args) => c.get(byName(args));
  challenge = async (...args) => h.get(byName(args));
}

function signatureValid(params) {
  const given = params.get("signature") ?? "";
  const grouped = new Map();
  for (const [k, v] of params) if (k !== "signature") grouped.set(k, grouped.has(k) ? `${grouped.get(k)},${v}` : v);
  const message = [...grouped.keys()].sort().map((k) => `${k}=${grouped.get(k)}`).join("");
  const expected = crypto.createHmac("sha256", secret).update(message).digest("hex");
  const timestamp = Number(params.get("timestamp"));
  return (
    given.length === expected.length &&
    crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected)) &&
    Math.abs(Date.now() / 1000 - timestamp) < 90
  );
}

function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

const server = http.createServer((req, res) => {
  const q = req.url.indexOf("?");
  const path = q < 0 ? req.url : req.url.slice(0, q);
  if (req.method !== "POST" || path !== "/proxy/send-otp") return send(res, 404, { error: "Not found.", code: "not_found" });
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", async () => {
    try {
      if (!signatureValid(new URLSearchParams(q < 0 ? "" : req.url.slice(q + 1)))) {
        return send(res, 401, { error: "Bad signature.", code: "invalid_signature" });
      }
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return send(res, 400, { error: "The body is not valid JSON.", code: "invalid_request" });
      }
      const phone = typeof body?.phone === "string" ? body.phone : "";
      if (!E164.test(phone)) return send(res, 400, { error: "Bad phone.", code: "invalid_phone" });
      const now = Date.now();
      const hit = await counter(`otp-send:${shopId}:${phone}`, now, now + WINDOW_MS, now - WINDOW_MS);
      if (Number(hit.count) > LIMIT) return send(res, 429, { error: "Too many codes.", code: "rate_limited" });
      const code = crypto.randomInt(0, 1_000_000).toString().padStart(6, "0");
      const codeHash = crypto.createHmac("sha256", hashKey).update(`otp-code\0${shopId}\0${phone}\0${code}`).digest("hex");
      await challenge(crypto.randomBytes(12).toString("base64url"), shopId, phone, codeHash, now, now + TTL_MS);
      send(res, 200, { success: true, expiresIn: 600, resendAfter: 30 });
    } catch (error) {
      send(res, 500, { error: String(error?.message ?? error), code: "internal_error" });
    }
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(`floor: listening on ${server.address().port}`);
});
process.on("SIGTERM", () => process.exit(0));
