#!/usr/bin/env node
// Seeds a month of storefront activity for a shop (the demo shop by default), so the admin's dashboard
// has something to show and its cost can be measured:
//   npm run seed:activity                          3,000 events over the last 30 days (a small store's month)
//   npm run seed:activity -- --events 100000       a large store's month
//   npm run seed:activity -- --measure http://localhost:3000/app --runs 20
//                                                  then times GET of the home page (local mode's server)
// Events: codes sent (each also a MessageDelivery row with the delivery state the provider reported;
// about a quarter go again to a number already sent one), verified (a number sent a code, recorded in
// VerifiedCustomer as the app does), failed (wrong, expired, locked), skipped (returning, codes off), address corrections sent and
// completed (all counted in DailyStat, as the app's own writes count them), and orders (OrderRecord rows). The shop's earlier
// seeded rows and its DailyStat counters are replaced (--keep adds to them instead). Not for production.
import "../app/server/load-env.mjs";
import { parseArgs } from "node:util";
import { resolveDatabaseUrl } from "../prisma/migrate.mjs";
import { LOCAL_DEFAULTS } from "../app/server/app-proxy-signature.mjs";
import { clientFor } from "./lib/prisma-client.mjs";

const { values: args } = parseArgs({
  options: {
    events: { type: "string", default: "3000" },
    shop: { type: "string", default: process.env.DEMO_SHOP || LOCAL_DEFAULTS.shop },
    days: { type: "string", default: "30" },
    keep: { type: "boolean", default: false },
    measure: { type: "string" },
    runs: { type: "string", default: "20" },
  },
});
if (process.env.NODE_ENV === "production") {
  console.error("seed:activity writes made-up activity: it does not run with NODE_ENV=production.");
  process.exit(1);
}
const events = Math.max(1, Math.min(2_000_000, Number(args.events) || 3000));
const days = Math.max(1, Math.min(365, Number(args.days) || 30));

// A small deterministic generator, so two runs with the same options seed the same month.
let state = 0x9e3779b9 ^ events;
function random() {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return ((state >>> 0) % 1_000_000) / 1_000_000;
}
function pick(weights) {
  let r = random() * weights.reduce((s, [, w]) => s + w, 0);
  for (const [value, w] of weights) if ((r -= w) < 0) return value;
  return weights.at(-1)[0];
}

const KINDS = [
  ["sent", 60],
  ["verified", 28],
  ["failed", 6],
  ["skipped", 3],
  ["correction_sent", 1],
  ["correction_completed", 0.5],
  ["order", 1.5],
];
const COUNTRIES = [
  ["IN", 45, "+9198765"],
  ["AE", 15, "+9715012"],
  ["SA", 10, "+9665012"],
  ["US", 10, "+1415555"],
  ["GB", 5, "+4477009"],
  ["FR", 5, "+3361234"],
  ["ES", 5, "+3461234"],
  ["EG", 5, "+2010012"],
];
const ORDER_KINDS = [
  [{ cod: true, mode: "cod", status: "verified", verifiedBy: "proof" }, 42],
  [{ cod: true, mode: "cod", status: "confirmed", verifiedBy: "confirmation" }, 7],
  [{ cod: true, mode: null, status: "pending", verifiedBy: null }, 7],
  [{ cod: true, mode: null, status: "unverified", verifiedBy: null }, 10],
  [{ cod: true, mode: null, status: "unconfirmed", verifiedBy: null }, 4],
  [{ cod: false, mode: "prepaid", status: "verified", verifiedBy: "selection" }, 20],
  [{ cod: false, mode: "partial", status: "verified", verifiedBy: "selection" }, 10],
];
const DELIVERY = [
  ["delivered", 90],
  ["failed", 4],
  ["undelivered", 2],
  ["sent", 4],
];

const url = resolveDatabaseUrl(process.env.DATABASE_URL);
const prisma = await clientFor(url);
const shop = await prisma.shop.findUnique({ where: { domain: args.shop } });
if (!shop) {
  console.error(`seed:activity: no shop ${args.shop} in ${url}. Run \`npm run setup\` first (local mode installs the demo shop).`);
  process.exit(1);
}

const now = Date.now();
const start = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate() - (days - 1));
/** A moment in the window, busier on weekends, never in the future. */
function moment() {
  for (;;) {
    const t = start + Math.floor(random() * (now - start));
    const weekday = new Date(t).getUTCDay();
    if (weekday === 0 || weekday === 6 || random() < 0.8) return t;
  }
}
const dayOf = (t) => new Date(t).toISOString().slice(0, 10);

const counters = new Map();
function count(metric, day, dimension = "") {
  const key = `${metric}\u0000${day}\u0000${dimension}`;
  counters.set(key, (counters.get(key) ?? 0) + 1);
}

