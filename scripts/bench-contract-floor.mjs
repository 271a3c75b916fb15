#!/usr/bin/env node
// The second floor of `npm run bench`: the contract's work of POST /proxy/send-otp and POST /proxy/verify-otp
// with no framework. A bare node:http server running, per request, the same database statements the app
// runs (the same SQL text and values, in the same transactions or single statements, on the same engine
// with the same connection settings), and the same other work the contract asks for:
//   the app-proxy signature (HMAC-SHA256 over the sorted parameters, 90 s window), the JSON body, the
//   phone's E.164 form and numbering plan (libphonenumber's full metadata, its country for the counter),
//   the code and its keyed hash, the message appended to an outbox file, the proof and device token.
// What it leaves out is the app's own: Request/Response objects, the route table, zod, the risk score's
// arithmetic (its answer here is the one the bench's fresh numbers always get: low band), logging.
// `npm run bench` checks, before measuring, that one request of each kind runs the same statements here as
// in the app (the probe's SQL log): a change to the app's SQL shows there as a mismatch until this follows.
//
// Env: DATABASE_URL (file:... or postgres://...; the app's migrated database holding the shop),
// SHOPIFY_API_SECRET, OTP_HASH_SECRET, FLOOR_SHOP_DOMAIN, OUTBOX_FILE, PORT. Prints `contract floor: listening on PORT`.
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";

const require = createRequire(import.meta.url);
const { parsePhoneNumberFromString: parseMin } = require("libphonenumber-js/min");
const { parsePhoneNumberFromString: parseMax } = require("libphonenumber-js/max");

const url = process.env.DATABASE_URL ?? "";
const secret = process.env.SHOPIFY_API_SECRET ?? "local-dev-api-secret";
const hashKey = process.env.OTP_HASH_SECRET ?? "local-dev-otp-hash-secret-0123456789abcdef";
const shopDomain = process.env.FLOOR_SHOP_DOMAIN ?? "demo-shop.myshopify.com";
const outboxFile = process.env.OUTBOX_FILE ?? path.join(process.cwd(), "contract-floor-outbox.jsonl");
const pg = url.startsWith("postgres");
const E164 = /^\+\d{10,15}$/;
const DAY_MS = 86_400_000;
const RISK_WINDOW_MS = DAY_MS;
const PHONE_TEXTS_PER_DAY = 10;
const PROOF_TTL_SECONDS = 7200;
const NEVER = new Date(Date.UTC(9999, 0, 1));

// ---- Statements: the app's SQL, built the way app/core/db/sql.server.ts builds it (`?` on SQLite, `$n` on PostgreSQL).

const isFragment = (v) => v !== null && typeof v === "object" && Array.isArray(v.parts);
/** A statement or fragment: the SQL between the values, and the values (fragments spliced in with theirs). */
function sql(strings, ...values) {
  const parts = [strings[0]];
  const flat = [];
  for (let i = 1; i < strings.length; i++) {
    const v = values[i - 1];
    if (isFragment(v)) {
      parts[parts.length - 1] += v.parts[0];
      v.values.forEach((x, j) => (flat.push(x), parts.push(v.parts[j + 1])));
      parts[parts.length - 1] += strings[i];
    } else {
      flat.push(v);
      parts.push(strings[i]);
    }
  }
  return { parts, values: flat };
}
const textOf = (s) => s.parts.reduce((t, p, i) => (i === 0 ? p : `${t}${pg ? `$${i}` : "?"}${p}`), "");
const value = (v) => (v instanceof Date ? (pg ? v.toISOString() : v.getTime()) : typeof v === "boolean" && !pg ? (v ? 1 : 0) : v);
const utcDay = (d) => d.toISOString().slice(0, 10);
const monthStart = (d) => `${d.toISOString().slice(0, 7)}-01`;

function rateLimitHit(key, windowMs, now, source) {
  const stale = now - windowMs;
  const expires = now + windowMs;
  const row = source ? sql`SELECT ${key}, ${now}, 1, ${expires} ${source}` : sql`VALUES (${key}, ${now}, 1, ${expires})`;
  return sql`
    INSERT INTO "RateCounter" ("key", "windowStart", "count", "expiresAt")
    ${row}
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN "RateCounter"."windowStart" <= ${stale} THEN 1 ELSE "RateCounter"."count" + 1 END,
      "windowStart" = CASE WHEN "RateCounter"."windowStart" <= ${stale} THEN ${now} ELSE "RateCounter"."windowStart" END,
      "expiresAt" = CASE WHEN "RateCounter"."windowStart" <= ${stale} THEN ${expires} ELSE "RateCounter"."expiresAt" END
    RETURNING "count", "windowStart"`;
}

