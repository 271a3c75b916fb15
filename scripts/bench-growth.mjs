#!/usr/bin/env node
// How the app's costs grow with a shop's data (docs/performance.md, "As a shop grows"):
//   npm run bench:growth [-- --sizes 10000,100000,1000000] [--engines sqlite,postgresql] [--requests 100] [--no-build]
//   npm run bench:growth -- --database postgresql://.../filled   a database filled before (kept, not dropped)
// For each engine and size: a new database, migrated, the demo shop installed and filled with that many orders'
// year (scripts/fill-shop-year.mjs: 2.5 messages, 1 selection and 0.2 verified customers an order, 1,000 other
// shops, a year of daily counters), local mode's server started on it (scripts/local.mjs: the development build,
// whose admin lets the demo shop in without Shopify), then, one request at a time, send-otp (fresh numbers),
// verify-otp (a wrong code), orders/create deliveries and every admin page, once the day rollup has rolled the
// shop's closed days (as its job has by then on a shop's real database). It prints each one's median and p95
// in ms per size, so a page that reads a whole table shows as a column that grows with the data. The machine is
// shared: read the columns against each other (same run), not against other days. It asserts nothing.
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { LOCAL_DEFAULTS, signedProxyQuery } from "../app/server/app-proxy-signature.mjs";
import { freePort } from "./lib/free-port.mjs";

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values: args } = parseArgs({
  options: {
    sizes: { type: "string", default: "10000,100000,1000000" },
    engines: { type: "string", default: "sqlite,postgresql" },
    requests: { type: "string", default: "100" },
    "page-runs": { type: "string", default: "7" },
    "no-build": { type: "boolean", default: false },
    database: { type: "string" },
  },
});
const sizes = args.sizes.split(",").map(Number);
const engines = args.engines.split(",");
const requests = Number(args.requests);
const pageRuns = Number(args["page-runs"]);
const pgBase = process.env.BENCH_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const secret = "local-dev-api-secret";
const shop = process.env.DEMO_SHOP || LOCAL_DEFAULTS.shop;
const say = (line) => process.stderr.write(`bench:growth: ${line}\n`);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cod-growth-"));
const DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

/** The admin's pages, as the merchant opens them (the development build's admin lets the demo shop in). */
const PAGES = ["/app", "/app/orders", "/app/deliveries", "/app/deliveries/analytics", "/app/deliveries/analytics?days=365", "/app/analytics", "/app/risk", "/app/settings", "/app/settings/enforcement", "/app/settings/pay-now", "/app/settings/experiment", "/app/plans", "/app/blocklist", "/app/data-requests", "/app/experiment", "/app/needs-a-person"];