const run = Date.now().toString(36);
const deliveries = [];
const orders = [];
/** Numbers sent a code, and when each last verified. */
const shoppers = [];
const verified = new Map();
const seen = Object.fromEntries(KINDS.map(([k]) => [k, 0]));
for (let i = 0; i < events; i++) {
  const kind = pick(KINDS);
  seen[kind]++;
  const t = moment();
  const day = dayOf(t);
  const [country, , prefix] = pick(COUNTRIES.map((c) => [c, c[1]]));
  let phone = `${prefix}${String(i % 100000).padStart(5, "0")}`;
  switch (kind) {
    case "sent": {
      // About one shopper in four asks again: the same number gets a second code.
      if (shoppers.length && random() < 0.25) phone = shoppers[Math.floor(random() * shoppers.length)];
      else shoppers.push(phone);
      count("otp_sent", day, country);
      const status = pick(DELIVERY);
      // A quarter of the codes go on WhatsApp (the shopper's choice), the rest by SMS.
      const channel = random() < 0.25 ? "whatsapp" : "sms";
      deliveries.push({ shopId: shop.id, phone, purpose: "otp", channel, providerId: `seed_${run}_${i}`, status, createdAt: new Date(t) });
      if (status === "delivered") count("message_delivered", day, channel);
      else if (status !== "sent") count("message_failed", day, channel);
      break;
    }
    case "verified":
      count("otp_verified", day);
      // A shopper who was sent a code confirmed it (VerifiedCustomer keeps each number's latest).
      if (shoppers.length) {
        const who = shoppers[Math.floor(random() * shoppers.length)];
        verified.set(who, Math.max(verified.get(who) ?? 0, t));
      }
      break;
    case "failed":
      count("otp_failed", day, pick([["wrong", 70], ["expired", 20], ["locked", 10]]));
      break;
    case "skipped":
      count("otp_skipped", day, pick([["returning", 80], ["disabled", 20]]));
      break;
    case "correction_sent":
    case "correction_completed":
      count(kind, day);
      break;
    case "order": {
      const o = pick(ORDER_KINDS);
      // An order verified by its proof was placed by a shopper who was sent a code (where there is one yet).
      if (o.verifiedBy === "proof" && shoppers.length) phone = shoppers[Math.floor(random() * shoppers.length)];
      orders.push({ shopId: shop.id, orderGid: `gid://shopify/Order/seed${run}${i}`, orderName: `#S${i}`, phone, placedAt: new Date(t), ...o });
      break;
    }
  }
}

const began = Date.now();
if (!args.keep) {
  await prisma.messageDelivery.deleteMany({ where: { shopId: shop.id, providerId: { startsWith: "seed_" } } });
  await prisma.orderRecord.deleteMany({ where: { shopId: shop.id, orderGid: { startsWith: "gid://shopify/Order/seed" } } });
  await prisma.dailyStat.deleteMany({ where: { shopId: shop.id } });
}
for (const [key, n] of counters) {
  const [metric, day, dimension] = key.split("\u0000");
  await prisma.$executeRaw`
    INSERT INTO "DailyStat" ("shopId", "metric", "day", "dimension", "count") VALUES (${shop.id}, ${metric}, ${day}, ${dimension}, ${n})
    ON CONFLICT ("shopId", "metric", "day", "dimension") DO UPDATE SET "count" = "DailyStat"."count" + excluded."count"`;
}
for (let i = 0; i < deliveries.length; i += 2000) await prisma.messageDelivery.createMany({ data: deliveries.slice(i, i + 2000) });
const verifiedRows = [...verified].map(([phone, t]) => ({ shopId: shop.id, phone, verifiedAt: new Date(t) }));
// 300 at a time: SQLite takes at most 999 parameters in a statement.
for (let i = 0; i < verifiedRows.length; i += 300) {
  const batch = verifiedRows.slice(i, i + 300);
  await prisma.verifiedCustomer.deleteMany({ where: { shopId: shop.id, phone: { in: batch.map((r) => r.phone) } } });
  await prisma.verifiedCustomer.createMany({ data: batch });
}
for (let i = 0; i < orders.length; i += 2000) await prisma.orderRecord.createMany({ data: orders.slice(i, i + 2000) });

const monthStart = `${new Date(now).toISOString().slice(0, 7)}-01`;
const [{ used }] = await prisma.$queryRaw`
  SELECT COALESCE(SUM("count"), 0) AS "used" FROM "DailyStat" WHERE "shopId" = ${shop.id} AND "metric" = 'otp_verified' AND "day" >= ${monthStart}`;
console.log(
  `seed:activity: ${events.toLocaleString("en-US")} events over ${days} days for ${shop.domain} in ${((Date.now() - began) / 1000).toFixed(1)} s: ` +
    Object.entries(seen)
      .map(([k, n]) => `${k} ${n.toLocaleString("en-US")}`)
      .join(", ") +
    `; ${counters.size} DailyStat rows, ${deliveries.length.toLocaleString("en-US")} MessageDelivery rows (${shoppers.length.toLocaleString("en-US")} shoppers), ` +
    `${verifiedRows.length.toLocaleString("en-US")} VerifiedCustomer rows, ${orders.length.toLocaleString("en-US")} OrderRecord rows.`,
);
console.log(
  `seed:activity: ${Number(used).toLocaleString("en-US")} verifications this month (the plan's allowance counts them: past it the storefront answers 402 plan_limit_reached until next month or a larger plan).`,
);
await prisma.$disconnect();

if (args.measure) {
  const runs = Math.max(1, Number(args.runs) || 20);
  const times = [];
  for (let i = 0; i <= runs; i++) {
    const t0 = performance.now();
    const res = await fetch(args.measure, { headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36" } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`GET ${args.measure} answered ${res.status}`);
    if (i > 0) times.push(performance.now() - t0); // the first request warms caches
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(0);
  console.log(`seed:activity: GET ${args.measure} ×${runs}: median ${at(0.5)} ms, p90 ${at(0.9)} ms, min ${times[0].toFixed(0)} ms, max ${times.at(-1).toFixed(0)} ms`);
}