function countEvent(shopId, metric, dimension, at, source) {
  const row = source ? sql`SELECT ${shopId}, ${metric}, ${utcDay(at)}, ${dimension}, 1 ${source}` : sql`VALUES (${shopId}, ${metric}, ${utcDay(at)}, ${dimension}, 1)`;
  return sql`
    INSERT INTO "DailyStat" ("shopId", "metric", "day", "dimension", "count")
    ${row}
    ON CONFLICT ("shopId", "metric", "day", "dimension") DO UPDATE SET "count" = "DailyStat"."count" + 1
    RETURNING "count"`;
}

const peek = (key, windowMs, now) => sql`COALESCE((SELECT "count" FROM "RateCounter" WHERE "key" = ${key} AND "windowStart" > ${now - windowMs}), 0)`;

function standing(shopId, phone, now) {
  const running = sql`FROM "Experiment" WHERE "runningShopId" = ${shopId} AND ("endsAt" IS NULL OR "endsAt" > ${now})`;
  const at = now.getTime();
  const sent = peek(`otp-day-sent:${shopId}:${utcDay(now)}`, DAY_MS, at);
  const verified = peek(`otp-day-verified:${shopId}:${utcDay(now)}`, DAY_MS, at);
  return sql`
    SELECT
      (SELECT 1 FROM "BlockedPhone" WHERE "shopId" = ${shopId} AND "phone" = ${phone}) AS "blocked",
      (SELECT "verifiedAt" FROM "VerifiedCustomer" WHERE "shopId" = ${shopId} AND "phone" = ${phone}) AS "verifiedAt",
      (SELECT 1 FROM "VerifiedCustomer" WHERE "shopId" = ${shopId} AND "phone" = ${phone} AND "countedMonth" = ${monthStart(now)}) AS "counted",
      (SELECT COALESCE(SUM("count"), 0) FROM "DailyStat"
        WHERE "shopId" = ${shopId} AND "metric" = 'otp_verified' AND "day" >= ${monthStart(now)}) AS "verifiedThisMonth",
      (SELECT "id" ${running}) AS "experimentId", (SELECT "holdoutShare" ${running}) AS "holdoutShare",
      (CASE WHEN ${sent} >= ${spikeMinSends} AND ${verified} * ${5} < ${sent} THEN 1 ELSE NULL END) AS "spike",
      ${peek(`otp-net-verified:${shopId}:unknown`, DAY_MS, at)} AS "networkVerified"`;
}

/** The counters' multi-row upsert (app/core/rate-limit/rate-limit.server.ts `rateLimitHits`). */
function hits(rows) {
  const stale = sql`"RateCounter"."windowStart" <= 2 * excluded."windowStart" - excluded."expiresAt"`;
  return sql`
    INSERT INTO "RateCounter" ("key", "windowStart", "count", "expiresAt")
    ${rows}
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN ${stale} THEN 1 ELSE "RateCounter"."count" + 1 END,
      "windowStart" = CASE WHEN ${stale} THEN excluded."windowStart" ELSE "RateCounter"."windowStart" END,
      "expiresAt" = CASE WHEN ${stale} THEN excluded."expiresAt" ELSE "RateCounter"."expiresAt" END
    RETURNING "key", "count", "windowStart"`;
}

/** Fragments joined by `separator` (app/core/db/sql.server.ts `joinSql`). */
function join(fragments, separator) {
  return sql(["", ...fragments.slice(1).map(() => separator), ""], ...fragments);
}

function messageRecord(id, phone, at) {
  return sql`
    INSERT INTO "MessageDelivery" ("id", "shopId", "phone", "purpose", "channel", "providerId", "status", "fallbackOf", "orderGid", "createdAt", "updatedAt")
    VALUES (${id}, ${S.id}, ${phone}, ${"otp"}, ${"sms"}, ${null}, 'accepted', ${null}, ${null}, ${at}, ${at})`;
}

function pendingCode(c, source) {
  const values = sql`${c.id}, ${c.shopId}, ${c.phone}, ${c.codeHash}, ${c.sentAt}, ${c.expiresAt}, 0, ${c.maxAttempts}`;
  return sql`
    INSERT INTO "OtpChallenge" ("id", "shopId", "phone", "codeHash", "sentAt", "expiresAt", "attempts", "maxAttempts")
    ${source ? sql`SELECT ${values} ${source}` : sql`VALUES (${values})`}
    ON CONFLICT ("shopId", "phone") DO UPDATE SET
      "id" = excluded."id", "codeHash" = excluded."codeHash", "sentAt" = excluded."sentAt", "expiresAt" = excluded."expiresAt",
      "attempts" = 0, "maxAttempts" = excluded."maxAttempts", "usedAt" = NULL
    WHERE "OtpChallenge"."sentAt" <= ${c.cooledBefore} OR "OtpChallenge"."expiresAt" <= ${c.sentAt} OR "OtpChallenge"."usedAt" IS NOT NULL
    RETURNING "id"`;
}

