#!/usr/bin/env node
// Fills a database with a large shop's year, so what the app's costs become as a shop grows can be measured
// (`npm run bench:growth`, docs/performance.md "As a shop grows"). Not for production.
//   node scripts/fill-shop-year.mjs --orders 1000000 [--other-shops 1000] [--shop demo-shop.myshopify.com]
// The database (DATABASE_URL, SQLite or PostgreSQL) must be migrated, with the shop installed (`npm run setup`).
// For `--orders N` the shop gets, spread over the last 365 days: N orders (70 % COD) and the outcomes of the COD
// ones (a fifth failed; OutcomeTally's counts follow through its triggers), N selections (the verify-otp and create-checkout records), 2.5 N message records (codes
// and confirmations), N / 5 verified customers, a year of daily counters, N / 10 finished background jobs of the
// last 30 days; and `--other-shops` more shops with 100 orders and 250 messages each. Every row is made by the
// database itself (one INSERT ... SELECT over a number series per table), so a million orders take a minute,
// not an hour of round trips. Deterministic: the same options fill the same rows.
import "../app/server/load-env.mjs";
import { createRequire } from "node:module";
import { parseArgs } from "node:util";
import { resolveDatabaseUrl } from "../prisma/migrate.mjs";
import { LOCAL_DEFAULTS } from "../app/server/app-proxy-signature.mjs";

const require = createRequire(import.meta.url);
const { values: args } = parseArgs({
  options: {
    orders: { type: "string", default: "100000" },
    "other-shops": { type: "string", default: "1000" },
    shop: { type: "string", default: process.env.DEMO_SHOP || LOCAL_DEFAULTS.shop },
  },
});
if (process.env.NODE_ENV === "production") {
  console.error("fill-shop-year writes made-up data: it does not run with NODE_ENV=production.");
  process.exit(1);
}
const orders = Number(args.orders);
const otherShops = Number(args["other-shops"]);
if (!Number.isInteger(orders) || orders < 1 || orders > 20_000_000 || !Number.isInteger(otherShops) || otherShops < 0 || otherShops > 100_000) {
  console.error("fill-shop-year: --orders is 1 to 20,000,000 and --other-shops 0 to 100,000");
  process.exit(2);
}

const url = resolveDatabaseUrl(process.env.DATABASE_URL);
const sqlite = url.startsWith("file:");
const now = Date.now();
const DAY = 86_400_000;