function run(cmd, argv, env) {
  const r = spawnSync(cmd, argv, { cwd: root, encoding: "utf8", env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`${path.basename(argv[0] ?? cmd)} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

async function pg(url, sql) {
  const { Client } = require("pg");
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The rows of one statement, on either engine. */
async function rows(url, statement, params = []) {
  if (url.startsWith("file:")) {
    const Database = require("better-sqlite3");
    const db = new Database(url.slice("file:".length), { readonly: true });
    try {
      return db.prepare(statement).all(...params);
    } finally {
      db.close();
    }
  }
  const { Client } = require("pg");
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    let i = 0;
    return (await client.query(statement.replace(/\?/g, () => `$${++i}`), params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * A shop of this size verifies past every plan's allowance (a million orders a year are some 45,000
 * verifications a month; the largest plan pays for 12,000), and send-otp would answer 402: this month's
 * verifications are taken off its counters so that the send itself is measured.
 */
async function allowanceLeft(url) {
  const month = `${new Date().toISOString().slice(0, 7)}-01`;
  const remove = `DELETE FROM "DailyStat" WHERE "metric" = 'otp_verified' AND "day" >= ? AND "shopId" IN (SELECT "id" FROM "Shop" WHERE "domain" = ?)`;
  if (url.startsWith("file:")) {
    const Database = require("better-sqlite3");
    const db = new Database(url.slice("file:".length));
    db.prepare(remove).run(month, shop);
    db.close();
  } else await rows(url, remove, [month, shop]);
}

/** Waits (at most 10 minutes) until the day rollup has rolled the shop's closed days: Home's 30 and delivery's 365 (a shop of under 5,000 orders has none). */
async function rolledUp(url, orders) {
  if (orders < 5000) return;
  const started = Date.now();
  for (;;) {
    const counts = await rows(url, `SELECT "kind", COUNT(*) AS "n" FROM "DayRollup" r JOIN "Shop" s ON s."id" = r."shopId" WHERE s."domain" = ? GROUP BY "kind"`, [shop]);
    const n = (kind) => Number(counts.find((c) => c.kind === kind)?.n ?? 0);
    if (n("home") >= 30 && n("delivery") >= 365) return say(`rolled up in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    if (Date.now() - started > 600_000) return say("the day rollup did not finish in 10 minutes: measuring anyway");
    await new Promise((r) => setTimeout(r, 2000));
  }
}

/** PostgreSQL's plans for the pages' statements that grow with a shop (EXPLAIN: which index, no whole-table scan). */
async function plans(url) {
  if (url.startsWith("file:")) return;
  const [{ id }] = await rows(url, `SELECT "id" FROM "Shop" WHERE "domain" = ?`, [shop]);
  const statements = {
    "Home and delivery analytics: the stored rows that cover a period (keys first, then only the chosen rows' figures)": `SELECT "kind", "day", "rolledAt" FROM "DayRollup" WHERE "shopId" = ? AND "kind" IN ('delivery', 'delivery:month') AND "day" >= '2025-01-01' AND "day" < '2099-01-01'`,
    "Orders: one status counted up to 10,000": `SELECT COUNT(*) FROM (SELECT 1 FROM "OrderRecord" WHERE "shopId" = ? AND "status" = 'verified' LIMIT 10000) AS "c"`,
    "Settings, Holdout experiment: the planning rate of the newest 10,000 outcomes": `SELECT COUNT(*), SUM(CASE WHEN "outcome" = 'failed' THEN 1 ELSE 0 END) FROM (SELECT "outcome" FROM "OrderOutcome" WHERE "shopId" = ? AND "outcome" IN ('delivered', 'failed') ORDER BY "decidedAt" DESC LIMIT 10000) AS "o"`,
    "Settings, Holdout experiment: today's COD orders (the closed days from Home's rollup)": `SELECT COUNT(*) FROM "OrderRecord" WHERE "shopId" = ? AND "cod" = true AND "placedAt" >= now() - interval '1 day'`,
    "Settings, Pay now: COD orders moved to prepaid in 30 days": `SELECT COUNT(*) FROM "OrderRecord" WHERE "shopId" = ? AND "cod" = true AND "prepaidAt" >= now() - interval '30 days'`,
  };
  for (const [what, statement] of Object.entries(statements)) {
    const plan = await rows(url, `EXPLAIN (COSTS OFF) ${statement}`, [id]);
    console.log(`\n${what}:\n${plan.map((r) => `  ${r["QUERY PLAN"]}`).join("\n")}`);
  }
}

async function database(engine, size) {
  if (engine === "sqlite") {
    const file = path.join(tmp, `growth-${size}.db`);
    return { url: `file:${file}`, drop: async () => fs.rmSync(file, { force: true }) };
  }
  const name = `cod_growth_${process.pid}_${size}`;
  await pg(pgBase, `DROP DATABASE IF EXISTS ${name}`);
  await pg(pgBase, `CREATE DATABASE ${name}`);
  const u = new URL(pgBase);
  u.pathname = `/${name}`;
  return { url: u.href, drop: () => pg(pgBase, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {}) };
}

async function startLocal(url) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, "scripts", "local.mjs")], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url, PORT: String(port), LOCAL_SHOPIFY_PORT: String(await freePort()), LOG_LEVEL: "warn", OUTBOX_DIR: path.join(tmp, `outbox-${port}`), NODE_ENV: "development" },
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  let errors = "";
  child.stderr.on("data", (d) => (errors = (errors + d).slice(-4000)));
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`local mode exited with ${child.exitCode}:\n${errors}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/proxy/api/auth/ping`)).ok) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = () =>
    new Promise((resolve) => {
      child.once("exit", resolve);
      process.kill(-child.pid, "SIGTERM");
    });
  return { origin: `http://127.0.0.1:${port}`, stop };
}

/** Median and p95 of `n` timed calls of `call` (ms), one at a time; an answer of another status than `expected` is counted apart. */
async function timed(n, call, expected = 200) {
  const times = [];
  let failed = 0;
  const statuses = new Set();
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const res = await call(i);
    await res.arrayBuffer();
    times.push(performance.now() - started);
    if (res.status !== expected) {
      failed++;
      statuses.add(res.status);
    }
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { median: at(0.5), p95: at(0.95), failed, statuses: [...statuses].join(", ") };
}

/** A signed storefront request from the `i`th shopper's own network (the per-network shares of send-otp count each apart). */
function signedPost(origin, route, body, i = 0) {
  const q = signedProxyQuery({ secret, shop });
  const headers = { "content-type": "application/json", "x-forwarded-for": `100.${64 + ((i >> 8) & 63)}.${i & 255}.9` };
  return fetch(`${origin}/proxy${route}?${q}`, { method: "POST", headers, body: JSON.stringify(body) });
}