const countAttempt = (shopId, phone, now, presented) => sql`
  UPDATE "OtpChallenge" SET "attempts" = "attempts" + CASE WHEN "codeHash" = ${presented} THEN 0 ELSE 1 END
  WHERE "shopId" = ${shopId} AND "phone" = ${phone} AND "expiresAt" > ${now} AND "attempts" < "maxAttempts" AND "usedAt" IS NULL
  RETURNING "id", "codeHash", "attempts", "maxAttempts"`;
const useCode = (id, now) => sql`UPDATE "OtpChallenge" SET "usedAt" = ${now} WHERE "id" = ${id} AND "usedAt" IS NULL`;

function markVerified(shopId, phone, at, source) {
  const row = source ? sql`SELECT ${shopId}, ${phone}, ${at}, ${monthStart(at)}, 1 ${source}` : sql`VALUES (${shopId}, ${phone}, ${at}, ${monthStart(at)}, 1)`;
  return sql`
    INSERT INTO "VerifiedCustomer" ("shopId", "phone", "verifiedAt", "countedMonth", "monthVerifications")
    ${row}
    ON CONFLICT ("shopId", "phone") DO UPDATE SET "verifiedAt" = excluded."verifiedAt",
      "monthVerifications" = CASE WHEN "VerifiedCustomer"."countedMonth" = excluded."countedMonth" THEN "VerifiedCustomer"."monthVerifications" + 1 ELSE 1 END,
      "countedMonth" = excluded."countedMonth"
    RETURNING "monthVerifications"`;
}

function selection(shopId, phone, at, now) {
  // The behaviour readings the risk score used (the modal sent none; the demo shop has no usual hours yet).
  const behaviour = null;
  const newId = `c${Date.now().toString(36)}${crypto.randomBytes(10).toString("hex")}`.slice(0, 25);
  const lookup = sql`
    SELECT "id" FROM "Selection"
    WHERE "shopId" = ${shopId} AND "phone" = ${phone} AND "orderGid" IS NULL AND "createdAt" >= ${new Date(now.getTime() - DAY_MS)}
    ORDER BY "createdAt" DESC LIMIT 1`;
  const update = (id, also) => sql`
    UPDATE "Selection" SET
      "mode" = ${"cod"}, "source" = ${"verify-otp"}, "verified" = CASE WHEN ${true} THEN ${true} ELSE "verified" END,
      "verifiedAt" = COALESCE(${at}, "verifiedAt"), "cartToken" = COALESCE(${null}, "cartToken"), "items" = COALESCE(${null}, "items"),
      "checkoutUrl" = COALESCE(${null}, "checkoutUrl"), "draftOrderGid" = COALESCE(${null}, "draftOrderGid"),
      "riskBehaviour" = COALESCE(${behaviour}, "riskBehaviour"), "updatedAt" = ${now}
    WHERE "id" = ${id} AND "orderGid" IS NULL AND ("verified" = ${false} OR ${true})${also}`;
  const insert = (source) => {
    const list = sql`${newId}, ${shopId}, ${phone}, ${"cod"}, ${true}, ${at}, ${null}, ${null}, ${null}, ${null}, ${behaviour}, ${"verify-otp"}, ${now}, ${now}`;
    return sql`
      INSERT INTO "Selection" ("id", "shopId", "phone", "mode", "verified", "verifiedAt", "cartToken", "items", "checkoutUrl", "draftOrderGid", "riskBehaviour", "source", "createdAt", "updatedAt")
      ${source ? sql`SELECT ${list} ${source}` : sql`VALUES (${list})`}`;
  };
  return { lookup, update, insert, newId };
}

