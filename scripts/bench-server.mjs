#!/usr/bin/env node
// `npm run bench:server`: the claim of docs/decisions/0001-node-http-server.md, reproduced. The same
// build is served by this app's server (server.mjs: node:http) and by Remix's own `remix-serve`
// (express + compression + morgan), each on the same SQLite database in local mode, and autocannon
// drives the same requests at both, alternating. Prints req/s and latency per server and the ratio
// remix-serve / server.mjs. Asserts nothing.
//
//   npm run bench:server [-- --duration 5] [--connections 16] [--rounds 2] [--no-build]
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { signedProxyQuery } from "../app/server/app-proxy-signature.mjs";
import { freePort } from "./lib/free-port.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "5" },
    connections: { type: "string", default: "16" },
    rounds: { type: "string", default: "2" },
    "no-build": { type: "boolean", default: false },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const rounds = Number(values.rounds);
const SECRET = "local-dev-api-secret";

if (!values["no-build"] || !fs.existsSync(path.join(root, "build", "index.js"))) {
  console.log("building (npm run build)");
  const built = spawnSync(process.execPath, [path.join(root, "node_modules", "@remix-run", "dev", "dist", "cli.js"), "build"], {
    cwd: root,
    stdio: "ignore",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (built.status !== 0) throw new Error("build failed");
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-server-"));
const env = {
  ...process.env,
  NODE_ENV: "production",
  HOST: "127.0.0.1",
  DATABASE_URL: `file:${path.join(tmp, "app.db")}`,
  LOCAL_MODE: "true",
  SHOPIFY_API_KEY: "local-dev-api-key",
  SHOPIFY_API_SECRET: SECRET,
  SHOPIFY_APP_URL: "http://127.0.0.1",
  OTP_HASH_SECRET: "bench-server-otp-hash-secret-0123456789abcdef",
  SMS_PROVIDER: "outbox",
  OUTBOX_DIR: tmp,
  LOG_LEVEL: "error",
};
const setup = spawnSync(process.execPath, [path.join(root, "scripts", "setup.mjs")], { env: { ...env, NODE_ENV: "development" }, stdio: "ignore" });
if (setup.status !== 0) throw new Error("setup failed");


async function start(name, args) {
  const port = await freePort();
  const child = spawn(process.execPath, args, { cwd: root, env: { ...env, PORT: String(port) }, stdio: ["ignore", "ignore", "inherit"] });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/proxy/api/auth/ping`)).ok) return { name, port, child };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`${name} did not start`);
}

const servers = [
  await start("server.mjs (node:http)", [path.join(root, "server.mjs")]),
  await start("remix-serve (express)", [path.join(root, "node_modules", "@remix-run", "serve", "dist", "cli.js"), path.join(root, "build", "index.js")]),
];

const routes = [
  { name: "GET /proxy/api/config (signed)", path: () => `/proxy/api/config?${signedProxyQuery({ secret: SECRET })}` },
  { name: "GET /proxy/api/auth/ping", path: () => "/proxy/api/auth/ping" },
];

async function run(server, route) {
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}`,
    connections,
    duration,
    requests: [{ method: "GET", setupRequest: (req) => ({ ...req, path: route.path() }) }],
  });
  return { rps: result.requests.total / result.duration, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
}

const rows = [];
try {
  for (const route of routes) {
    const totals = new Map(servers.map((s) => [s.name, []]));
    for (let r = 0; r < rounds; r++) {
      for (const server of r % 2 ? [...servers].reverse() : servers) totals.get(server.name).push(await run(server, route));
    }
    const mean = (list, key) => list.reduce((s, x) => s + x[key], 0) / list.length;
    const [ours, theirs] = servers.map((s) => totals.get(s.name));
    for (const [server, list] of [[servers[0], ours], [servers[1], theirs]]) {
      rows.push({
        route: route.name,
        server: server.name,
        "req/s": Math.round(mean(list, "rps")),
        "p50 ms": Math.round(mean(list, "p50") * 10) / 10,
        "p99 ms": Math.round(mean(list, "p99") * 10) / 10,
        "non-2xx": list.reduce((s, x) => s + x.non2xx, 0),
        "× server.mjs": Math.round((mean(list, "rps") / mean(ours, "rps")) * 100) / 100,
      });
    }
  }
} finally {
  for (const s of servers) s.child.kill("SIGTERM");
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(`${connections} connections, ${duration} s per run, ${rounds} runs per server and route, alternating; ${os.cpus().length} CPUs (shared machines: compare the ratio, not the figures)`);
console.table(rows);