function delivery(origin, payload) {
  const body = JSON.stringify(payload);
  return fetch(`${origin}/webhooks/orders/create`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-shopify-hmac-sha256": crypto.createHmac("sha256", secret).update(body, "utf8").digest("base64"),
      "x-shopify-topic": "orders/create",
      "x-shopify-shop-domain": shop,
      "x-shopify-api-version": "2026-10",
      "x-shopify-webhook-id": crypto.randomUUID(),
      "x-shopify-triggered-at": new Date().toISOString(),
    },
    body,
  });
}

async function measure(origin) {
  const tag = String(200 + Math.floor(Math.random() * 700));
  const phone = (i) => `+1646${tag}${String(i).padStart(4, "0")}`;
  const rows = {};
  rows["POST /proxy/send-otp"] = await timed(requests, (i) => signedPost(origin, "/send-otp", { phone: phone(i) }, i));
  rows["POST /proxy/verify-otp (wrong code)"] = await timed(requests, (i) => signedPost(origin, "/verify-otp", { phone: phone(i), otp: "000000" }, i), 400);
  const base = 9_000_000_000 + Math.floor(Math.random() * 1e8);
  rows["POST /webhooks/orders/create"] = await timed(requests, (i) =>
    delivery(origin, {
      id: base + i,
      admin_graphql_api_id: `gid://shopify/Order/${base + i}`,
      name: `#G${i}`,
      phone: `+9198${String(i).padStart(8, "0")}`,
      payment_gateway_names: ["Cash on Delivery (COD)"],
      total_price: "499.00",
      currency: "INR",
      line_items: [{ title: "T-shirt", quantity: 1 }],
      shipping_address: { zip: "110001", country_code: "IN", city: "Delhi", address1: "1 Main Road", phone: null },
      created_at: new Date().toISOString(),
    }),
  );
  for (const page of PAGES) {
    const get = () => fetch(`${origin}${page}`, { headers: { "user-agent": DESKTOP } });
    const first = await get();
    await first.arrayBuffer();
    if (first.status === 404) continue;
    rows[`GET ${page}`] = await timed(pageRuns, get);
  }
  return rows;
}

if (!args["no-build"]) {
  say("building (npm run build:dev: local mode's admin lets the demo shop in)");
  run(process.execPath, [path.join(root, "node_modules", "@remix-run", "dev", "dist", "cli.js"), "build"], { LOCAL_TOOLS: "true" });
}
const results = {};
if (args.database) {
  // A database filled before (npm run fill:shop-year): measured as it is, and kept.
  const engine = args.database.startsWith("file:") ? "sqlite" : "postgresql";
  const [{ n }] = await rows(args.database, `SELECT COUNT(*) AS "n" FROM "OrderRecord" r JOIN "Shop" s ON s."id" = r."shopId" WHERE s."domain" = ?`, [shop]);
  await allowanceLeft(args.database);
  const server = await startLocal(args.database);
  try {
    await rolledUp(args.database, Number(n));
    results[`${engine} ${n}`] = await measure(server.origin);
  } finally {
    await server.stop();
  }
  await plans(args.database);
}
for (const engine of args.database ? [] : engines) {
  for (const size of sizes) {
    const db = await database(engine, size);
    try {
      const env = { DATABASE_URL: db.url, LOCAL_MODE: "true", NODE_ENV: "development" };
      run(process.execPath, [path.join(root, "scripts", "setup.mjs")], env);
      say(`${engine}: filling ${size.toLocaleString("en")} orders`);
      const t = Date.now();
      run(process.execPath, [path.join(root, "scripts", "fill-shop-year.mjs"), "--orders", String(size), "--other-shops", String(Math.min(1000, Math.ceil(size / 100)))], env);
      say(`${engine}: filled in ${((Date.now() - t) / 1000).toFixed(0)} s; measuring`);
      await allowanceLeft(db.url);
      const server = await startLocal(db.url);
      try {
        await rolledUp(db.url, size);
        results[`${engine} ${size}`] = await measure(server.origin);
        if (size === sizes.at(-1)) await plans(db.url);
      } finally {
        await server.stop();
      }
    } finally {
      await db.drop();
    }
  }
}
fs.rmSync(tmp, { recursive: true, force: true });

const columns = Object.keys(results);
const names = [...new Set(columns.flatMap((c) => Object.keys(results[c])))];
const fmt = (r) => (r ? `${r.median.toFixed(1)} / ${r.p95.toFixed(1)}${r.failed ? ` (${r.failed} answered ${r.statuses})` : ""}` : "—");
console.log(`\nmedian / p95 ms, one request at a time (${requests} per storefront route and webhook, ${pageRuns} per page after one unmeasured)\n`);
console.log(`| request | ${columns.map((c) => `${c.split(" ")[0]}, ${Number(c.split(" ")[1]).toLocaleString("en")} orders`).join(" | ")} |`);
console.log(`|---|${columns.map(() => "---").join("|")}|`);
for (const name of names) console.log(`| ${name} | ${columns.map((c) => fmt(results[c][name])).join(" | ")} |`);