/** The facts the risk score reads once the number is proven (app/risk/assess.server.ts `phoneHistoryColumns`), and its counters. */
function riskColumns(shopId, phone, codesKey, now, codesSince) {
  const proven = sql`(r."status" = 'confirmed' OR (r."status" = 'verified' AND r."verifiedBy" IN ('proof', 'selection')))`;
  const undisputed = (alias) => sql`NOT EXISTS (SELECT 1 FROM "OrderConfirmation" c WHERE c."shopId" = ${sql([`${alias}."shopId"`])} AND c."orderGid" = ${sql([`${alias}."orderGid"`])} AND c."disputedAt" IS NOT NULL)`;
  return sql`(SELECT COUNT(*) FROM "OrderRecord" r WHERE r."shopId" = ${shopId} AND r."phone" = ${phone} AND r."cod" = ${true} AND r."placedAt" > ${new Date(now - DAY_MS)} AND r."orderGid" <> ${""} AND ${proven} AND ${undisputed("r")}) AS "lastDay",
    (SELECT 1 FROM "VerifiedCustomer" WHERE "shopId" = ${shopId} AND "phone" = ${phone}) AS "verified",
    (SELECT COUNT(*) FROM "OrderOutcome" o WHERE o."shopId" = ${shopId} AND o."phone" = ${phone} AND o."outcome" = 'delivered' AND o."orderGid" <> ${""} AND ${undisputed("o")})
      + (SELECT COUNT(*) FROM "OrderRecord" r WHERE r."shopId" = ${shopId} AND r."phone" = ${phone} AND r."status" = 'confirmed' AND r."orderGid" <> ${""} AND ${undisputed("r")}
        AND NOT EXISTS (SELECT 1 FROM "OrderOutcome" o WHERE o."shopId" = r."shopId" AND o."orderGid" = r."orderGid" AND o."outcome" <> 'none')) AS "good",
    (SELECT COUNT(*) FROM "OrderOutcome" o WHERE o."shopId" = ${shopId} AND o."phone" = ${phone} AND o."outcome" = 'failed' AND o."orderGid" <> ${""}
      AND EXISTS (SELECT 1 FROM "OrderRecord" r WHERE r."shopId" = o."shopId" AND r."orderGid" = o."orderGid" AND ${proven} AND ${undisputed("r")})) AS "bad",
    COALESCE((SELECT "count" FROM "RateCounter" WHERE "key" = ${codesKey} AND "windowStart" > ${codesSince - RISK_WINDOW_MS}), 0) AS "riskCodes", ${sql(["0"])} AS "riskIp"`;
}

const burnCheck = (shopId, phone, at) => {
  const today = utcDay(at);
  const from = utcDay(new Date(at.getTime() - 28 * DAY_MS));
  return sql`
    SELECT
      (SELECT COUNT(*) FROM "MessageDelivery" WHERE "shopId" = ${shopId} AND "phone" = ${phone} AND "purpose" = 'merchant_test') AS "own",
      (SELECT COUNT(DISTINCT "phone") FROM "MessageDelivery" WHERE "shopId" = ${shopId} AND "purpose" = 'merchant_test') AS "ownPhones",
      (SELECT COALESCE(SUM("count"), 0) FROM "DailyStat" WHERE "shopId" = ${shopId} AND "metric" = 'otp_verified' AND "day" = ${today}) AS "today",
      (SELECT COALESCE(SUM("count"), 0) FROM "DailyStat" WHERE "shopId" = ${shopId} AND "metric" = 'otp_verified' AND "day" >= ${monthStart(at)}) AS "month",
      (SELECT COALESCE(SUM("count"), 0) FROM "DailyStat" WHERE "shopId" = ${shopId} AND "metric" = 'otp_verified' AND "day" >= ${from} AND "day" < ${today}) AS "before"`;
};

// ---- The engines: what the app's direct-statement layer does, on the bare drivers.

let db;
if (pg) {
  const { Pool, types } = require("pg");
  const pool = new Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000, query_timeout: 10_000, keepAlive: true });
  const parse = types.getTypeParser;
  const pgTypes = { getTypeParser: (oid, format) => (oid === 1114 ? (v) => new Date(`${v.replace(" ", "T")}Z`) : parse(oid, format)) };
  const names = new Map();
  const nameOf = (text) => {
    let name = names.get(text);
    if (!name) names.set(text, (name = `cod_${crypto.createHash("sha1").update(text).digest("hex").slice(0, 16)}`));
    return name;
  };
  const texts = new WeakMap();
  const run = (s) => {
    let text = texts.get(s.parts);
    if (!text) texts.set(s.parts, (text = textOf(s)));
    return pool.query({ name: nameOf(text), text, values: s.values.map(value), types: pgTypes });
  };
  db = { query: async (s) => (await run(s)).rows, execute: async (s) => (await run(s)).rowCount };
} else {
  const Database = require("better-sqlite3");
  const file = url.replace(/^file:/, "");
  const conn = new Database(file, { timeout: 5000 });
  conn.defaultSafeIntegers(true);
  conn.pragma("journal_mode = WAL");
  conn.pragma("synchronous = NORMAL");
  conn.pragma("wal_autocheckpoint = 10000");
  // As the app does (app/core/db.server.ts): PASSIVE checkpoints on another thread every 100 ms.
  new Worker(
    `const { workerData } = require("node:worker_threads"); const Database = require(workerData.driver);
     const db = new Database(workerData.file, { fileMustExist: true }); db.pragma("busy_timeout = 100");
     setInterval(() => { try { db.pragma("wal_checkpoint(PASSIVE)"); } catch {} }, 100);`,
    { eval: true, workerData: { file, driver: require.resolve("better-sqlite3") } },
  ).unref();
  const statements = new Map();
  const prepared = (s) => {
    const text = textOf(s);
    let stmt = statements.get(text);
    if (!stmt) statements.set(text, (stmt = conn.prepare(text)));
    return stmt;
  };
  const tx = {
    query: (s) => {
      const stmt = prepared(s);
      return stmt.reader ? stmt.all(s.values.map(value)) : (stmt.run(s.values.map(value)), []);
    },
    execute: (s) => prepared(s).run(s.values.map(value)).changes,
  };
  db = { query: async (s) => tx.query(s), execute: async (s) => tx.execute(s), transaction: async (work) => conn.transaction(() => work(tx)).immediate() };
}

