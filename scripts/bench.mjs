#!/usr/bin/env node
// Load benchmark for signed storefront requests. Prints numbers; asserts nothing.
//   node scripts/bench.mjs [--path /api/config] [--method GET] [--body '{...}']
//                          [--connections 16] [--requests 4000]
// Without APP_URL it builds nothing: it starts server.mjs over the existing build (run `npm run build`
// first) on a free port with a fresh SQLite database in local mode, and stops it afterwards.
// With APP_URL it loads that server instead (SHOPIFY_API_SECRET/DEMO_SHOP as for `npm run proxy`).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LOCAL_DEFAULTS, signedProxyQuery } from "./lib/app-proxy-signature.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const routePath = arg("path", "/api/config");
const method = arg("method", "GET").toUpperCase();
const body = arg("body", undefined);
const connections = Number(arg("connections", 16));
const total = Number(arg("requests", 4000));
const warmup = Math.min(200, Math.floor(total / 10));

async function startOwnServer() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cod-bench-"));
  const env = {
    ...process.env,
    DATABASE_URL: `file:${path.join(dir, "bench.db")}`,
    LOCAL_MODE: "true",
    NODE_ENV: "production",
    SHOPIFY_API_KEY: "local-dev-api-key",
    SHOPIFY_API_SECRET: LOCAL_DEFAULTS.secret,
    SHOPIFY_APP_URL: "http://127.0.0.1",
    OTP_HASH_SECRET: "bench-otp-hash-secret-0123456789abcdef0123",
    SMS_PROVIDER: "outbox",
    OUTBOX_DIR: dir,
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
  };
  const setup = spawnSync(process.execPath, [path.join(root, "scripts", "setup.mjs")], { env: { ...env, NODE_ENV: "development" } });
  if (setup.status !== 0) throw new Error(`setup failed: ${setup.stderr}`);
  const child = spawn(process.execPath, [path.join(root, "server.mjs")], { env, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  const port = await new Promise((resolve, reject) => {
    child.stdout.on("data", (d) => {
      out += d;
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once("exit", (c) => reject(new Error(`server exited ${c}`)));
  });
  child.stdout.resume();
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function request(agent, base, i) {
  const [p, q = ""] = routePath.split("?");
  const params = signedProxyQuery({
    shop: process.env.DEMO_SHOP ?? LOCAL_DEFAULTS.shop,
    secret: process.env.SHOPIFY_API_SECRET ?? LOCAL_DEFAULTS.secret,
    extra: new URLSearchParams(q),
  });
  const payload = body?.replaceAll("{i}", String(i));
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const req = http.request(
      `${base}/proxy${p}?${params}`,
      { method, agent, headers: payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {} },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
      },
    );
    req.on("error", () => resolve({ status: 0, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
    if (payload) req.write(payload);
    req.end();
  });
}

async function run(base, count, offset) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const results = [];
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < count) {
        const i = next++;
        results.push(await request(agent, base, offset + i));
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  return { results, seconds };
}

const own = process.env.APP_URL ? null : await startOwnServer();
const base = process.env.APP_URL ?? own.url;
try {
  await run(base, warmup, 0);
  const { results, seconds } = await run(base, total, warmup);
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  const pct = (p) => ms[Math.min(ms.length - 1, Math.floor((p / 100) * ms.length))].toFixed(1);
  const statuses = {};
  for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  console.log(`${method} /proxy${routePath}: ${total} requests, ${connections} connections, ${os.cpus().length} cores`);
  console.log(`  throughput ${(total / seconds).toFixed(0)} req/s`);
  console.log(`  latency ms p50 ${pct(50)}  p95 ${pct(95)}  p99 ${pct(99)}  max ${ms[ms.length - 1].toFixed(1)}`);
  console.log(`  statuses ${JSON.stringify(statuses)}`);
} finally {
  await own?.stop();
}