/** The engine's spelling of what the statements below need. */
const E = sqlite
  ? {
      series: (n) => `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${n - 1}) `,
      from: "FROM s",
      at: (ms) => `(${ms})`,
      bool: (cond) => `(CASE WHEN ${cond} THEN 1 ELSE 0 END)`,
      pad: (expr, width) => `printf('%0${width}d', ${expr})`,
      text: (expr) => `CAST(${expr} AS TEXT)`,
      day: (ms) => `strftime('%Y-%m-%d', (${ms}) / 1000, 'unixepoch')`,
    }
  : {
      series: () => "",
      from: (n) => `FROM generate_series(0::bigint, ${n - 1}) AS s(i)`,
      at: (ms) => `(to_timestamp((${ms})::double precision / 1000) AT TIME ZONE 'UTC')`,
      bool: (cond) => `(${cond})`,
      pad: (expr, width) => `lpad((${expr})::text, ${width}, '0')`,
      text: (expr) => `(${expr})::text`,
      day: (ms) => `to_char(to_timestamp((${ms})::double precision / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
    };
const from = (n) => (sqlite ? E.from : E.from(n));
/** A deterministic spread of i over 0..m-1 (a multiplicative hash), the same on both engines. */
const mix = (i, m, salt = 0) => `(((${i}) * 2654435761 + ${salt}) % ${m})`;

function connect() {
  if (sqlite) {
    const Database = require("better-sqlite3");
    const db = new Database(url.slice("file:".length));
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = OFF");
    return { run: async (sql) => void db.exec(sql), one: async (sql) => db.prepare(sql).get(), close: async () => db.close() };
  }
  const { Client } = require("pg");
  const client = new Client({ connectionString: url });
  return {
    ready: client.connect(),
    run: async (sql) => void (await client.query(sql)),
    one: async (sql) => (await client.query(sql)).rows[0],
    close: () => client.end(),
  };
}

/** One shop's year: `n` orders and what comes with them, for the shop whose id is the SQL expression `shopId`. */
function shopYear(shopId, n, key) {
  const customers = Math.max(1, Math.floor(n / 5));
  const placed = `${now} - ${mix("i", 365 * DAY, 7)}`;
  const phone = (i) => `'+9198' || ${E.pad(mix(i, customers, 3), 8)}`;
  const gid = (i) => `'gid://shopify/Order/${key}' || ${E.pad(i, 9)}`;
  const cod = (i) => `${mix(i, 10, 1)} < 7`;
  // A fifth of the outcomes failed. Not a spread of i itself: `cod` and the outcome's own condition already decide
  // on i's last digit (a modulus of 10), which would make every one delivered or failed alike.
  const failed = `${mix("i / 10", 5, 13)} = 0`;
  const band = `(CASE WHEN ${mix("i", 100, 5)} < 80 THEN 'low' WHEN ${mix("i", 100, 5)} < 95 THEN 'medium' ELSE 'high' END)`;
  const messages = Math.floor(n * 2.5);
  const jobs = Math.max(1, Math.floor(n / 10));
  return [
    [`orders`, `${E.series(n)}INSERT INTO "OrderRecord" ("shopId", "orderGid", "orderName", "phone", "mode", "cod", "status", "verifiedBy",
        "riskScore", "riskBand", "value", "trafficSource", "postalCode", "products", "placedAt", "createdAt", "updatedAt")
      SELECT ${shopId}, ${gid("i")}, '#' || ${E.text("1000 + i")}, ${phone("i")},
        CASE WHEN ${cod("i")} THEN 'cod' ELSE 'prepaid' END, ${E.bool(cod("i"))},
        CASE WHEN ${mix("i", 10, 2)} < 8 THEN 'verified' ELSE 'unverified' END, 'proof',
        ${mix("i", 100, 5)}, ${band}, 200 + ${mix("i", 4800, 9)}, 'direct',
        ${E.text(`110000 + ${mix("i", 2000, 11)} * 37`)}, '["T-shirt"]', ${E.at(placed)}, ${E.at(placed)}, ${E.at(placed)} ${from(n)}`],
    [`outcomes`, `${E.series(n)}INSERT INTO "OrderOutcome" ("shopId", "orderGid", "phone", "postalCode", "outcome", "reason", "decidedAt")
      SELECT ${shopId}, ${gid("i")}, ${phone("i")}, ${E.text(`110000 + ${mix("i", 2000, 11)} * 37`)},
        CASE WHEN ${failed} THEN 'failed' ELSE 'delivered' END,
        CASE WHEN ${failed} THEN 'cancelled' ELSE 'fulfilled' END, ${E.at(`${placed} + 3 * ${DAY}`)}
      ${from(n)} WHERE ${cod("i")} AND ${mix("i", 10, 17)} < 8`],
    [`selections`, `${E.series(n)}INSERT INTO "Selection" ("id", "shopId", "phone", "mode", "verified", "verifiedAt", "source", "orderGid", "linkedAt", "createdAt", "updatedAt")
      SELECT 'fill-${key}-' || ${E.text("i")}, ${shopId}, ${phone("i")}, 'cod', ${E.bool("1 = 1")}, ${E.at(placed)}, 'verify-otp',
        CASE WHEN ${mix("i", 10, 19)} < 6 THEN ${gid("i")} END, ${E.at(placed)}, ${E.at(placed)}, ${E.at(placed)} ${from(n)}`],
    [`messages`, `${E.series(messages)}INSERT INTO "MessageDelivery" ("id", "shopId", "phone", "purpose", "channel", "providerId", "status", "orderGid", "createdAt", "updatedAt")
      SELECT 'fill-${key}-' || ${E.text("i")}, ${shopId}, ${phone("i")},
        CASE WHEN ${mix("i", 5, 23)} = 0 THEN 'order_confirmation' ELSE 'otp' END,
        CASE WHEN ${mix("i", 4, 29)} = 0 THEN 'whatsapp' ELSE 'sms' END, 'SMfill${key}' || ${E.pad("i", 12)},
        CASE WHEN ${mix("i", 20, 31)} = 0 THEN 'undelivered' ELSE 'delivered' END,
        CASE WHEN ${mix("i", 5, 23)} = 0 THEN ${gid(mix("i", n, 53))} END,
        ${E.at(`${now} - ${mix("i", 365 * DAY, 37)}`)}, ${E.at(`${now} - ${mix("i", 365 * DAY, 37)}`)} ${from(messages)}`],
    [`customers`, `${E.series(customers)}INSERT INTO "VerifiedCustomer" ("shopId", "phone", "verifiedAt", "monthVerifications")
      SELECT ${shopId}, '+9198' || ${E.pad("i", 8)}, ${E.at(`${now} - ${mix("i", 365 * DAY, 41)}`)}, 1 ${from(customers)}`],
    [`daily counters`, `${E.series(365 * 6)}INSERT INTO "DailyStat" ("shopId", "metric", "day", "dimension", "count")
      SELECT ${shopId}, CASE i % 6 WHEN 0 THEN 'otp_sent' WHEN 1 THEN 'otp_verified' WHEN 2 THEN 'otp_failed' WHEN 3 THEN 'order_cod'
        WHEN 4 THEN 'order_verified' ELSE 'order_unverified' END, ${E.day(`${now} - (i / 6) * ${DAY}`)}, 'IN',
        1 + ${mix("i", Math.max(2, Math.ceil((n * 2.5) / 365)), 43)} ${from(365 * 6)}`],
    [`finished jobs`, `${E.series(jobs)}INSERT INTO "Job" ("id", "kind", "key", "shop", "payload", "attempts", "nextAttemptAt", "doneAt", "createdAt", "updatedAt")
      SELECT 'fill-${key}-' || ${E.text("i")}, 'order-tags', 'fill-${key}|' || ${E.text("i")}, (SELECT "domain" FROM "Shop" WHERE "id" = ${shopId}), '{}', 1,
        ${E.at(`${now} - ${mix("i", 30 * DAY, 47)}`)}, ${E.at(`${now} - ${mix("i", 30 * DAY, 47)}`)},
        ${E.at(`${now} - ${mix("i", 30 * DAY, 47)}`)}, ${E.at(`${now} - ${mix("i", 30 * DAY, 47)}`)} ${from(jobs)}`],
  ];
}

const db = connect();
await db.ready;
const shop = await db.one(`SELECT "id" FROM "Shop" WHERE "domain" = '${args.shop.replaceAll("'", "''")}'`);
if (!shop) {
  console.error(`fill-shop-year: no shop ${args.shop} in the database: run \`npm run setup\` first`);
  process.exit(2);
}
const started = Date.now();
const step = async (label, sql) => {
  const t = Date.now();
  await db.run(sql);
  console.log(`fill-shop-year: ${label} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
};
await db.run("BEGIN");
for (const [label, sql] of shopYear(`'${shop.id}'`, orders, "a")) await step(`${args.shop}: ${label}`, sql);
if (otherShops > 0) {
  await step(
    `${otherShops} other shops`,
    `${E.series(otherShops)}INSERT INTO "Shop" ("id", "domain", "name", "subscriptionStatus", "updatedAt")
      SELECT 'fill-shop-' || ${E.text("i")}, 'fill-shop-' || ${E.text("i")} || '.myshopify.com', 'Shop ' || ${E.text("i")}, 'active', ${E.at(now)} ${from(otherShops)}`,
  );
  // Their orders, selections and messages in one pass over every other shop (ids fill-shop-<k>).
  for (const [label, sql] of shopYear(`'fill-shop-' || ${E.text(`i % ${otherShops}`)}`, otherShops * 100, "b")) {
    if (label === "daily counters" || label === "customers" || label === "finished jobs") continue;
    await step(`other shops: ${label}`, sql);
  }
}
await db.run("COMMIT");
// PostgreSQL: what autovacuum would have done by now, statistics for the planner. SQLite keeps none here (the app
// never runs ANALYZE: it names its indexes where the planner could walk rows that only grow), so none are made.
if (!sqlite) await step("ANALYZE", "ANALYZE");
await db.close();
console.log(`fill-shop-year: ${orders.toLocaleString("en")} orders for ${args.shop} and ${otherShops.toLocaleString("en")} other shops in ${((Date.now() - started) / 1000).toFixed(0)} s`);