// ---- The shop: read once (the app caches it, and its offline session, for 30 s).

const [shop] = await db.query(sql`SELECT * FROM "Shop" WHERE "domain" = ${shopDomain}`);
if (!shop) throw new Error(`contract floor: no shop ${shopDomain} in the database`);
const n = (v) => Number(v);
const S = {
  id: shop.id,
  name: shop.name ?? shop.domain,
  host: (shop.primaryDomain ?? shop.domain).toLowerCase(),
  sendLimit: n(shop.otpSendLimit),
  sendWindowMs: n(shop.otpSendWindowSeconds) * 1000,
  ttlSeconds: n(shop.otpTtlSeconds),
  cooldownSeconds: n(shop.otpResendCooldownSeconds),
  maxAttempts: n(shop.otpMaxAttempts),
  dailyCap: n(shop.dailySendCap),
  skipDays: n(shop.returningSkipDays),
  // The plan's monthly allowance the app computes (verificationsAllowed): read from the environment the bench sets.
  allowance: Number(process.env.FLOOR_ALLOWANCE ?? 2000),
};
const blockLimit = Math.max(5, Math.ceil(S.dailyCap * 0.02));
// With no client IP (the bench sends none) the IP and the network share one "unknown" place, held to an IP's share.
const ipLimit = Math.max(5, Math.ceil(S.dailyCap * 0.02));
const spikeMinSends = Math.max(20, Math.ceil(S.dailyCap * 0.1));
const PHONE_TEXTS_PER_NETWORK = 5;
const PHONE_TEXTS_CEILING = 30;
const UNBOUNDED = 2_147_483_647;
const COUNTED_ONLY = 2_147_483_647;

// ---- The request's work.

const keyedHash = (purpose, v) => crypto.createHmac("sha256", hashKey).update(`${purpose}\0${v}`).digest("hex");
const mac = (purpose, body) => crypto.createHmac("sha256", hashKey).update(`${purpose}\0${shopDomain}\0${body}`).digest("hex").slice(0, 32);
const token = (bytes) => crypto.randomBytes(bytes).toString("base64url");

function signatureValid(query) {
  const params = new URLSearchParams(query);
  const given = params.get("signature") ?? "";
  const grouped = new Map();
  for (const [k, v] of params) if (k !== "signature") grouped.set(k, grouped.has(k) ? `${grouped.get(k)},${v}` : v);
  const message = [...grouped.keys()].sort().map((k) => `${k}=${grouped.get(k)}`).join("");
  const expected = crypto.createHmac("sha256", secret).update(message).digest("hex");
  return (
    params.get("shop") === shopDomain &&
    given.length === expected.length &&
    crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected)) &&
    Math.abs(Date.now() / 1000 - Number(params.get("timestamp"))) < 90
  );
}

const outbox = fs.openSync(outboxFile, "a");
const LOW_RISK = { allowedModes: ["cod", "prepaid", "partial"], risk: { band: "low", reasons: [] } };

