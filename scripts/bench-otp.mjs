#!/usr/bin/env node
// Load test of POST /send-otp against a running server (run by hand, never in tests):
//   node scripts/bench-otp.mjs [--url=http://localhost:3000] [--n=2000] [--c=16] [--same-phone]
// Each request is signed as Shopify's app proxy signs it (local secret and demo shop unless
// SHOPIFY_API_SECRET / DEMO_SHOP say otherwise). By default every request uses its own number, so
// each one passes the limits and really "sends" (to the outbox in local mode); --same-phone fires
// them all at one number (the limits answer). Prints req/s, latency percentiles and the statuses.
import http from "node:http";
import { LOCAL_DEFAULTS, signedProxyQuery } from "./lib/app-proxy-signature.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, "").split("=");
    return [k, v ?? "true"];
  }),
);
const base = new URL(args.url ?? `http://localhost:${process.env.PORT ?? 3000}`);
const total = Number(args.n ?? 2000);
const concurrency = Number(args.c ?? 16);
const samePhone = args["same-phone"] === "true";
const secret = process.env.SHOPIFY_API_SECRET ?? LOCAL_DEFAULTS.secret;
const shop = process.env.DEMO_SHOP ?? LOCAL_DEFAULTS.shop;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
// A random 4-digit tag per run, so numbers from an earlier run (inside their limits' windows) are not reused.
const runTag = String(Math.floor(Math.random() * 10_000)).padStart(4, "0");

function phoneFor(i) {
  return samePhone ? "+14155550000" : `+19${runTag}${String(i).padStart(6, "0")}`;
}

function request(i) {
  const body = JSON.stringify({ phone: phoneFor(i) });
  const query = signedProxyQuery({ shop, secret });
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const req = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port || 80,
        method: "POST",
        path: `/proxy/send-otp?${query}`,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
      },
    );
    req.on("error", (e) => resolve({ status: `error ${e.code ?? e.message}`, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
    req.end(body);
  });
}

const results = [];
let next = 0;
const t0 = process.hrtime.bigint();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < total) results.push(await request(next++));
  }),
);
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
agent.destroy();

const latencies = results.map((r) => r.ms).sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(1);
const statuses = {};
for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
console.log(`send-otp: ${total} requests, ${concurrency} connections, ${samePhone ? "one number" : "a number each"}`);
console.log(`  ${(total / seconds).toFixed(0)} req/s over ${seconds.toFixed(2)} s`);
console.log(`  latency ms: p50 ${pct(50)}  p90 ${pct(90)}  p99 ${pct(99)}  max ${latencies.at(-1).toFixed(1)}`);
console.log(`  statuses: ${JSON.stringify(statuses)}`);