async function sendOtp(phone) {
  const now = new Date();
  const at = now.getTime();
  const code = crypto.randomInt(0, 1_000_000).toString().padStart(6, "0");
  const challenge = {
    id: token(12),
    shopId: S.id,
    phone,
    codeHash: keyedHash("otp-code", `${S.id}\0${phone}\0${code}`),
    sentAt: at,
    expiresAt: at + S.ttlSeconds * 1000,
    maxAttempts: S.maxAttempts,
    cooledBefore: S.cooldownSeconds > 0 ? at - S.cooldownSeconds * 1000 : Number.MAX_SAFE_INTEGER,
  };
  // send-otp's counters in the app's order (app/otp/send-decision.server.ts `countersOf`), with no client IP.
  const hour = Math.floor(at / 3_600_000);
  const counters = [
    { key: `risk-codes:${S.id}:${phone}`, ms: RISK_WINDOW_MS, step: 0, limit: COUNTED_ONLY },
    { key: `otp-send:${S.id}:${phone}`, ms: S.sendWindowMs, step: 1, limit: S.sendLimit, firstAskLimit: UNBOUNDED },
    { key: `texts:${S.id}:${phone}`, ms: DAY_MS, step: 2, limit: PHONE_TEXTS_PER_DAY, firstAskLimit: PHONE_TEXTS_CEILING },
    { key: `otp-phone-net:unknown:${S.id}:${phone}`, ms: DAY_MS, step: 2, limit: PHONE_TEXTS_PER_NETWORK },
    { key: `otp-ip:${S.id}:unknown`, ms: DAY_MS, step: 2, limit: ipLimit },
    { key: `otp-net:${S.id}:unknown`, ms: DAY_MS, step: 2, limit: ipLimit },
    { key: `otp-block:${S.id}:${phone.slice(0, -3)}:unknown`, ms: DAY_MS, step: 2, limit: blockLimit },
    { key: `otp-net-hour:${S.id}:unknown:${hour}`, ms: 3_600_000, step: 2, limit: COUNTED_ONLY, spikeLimit: 2 },
    { key: `otp-day-sent:${S.id}:${utcDay(now)}`, ms: DAY_MS, step: 2, limit: COUNTED_ONLY },
    { key: `otp-daily:${S.id}:${utcDay(now)}`, ms: DAY_MS, step: 2, limit: S.dailyCap },
  ];
  const messageId = token(12);
  const recordedAt = new Date();
  // The dashboard's count of codes sent, written with the code (the app takes it back if the text never goes).
  const country = parseMin(phone)?.country ?? "";
  let challengeId;
  let over;
  if (pg) {
    const list = join(
      counters.map((c) => sql`(${c.key}::text, ${c.ms}::bigint, ${c.step}::integer, ${c.limit}::integer, ${c.spikeLimit ?? c.limit}::integer, ${c.firstAskLimit ?? c.limit}::integer)`),
      ", ",
    );
    const counting = sql`
      SELECT c."key", ${at}::bigint, 1, ${at}::bigint + c."ms" FROM "counters" c, "standing" s
      WHERE s."blocked" IS NULL AND (c."step" = 0 OR ((s."verifiedAt" IS NULL OR s."verifiedAt" < ${NEVER})
        AND (c."step" = 1 OR s."verifiedThisMonth" < ${S.allowance} OR s."counted" IS NOT NULL)))
      ORDER BY c."key"`;
    const firstAsk = sql`COALESCE((SELECT h."count" FROM "hits" h WHERE h."key" = ${counters[3].key}) = 1, false)`;
    const through = sql`FROM "standing" WHERE (SELECT COUNT(*) FROM "hits") = ${counters.length}
      AND NOT EXISTS (SELECT 1 FROM "hits" h JOIN "counters" c ON c."key" = h."key"
        WHERE h."count" > CASE WHEN "standing"."spike" IS NOT NULL AND c."spikeLimit" < c."limit" THEN c."spikeLimit"
          WHEN ${firstAsk} THEN c."firstAskLimit" ELSE c."limit" END)`;
    const rows = await db.query(sql`
      WITH "standing" AS (${standing(S.id, phone, now)}),
      "counters" AS (SELECT * FROM (VALUES ${list}) AS v("key", "ms", "step", "limit", "spikeLimit", "firstAskLimit")),
      "hits" AS (${hits(counting)}),
      "challenge" AS (${pendingCode(challenge, through)}),
      "sent" AS (${countEvent(S.id, "otp_sent", country, now, sql`FROM "challenge"`)})
      SELECT "standing".*, (SELECT "id" FROM "challenge") AS "challengeId", (SELECT set_config('synchronous_commit', 'off', true)) AS "asyncCommit",
        "hits"."key" AS "hitKey", "hits"."count" AS "hitCount", "hits"."windowStart" AS "hitWindowStart"
      FROM "standing" LEFT JOIN "hits" ON true`);
    challengeId = rows[0].challengeId;
    over = rows[0].blocked != null || !challengeId;
    // The decision committed without waiting for the disk; the text's record, in a commit that waits, before the text.
    if (challengeId) await db.execute(messageRecord(messageId, phone, recordedAt));
  } else {
    challengeId = await db.transaction((tx) => {
      const [s] = tx.query(standing(S.id, phone, now));
      if (s.blocked != null) return null;
      const sorted = [...counters].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      const rows = tx.query(hits(sql`VALUES ${join(sorted.map((c) => sql`(${c.key}, ${at}, 1, ${at + c.ms})`), ", ")}`));
      const count = new Map(rows.map((r) => [r.key, Number(r.count)]));
      const first = count.get(counters[3].key) === 1;
      if (counters.some((c) => count.get(c.key) > (first ? (c.firstAskLimit ?? c.limit) : c.limit))) return null;
      const id = tx.query(pendingCode(challenge))[0]?.id ?? null;
      if (id) {
        tx.execute(messageRecord(messageId, phone, recordedAt));
        tx.query(countEvent(S.id, "otp_sent", country, now));
      }
      return id;
    });
    over = !challengeId;
  }
  if (over) return [429, { error: "Too many codes.", code: "rate_limited", success: false }];
  const body = `${code} is your ${S.name} verification code. It expires in ${Math.max(1, Math.round(S.ttlSeconds / 60))} minutes. Do not share it.\n\n@${S.host} #${code}`;
  const providerId = `outbox_${token(9)}`;
  fs.writeSync(outbox, `${JSON.stringify({ time: now.toISOString(), to: phone, body, channel: "sms", id: providerId, shop: shopDomain })}\n`);
  const sentAt = new Date();
  const complete = sql`
    UPDATE "MessageDelivery" SET "channel" = ${"sms"}, "providerId" = ${providerId}, "status" = ${"sent"}, "errorCode" = ${null},
      "fallbackBody" = ${null}, "fallbackUntil" = ${null}, "updatedAt" = ${sentAt}
    WHERE "id" = ${messageId}`;
  await db.execute(complete);
  return [200, { success: true, expiresIn: S.ttlSeconds, resendAfter: S.cooldownSeconds, channel: "sms", ...LOW_RISK }];
}

async function verifyOtp(phone, otp) {
  const now = new Date();
  const at = now.getTime();
  const presented = keyedHash("otp-code", `${S.id}\0${phone}\0${otp}`);
  const [challenge] = await db.query(countAttempt(S.id, phone, at, presented));
  if (!challenge) return [400, { error: "The code has expired.", code: "code_expired", success: false }];
  const a = Buffer.from(presented, "hex");
  const b = Buffer.from(challenge.codeHash, "hex");
  if (!(a.length === b.length && crypto.timingSafeEqual(a, b))) {
    const left = Number(challenge.maxAttempts) - Number(challenge.attempts);
    await db.execute(countEvent(S.id, "otp_failed", left > 0 ? "wrong" : "locked", now));
    return [400, { error: "That code is not right.", code: "invalid_code", success: false, attemptsRemaining: left }];
  }
  const done = new Date();
  const sel = selection(S.id, phone, now, done);
  const codesKey = `risk-codes:${S.id}:${phone}`;
  let first;
  let selectionId;
  if (pg) {
    const today = utcDay(now);
    const [row] = await db.query(sql`
      WITH "consumed" AS (${useCode(challenge.id, at)} RETURNING "id"),
      "marked" AS (${markVerified(S.id, phone, now, sql`FROM "consumed"`)}),
      "counted" AS (${countEvent(S.id, "otp_verified", "", now, sql`FROM "marked" WHERE "monthVerifications" = 1`)}),
      "recounted" AS (${countEvent(S.id, "otp_reverified", "", now, sql`FROM "marked" WHERE "monthVerifications" > 1`)}),
      "openSelection" AS (${sel.lookup}),
      "updatedSelection" AS (${sel.update(sql`(SELECT "id" FROM "openSelection")`, sql` AND EXISTS (SELECT 1 FROM "consumed")`)} RETURNING "id"),
      "newSelection" AS (${sel.insert(sql`FROM "consumed" WHERE NOT EXISTS (SELECT 1 FROM "updatedSelection")`)} RETURNING "id")
      SELECT (SELECT "id" FROM "consumed") AS "consumed", (SELECT "monthVerifications" FROM "marked") AS "monthVerifications",
        (SELECT COALESCE(SUM("count"), 0) FROM "DailyStat"
          WHERE "shopId" = ${S.id} AND "metric" = 'otp_verified' AND "day" >= ${monthStart(now)} AND "day" <> ${today})
          + COALESCE((SELECT "count" FROM "counted"),
            (SELECT "count" FROM "DailyStat" WHERE "shopId" = ${S.id} AND "metric" = 'otp_verified' AND "day" = ${today} AND "dimension" = ''), 0)
          -- today's texts and calls counted against the allowance (app/billing/contact-allowance.server.ts)
          + (SELECT COALESCE(SUM("count"), 0) FROM "DailyStat"
            WHERE "shopId" = ${S.id} AND "metric" = 'otp_verified' AND "day" = ${today} AND "dimension" <> '') AS "verifiedThisMonth",
        COALESCE((SELECT "id" FROM "updatedSelection"), (SELECT "id" FROM "newSelection")) AS "selectionId"
        , ${riskColumns(S.id, phone, codesKey, done.getTime(), at)}`);
    if (row.consumed == null) return [400, { error: "The code has expired.", code: "code_expired", success: false }];
    first = Number(row.monthVerifications) === 1;
    selectionId = row.selectionId;
  } else {
    const result = await db.transaction((tx) => {
      if (tx.execute(useCode(challenge.id, at)) !== 1) return null;
      const [marked] = tx.query(markVerified(S.id, phone, now));
      const counts = Number(marked.monthVerifications) === 1;
      tx.execute(countEvent(S.id, counts ? "otp_verified" : "otp_reverified", "", now));
      tx.query(sql`
        SELECT COALESCE(SUM("count"), 0) AS "n" FROM "DailyStat" WHERE "shopId" = ${S.id} AND "metric" = 'otp_verified' AND "day" >= ${monthStart(now)}`);
      const [open] = tx.query(sel.lookup);
      let id = sel.newId;
      if (open && tx.execute(sel.update(sql`${open.id}`, sql``)) === 1) id = open.id;
      else tx.execute(sel.insert());
      tx.query(sql`SELECT ${riskColumns(S.id, phone, codesKey, done.getTime(), at)}`);
      return { counts, id };
    });
    if (!result) return [400, { error: "The code has expired.", code: "code_expired", success: false }];
    first = result.counts;
    selectionId = result.id;
  }
  // The drain watch and the probe watch count the confirmed code: the shop's day, and the request's network (none: "unknown").
  await Promise.all([
    db.query(rateLimitHit(`otp-day-verified:${S.id}:${utcDay(now)}`, DAY_MS, Date.now())),
    db.query(rateLimitHit(`otp-net-verified:${S.id}:unknown`, DAY_MS, Date.now())),
  ]);
  if (first) {
    // The allowance's watch over an abnormal burn: the number's block counted, the merchant's test phones and the month's verifications read.
    await db.query(rateLimitHit(`burn-block:${S.id}:${phone.slice(0, -3)}`, DAY_MS, Date.now()));
    await db.query(burnCheck(S.id, phone, now));
  }
  const expires = Math.floor(at / 1000) + PROOF_TTL_SECONDS;
  const proofBody = `v1.${phone.slice(1)}.cod.${expires}.${selectionId}`;
  const device = S.skipDays > 0 ? `d1.${Math.floor(at / 1000) + S.skipDays * 86_400}` : null;
  return [
    200,
    {
      ...LOW_RISK,
      success: true,
      proof: `${proofBody}.${mac("proof", proofBody)}`,
      proofExpiresIn: PROOF_TTL_SECONDS,
      ...(device ? { deviceToken: `${device}.${mac("device", `${phone}\0${device}`)}` } : {}),
    },
  ];
}

// ---- The server.

function answer(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

const routes = {
  "/proxy/send-otp": (body) => sendOtp(body.phone),
  "/proxy/verify-otp": (body) => (typeof body.otp === "string" && /^\d{6}$/.test(body.otp) ? verifyOtp(body.phone, body.otp) : [400, { error: "Bad code.", code: "invalid_request", success: false }]),
};

const server = http.createServer((req, res) => {
  const q = req.url.indexOf("?");
  const route = routes[q < 0 ? req.url : req.url.slice(0, q)];
  if (req.method !== "POST" || !route) return answer(res, 404, { error: "Not found.", code: "not_found" });
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", async () => {
    try {
      if (!signatureValid(q < 0 ? "" : req.url.slice(q + 1))) return answer(res, 401, { error: "Bad signature.", code: "invalid_signature" });
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return answer(res, 400, { error: "The body is not valid JSON.", code: "invalid_request" });
      }
      const phone = typeof body?.phone === "string" ? body.phone : "";
      if (!E164.test(phone) || !parseMax(phone)?.isValid()) return answer(res, 400, { error: "Bad phone.", code: "invalid_phone", success: false });
      const [status, reply] = await route(body);
      answer(res, status, reply);
    } catch (error) {
      answer(res, 500, { error: String(error?.message ?? error), code: "internal_error" });
    }
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(`contract floor: listening on ${server.address().port}`);
});
process.on("SIGTERM", () => process.exit(0));
