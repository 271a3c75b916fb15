#!/usr/bin/env node
// `npm run bench`: the storefront routes and the orders/create webhook under load, on SQLite and on
// PostgreSQL, next to two floor servers measured in the same run. Prints two tables; asserts nothing.
//
//   npm run bench [-- --engines sqlite,postgresql] [--duration 3] [--warmup 1] [--connections 16] [--rounds 3]
//                 [--no-build] [--profile DIR] [--only send-otp,config] [--no-risk]
//
// What it does, in one process:
//  - builds the app (`npm run build`, unless --no-build) and starts a zero-latency fake Shopify
//    (the tests' own tests/mocks/shopify, bundled with esbuild);
//  - per engine: a fresh database (a temp SQLite file, or a new PostgreSQL database on
//    BENCH_POSTGRES_URL, default postgresql://postgres@127.0.0.1:5432/postgres), migrated and holding
//    the local demo shop; the production server (NODE_ENV=production, local mode, outbox SMS) started
//    with scripts/lib/bench-probe.mjs, which counts database statements and sends Shopify calls to the
//    fake; the essential floor (scripts/bench-floor.mjs: node:http + the bare driver doing send-otp's
//    essential work) and the contract floor (scripts/bench-contract-floor.mjs: send-otp's and verify-otp's
//    own statements and the contract's other work, no framework), the probe loaded into it too;
//  - checks that one send-otp and one wrong and one right verify-otp run the same statements on the
//    contract floor as in the app (the probe's SQL log), then measures `--rounds` rounds: the essential
//    floor, then the app and the contract floor in turn (send-otp, then verify-otp on the codes it sent);
//  - drives each route with autocannon (16 connections; a fresh number per send-otp), and reads the
//    server's statements, CPU time, write system calls and resident memory around every run.
// Ratios: × floor is against the mean of the essential floor runs just before and after the route (same
// engine); × no-op is against signed GET /proxy/api/config (the app's signed route with no database work)
// in the same run; app ÷ contract is the median over the rounds of each round's ratio. `db/req` is
// statements executed per request (SQLite) or queries sent (PostgreSQL), background work the requests
// caused (tag jobs) included. --profile DIR writes one V8 CPU profile of the server per measured run.
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import autocannon from "autocannon";
import { LOCAL_DEFAULTS, signedProxyQuery } from "../app/server/app-proxy-signature.mjs";
import { freePort } from "./lib/free-port.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const option = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const engines = option("engines", "sqlite,postgresql").split(",").filter(Boolean);
const duration = Number(option("duration", 3));
const warmup = Number(option("warmup", 1));
const connections = Number(option("connections", 16));
const only = option("only", "")?.split(",").filter(Boolean);
const profileDir = option("profile", null);
const rounds = Number(option("rounds", 3));
const pgBase = process.env.BENCH_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const secret = LOCAL_DEFAULTS.secret;
const shopDomain = LOCAL_DEFAULTS.shop;
const OTP_HASH_SECRET = "bench-otp-hash-secret-0123456789abcdef0123";
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cod-bench-"));
const started = Date.now();
const say = (line) => process.stderr.write(`bench: ${line}\n`);

// ---------------------------------------------------------------------------------------------
// Set-up

function build() {
  say("building (npm run build)");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules", "@remix-run", "dev", "dist", "cli.js"), "build"], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) throw new Error(`build failed:\n${result.stdout}\n${result.stderr}`);
}

async function startFakeShopify() {
  const { build: esbuild } = await import("esbuild");
  const outfile = path.join(tmp, "fake-shopify.mjs");
  await esbuild({
    stdin: {
      contents: `export { FakeShopify } from "./tests/mocks/shopify/server";
                 export { installDefaultHandlers } from "./tests/mocks/shopify/handlers";
                 export { FakeEnforcementStore } from "./tests/mocks/shopify/enforcement";
                 export { installOnboardingHandlers } from "./tests/mocks/shopify/onboarding";`,
      resolveDir: root,
      loader: "ts",
    },
    bundle: true,
    platform: "node",
    format: "esm",
    outfile,
    logLevel: "silent",
  });
  const { FakeShopify, installDefaultHandlers, FakeEnforcementStore, installOnboardingHandlers } = await import(pathToFileURL(outfile).href);
  const fake = installDefaultHandlers(new FakeShopify(), { checkoutBase: `https://${shopDomain}/checkouts` });
  // The demo shop's session (scripts/setup.mjs) holds this token: the fake answers only tokens it issued.
  fake.issueToken(shopDomain, "shpat_local_demo_token");
  // What the install and the admin's first reads ask for (the checkout function's payment customization, the
  // live theme), so no background job keeps failing and retrying during the measured runs.
  new FakeEnforcementStore().install(fake);
  installOnboardingHandlers(fake);
  await fake.start();
  return fake;
}


// better-sqlite3 takes named parameters: $1 → @p1.
const named = (sql) => sql.replaceAll(/\$(\d+)/g, "@p$1");
const byName = (params) => Object.fromEntries(params.map((v, i) => [`p${i + 1}`, v]));

/** A direct connection for the bench's own set-up and checks (never the app's). */
async function directDb(url) {
  if (url.startsWith("file:")) {
    const Database = require("better-sqlite3");
    const db = new Database(url.slice("file:".length));
    db.pragma("busy_timeout = 5000");
    return {
      query: async (sql, params = []) => db.prepare(named(sql)).all(byName(params)),
      run: async (sql, params = []) => void db.prepare(named(sql)).run(byName(params)),
      close: async () => db.close(),
    };
  }
  const { Client } = require("pg");
  const client = new Client({ connectionString: url });
  await client.connect();
  return {
    query: async (sql, params = []) => (await client.query(sql, params)).rows,
    run: async (sql, params = []) => void (await client.query(sql, params)),
    close: () => client.end(),
  };
}

async function prepareDatabase(engine) {
  let url;
  let drop = async () => {};
  if (engine === "sqlite") {
    url = `file:${path.join(tmp, "bench.db")}`;
  } else {
    const name = `cod_bench_${process.pid}`;
    const admin = await directDb(pgBase);
    await admin.run(`DROP DATABASE IF EXISTS ${name}`);
    await admin.run(`CREATE DATABASE ${name}`);
    await admin.close();
    const u = new URL(pgBase);
    u.pathname = `/${name}`;
    url = u.href;
    drop = async () => {
      // BENCH_KEEP_DATABASE=1 keeps it, to EXPLAIN the statements the run logged (BENCH_SQL_LOG) against its rows.
      if (process.env.BENCH_KEEP_DATABASE) return;
      const again = await directDb(pgBase);
      await again.run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await again.close();
    };
  }
  const setup = spawnSync(process.execPath, [path.join(root, "scripts", "setup.mjs")], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: url, LOCAL_MODE: "true", NODE_ENV: "development", DEMO_SHOP: shopDomain },
  });
  if (setup.status !== 0) throw new Error(`setup failed: ${setup.stdout}${setup.stderr}`);
  const db = await directDb(url);
  // Load runs send far more codes than a shop's daily cap allows; the bench shop's cap is lifted.
  await db.run(`UPDATE "Shop" SET "dailySendCap" = 100000000 WHERE "domain" = $1`, [shopDomain]);
  const [{ id: shopId }] = await db.query(`SELECT "id" FROM "Shop" WHERE "domain" = $1`, [shopDomain]);
  // One pending address correction whose link token the status route is asked about.
  const token = crypto.randomBytes(24).toString("base64url");
  const tokenHash = crypto.createHmac("sha256", OTP_HASH_SECRET).update(`address-correction-token\0${token}`).digest("hex");
  const expires = Date.now() + 86_400_000;
  const dateValue = (ms) => (engine === "sqlite" ? ms : new Date(ms));
  await db.run(
    `INSERT INTO "AddressCorrection" ("id", "shopId", "orderGid", "orderName", "phone", "tokenHash", "status", "source", "before", "expiresAt", "createdAt", "updatedAt")
     VALUES ($1, $2, 'gid://shopify/Order/1001', '#1001', '+14155550100', $3, 'pending', 'api', '{}', $4, $5, $5)`,
    [`bench-${crypto.randomUUID()}`, shopId, tokenHash, dateValue(expires), dateValue(Date.now())],
  );
  return { url, db, shopId, correctionToken: token, drop };
}

async function waitForHttp(port, pathName, child, label) {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${label} exited with ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}${pathName}`);
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${label} did not answer on port ${port}`);
}

function tail(stream) {
  let text = "";
  stream?.on("data", (d) => {
    text = (text + d).slice(-4000);
  });
  return () => text;
}

/** The Node flags production starts the server with (`npm start` in package.json), so the bench runs it alike. */
function startFlags() {
  const start = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).scripts.start;
  return start.split(/\s+/).filter((word) => word.startsWith("--"));
}

async function startApp(db, fake) {
  const port = await freePort();
  const outbox = path.join(tmp, `outbox-${port}`);
  const args = [...startFlags(), "--import", pathToFileURL(path.join(root, "scripts", "lib", "bench-probe.mjs")).href];
  const child = spawn(process.execPath, [...args, path.join(root, "server.mjs")], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOCAL_MODE: "true",
      DATABASE_URL: db.url,
      SHOPIFY_API_KEY: "local-dev-api-key",
      SHOPIFY_API_SECRET: secret,
      SHOPIFY_APP_URL: "http://127.0.0.1",
      OTP_HASH_SECRET,
      SMS_PROVIDER: "outbox",
      OUTBOX_DIR: outbox,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      BENCH_SHOPIFY_ORIGIN: fake.origin,
    },
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  const errors = tail(child.stderr);
  await waitForHttp(port, "/proxy/api/auth/ping", child, "the app").catch((e) => {
    throw new Error(`${e.message}\n${errors()}`);
  });
  return { port, child, outbox: path.join(outbox, "outbox.jsonl"), stats: ipcStats(child), ipc: ipcAsk(child), errors, stop: () => stop(child) };
}

/** The essential-work floor (scripts/bench-floor.mjs): send-otp's signature, two statements, nothing else. */
async function startFloor(db) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, "scripts", "bench-floor.mjs")], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: db.url, SHOPIFY_API_SECRET: secret, OTP_HASH_SECRET, FLOOR_SHOP_ID: db.shopId, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const errors = tail(child.stderr);
  await waitForHttp(port, "/", child, "the floor server").catch((e) => {
    throw new Error(`${e.message}\n${errors()}`);
  });
  return { port, child, stop: () => stop(child) };
}

/**
 * The contract floor (scripts/bench-contract-floor.mjs): send-otp's and verify-otp's statements and the
 * contract's other work on node:http, with the probe loaded as in the app (its statements counted alike).
 */
async function startContractFloor(db) {
  const port = await freePort();
  const outbox = path.join(tmp, `contract-outbox-${port}.jsonl`);
  const child = spawn(process.execPath, ["--import", pathToFileURL(path.join(root, "scripts", "lib", "bench-probe.mjs")).href, path.join(root, "scripts", "bench-contract-floor.mjs")], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      SHOPIFY_API_SECRET: secret,
      OTP_HASH_SECRET,
      FLOOR_SHOP_DOMAIN: shopDomain,
      OUTBOX_FILE: outbox,
      PORT: String(port),
      // Its statement times beside the app's, not over them (both write when they exit).
      ...(process.env.BENCH_STATEMENT_TIMES ? { BENCH_STATEMENT_TIMES: `${process.env.BENCH_STATEMENT_TIMES}.contract-floor` } : {}),
    },
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  const errors = tail(child.stderr);
  await waitForHttp(port, "/", child, "the contract floor").catch((e) => {
    throw new Error(`${e.message}\n${errors()}`);
  });
  return { port, child, outbox, stats: ipcStats(child), ipc: ipcAsk(child), errors, stop: () => stop(child) };
}

/** Asks the probe in `child` something over IPC and waits for its answer. */
function ipcAsk(child) {
  return (message) =>
    new Promise((resolve) => {
      child.once("message", resolve);
      child.send(message);
    });
}

function ipcStats(child) {
  const ask = ipcAsk(child);
  return () => ask("stats");
}

function stop(child) {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", resolve);
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 15_000).unref();
  });
}

/**
 * A `/proc/.../stat` line's user and system CPU ticks (of 10 ms) and its command name. The fields are read
 * after the last ") ", since the name between parentheses may hold spaces and parentheses itself.
 */
function statOf(file) {
  const stat = fs.readFileSync(file, "utf8");
  const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
  return { name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), user: Number(fields[11]), system: Number(fields[12]) };
}

/** CPU time (user + system, every thread) the process has used, in ms. */
function cpuOf(pid) {
  try {
    const { user, system } = statOf(`/proc/${pid}/stat`);
    return (user + system) * 10;
  } catch {
    return null;
  }
}

/** The write system calls the process has made (sockets and files: /proc/<pid>/io `syscw`). */
function writesOf(pid) {
  try {
    return Number(/syscw:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/io`, "utf8"))[1]);
  } catch {
    return null;
  }
}

/**
 * The main thread's time on a core and its time waiting for one (ns, /proc/<pid>/schedstat): a stall of
 * the event loop while the thread was runnable but not running is the machine's, not the server's work.
 */
function schedOf(pid) {
  try {
    const [run, wait] = fs.readFileSync(`/proc/${pid}/schedstat`, "utf8").trim().split(" ").map(Number);
    return { run, wait, systemMs: statOf(`/proc/${pid}/task/${pid}/stat`).system * 10 };
  } catch {
    return null;
  }
}

/** CPU ticks of each PostgreSQL process on the machine (the server's backends and its own workers), by pid. */
function postgresTicks() {
  const ticks = new Map();
  for (const pid of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const { name, user, system } = statOf(`/proc/${pid}/stat`);
      if (name.startsWith("postgres")) ticks.set(pid, user + system);
    } catch {
      // the process ended between the listing and the read
    }
  }
  return ticks;
}

/** Who used the CPU: the server (every thread, ms), PostgreSQL's processes (ticks by pid), and this process (the load, ms). */
function cpuShares(pid) {
  const own = process.cpuUsage();
  return { server: cpuOf(pid), postgres: postgresTicks(), load: (own.user + own.system) / 1000 };
}

/** The CPU (ms) each took between two `cpuShares`; a PostgreSQL process that ended in between is left out. */
function cpuBetween(before, after) {
  let postgres = 0;
  for (const [pid, ticks] of after.postgres) postgres += ticks - (before.postgres.get(pid) ?? 0);
  return { server: after.server - before.server, postgres: postgres * 10, load: after.load - before.load };
}

function rssOf(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

// ---------------------------------------------------------------------------------------------
// Load

/** Signed app-proxy query strings, re-signed every second (Shopify signs each request; 90 s window). */
function signer(extra = []) {
  let at = 0;
  let query = "";
  return () => {
    const now = Math.floor(Date.now() / 1000);
    if (now !== at) {
      at = now;
      query = signedProxyQuery({ shop: shopDomain, secret, timestamp: now, extra }).toString();
    }
    return query;
  };
}

/**
 * Watches the server through one run: its statement count before and after, and its peak RSS
 * (sampled every 100 ms). `done(total)` stops watching and gives { peakRss, dbPerRequest }.
 */
async function watchServer(target, label) {
  const profileFile = profileDir && target.ipc && label ? path.join(profileDir, `${label}.cpuprofile`) : null;
  if (profileFile) await target.ipc({ profile: profileFile });
  const before = target.stats ? await target.stats() : null;
  const cpuBefore = cpuOf(target.child.pid);
  const writesBefore = writesOf(target.child.pid);
  const schedBefore = schedOf(target.child.pid);
  const sharesBefore = cpuShares(target.child.pid);
  let peak = rssOf(target.child.pid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(target.child.pid));
  }, 100);
  // The main thread's scheduling when the last answer came, before any settling: the burst's own.
  let schedBurst = null;
  let sharesBurst = null;
  const finish = async (total) => {
    clearInterval(sampler);
    peak = Math.max(peak, rssOf(target.child.pid));
    const after = target.stats ? await target.stats() : null;
    const cpu = cpuOf(target.child.pid);
    const writes = writesOf(target.child.pid);
    const schedEnd = schedBurst ?? schedOf(target.child.pid);
    if (profileFile) await target.ipc({ profile: null });
    return {
      peakRss: peak,
      dbPerRequest: before && after && total ? (after.statements - before.statements) / total : null,
      // The server's CPU per request (µs; /proc's 10 ms ticks over thousands of requests): what a request costs
      // whatever else the shared machine runs, where req/s also measures how much of the CPU the server got.
      cpuPerRequest: cpu !== null && cpuBefore !== null && total ? ((cpu - cpuBefore) * 1000) / total : null,
      writesPerRequest: writes !== null && writesBefore !== null && total ? (writes - writesBefore) / total : null,
      // The server's longest event-loop stall and garbage-collection pauses during the run (the probe's).
      stalls: after && "loopMaxMs" in after ? { loopMax: after.loopMaxMs, gcMax: after.gcMaxMs, gcTotal: after.gcTotalMs } : null,
      // While the answers came (before any settling): the CPU (ms) each of them took, per request.
      shares: sharesBurst && total ? Object.fromEntries(Object.entries(cpuBetween(sharesBefore, sharesBurst)).map(([k, v]) => [k, v / total])) : null,
      // How long the main thread ran (in the kernel, of that), and how long it was ready to run but waited for a core (ms).
      sched: schedEnd && schedBefore ? { runMs: (schedEnd.run - schedBefore.run) / 1e6, waitMs: (schedEnd.wait - schedBefore.wait) / 1e6, systemMs: schedEnd.systemMs - schedBefore.systemMs } : null,
    };
  };
  finish.answered = () => {
    schedBurst = schedOf(target.child.pid);
    sharesBurst = cpuShares(target.child.pid);
  };
  return finish;
}

/** Tallies an answer by status and error code, so a run that measured the wrong path shows it. */
function tally(answers, status, body) {
  const code = /"code":"([a-z_]+)"/.exec(body ?? "")?.[1];
  const key = code ? `${status} ${code}` : String(status);
  answers[key] = (answers[key] ?? 0) + 1;
}

/**
 * One autocannon run (closed loop). `next(i)` gives request i's { path, body?, headers? }. Returns
 * req/s, p50, p99, statuses, the process's peak RSS and its database statements during the run.
 */
async function load(target, { method = "GET", next, amount, seconds = duration, settle, answered, counter = { i: 0 }, label }) {
  const headers = method === "GET" ? {} : { "content-type": "application/json" };
  const answers = {};
  // req/s from the last answer's time: autocannon notices that a fixed amount is done only at its
  // next one-second tick, so its own duration rounds such a run up to whole seconds.
  let lastAnswer = 0;
  const requests = [
    {
      method,
      setupRequest(req) {
        const r = next(counter.i++);
        return { ...req, path: r.path, body: r.body, headers: { ...req.headers, ...headers, ...(r.headers ?? {}) } };
      },
      onResponse(status, body) {
        lastAnswer = performance.now();
        tally(answers, status, body);
      },
    },
  ];
  const done = await watchServer(target, label);
  const began = performance.now();
  const result = await autocannon({
    url: `http://127.0.0.1:${target.port}`,
    connections,
    requests,
    ...(amount ? { amount } : { duration: seconds }),
  });
  done.answered();
  // From the first request to the last answer (autocannon itself returns up to a second later).
  const wallAt = (t) => new Date(Date.now() - (performance.now() - t));
  const during = answered ? await answered(wallAt(began), wallAt(lastAnswer > began ? lastAnswer : performance.now())) : undefined;
  if (settle) await settle();
  const total = result.requests.total;
  const statuses = answers;
  if (result.errors) statuses.errors = result.errors;
  if (result.timeouts) statuses.timeouts = result.timeouts;
  return {
    rps: total / ((lastAnswer > began ? lastAnswer - began : result.duration * 1000) / 1000),
    p50: result.latency.p50,
    p99: result.latency.p99,
    total,
    statuses,
    during,
    ...(await done(total)),
  };
}

/** A warm-up run (not counted), then the measured run; both draw from one request counter. */
async function run(target, spec) {
  const counter = { i: 0 };
  if (warmup > 0 && !spec.amount) await load(target, { ...spec, counter, seconds: warmup, settle: undefined, label: undefined });
  return load(target, { ...spec, counter });
}

/**
 * A fixed arrival rate: request k is due at start + k / rate, whatever happened to the ones before it
 * (an open loop, as wrk2 drives a server), over at most `connections` keep-alive sockets. Latency is
 * counted from when the request was due, so a request that waited for a free socket, or for the
 * server to take it, counts that wait. autocannon's `overallRate` is not this: each connection sends
 * its share of the second back to back and then pauses until the next second, so "400 req/s" there
 * is the server saturated for the first part of each second and idle for the rest.
 */
async function paced(target, { method = "GET", rate, seconds = duration, next }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const total = Math.round(rate * seconds);
  const latencies = [];
  const answers = {};
  const done = await watchServer(target);
  const send = (i, due) =>
    new Promise((resolve) => {
      const r = next(i);
      const req = http.request(
        { host: "127.0.0.1", port: target.port, method, path: r.path, agent, headers: { ...(r.body ? { "content-type": "application/json" } : {}), ...(r.headers ?? {}) } },
        (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk) => (body += chunk));
          res.on("end", () => {
            latencies.push(performance.now() - due);
            tally(answers, res.statusCode, body);
            resolve();
          });
        },
      );
      req.on("error", () => {
        answers.errors = (answers.errors ?? 0) + 1;
        resolve();
      });
      req.end(r.body);
    });
  const start = performance.now();
  const inFlight = [];
  let sent = 0;
  await new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + (sent * 1000) / rate <= now) {
        inFlight.push(send(sent, start + (sent * 1000) / rate));
        sent++;
      }
      if (sent < total) setTimeout(tick, Math.max(0, start + (sent * 1000) / rate - performance.now()));
      else resolve();
    };
    tick();
  });
  await Promise.all(inFlight);
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pick = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return {
    rps: latencies.length / elapsed,
    p50: pick(0.5),
    p99: pick(0.99),
    total: latencies.length,
    statuses: answers,
    ...(await done(latencies.length)),
  };
}

function readCodes(file, prefix) {
  const pairs = [];
  if (!fs.existsSync(file)) return pairs;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (!line.includes(prefix)) continue;
    try {
      const { to, body } = JSON.parse(line);
      const code = /(?<!\d)\d{6}(?!\d)/.exec(body)?.[0];
      if (to.startsWith(prefix) && code) pairs.push({ phone: to, code });
    } catch {
      // a partial line: skip
    }
  }
  return pairs;
}

const wanted = (name) => !only?.length || only.includes(name);

/** A statement as compared between the app and the contract floor: whitespace aside, the same text. */
const normalSql = (text) => text.replace(/\s+/g, " ").replace(/\( /g, "(").replace(/ ([),])/g, "$1").trim();
// Background work and the caches' refreshes are not the request's: the job queue, sessions, the shop's row.
const backgroundSql = /"Job"|"Session"|FROM "Shop"|UPDATE "Shop"/;

/**
 * The statements one send-otp, one wrong and one right verify-otp run on `target`, in order (the probe's
 * SQL log): the contract floor must run the app's. `post(path, body)` answers [status, text].
 */
async function statementsOf(target, engine, phone) {
  const file = path.join(tmp, `sql-${target.port}.jsonl`);
  const post = async (route, body) => {
    const res = await fetch(`http://127.0.0.1:${target.port}${route}?${signedProxyQuery({ shop: shopDomain, secret }).toString()}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return `${res.status} ${/"code":"([a-z_]+)"/.exec(await res.text())?.[1] ?? ""}`.trim();
  };
  const steps = [];
  const logged = async (label, work) => {
    fs.rmSync(file, { force: true });
    await target.ipc({ sqlLog: file });
    const answer = await work();
    await new Promise((r) => setTimeout(r, 50));
    await target.ipc({ sqlLog: null });
    const lines = fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l)) : [];
    const sqls = lines.filter((l) => l.engine === (engine === "sqlite" ? "sqlite" : "postgresql") && !backgroundSql.test(l.sql)).map((l) => `${normalSql(l.sql)} [${l.values?.flat?.().length ?? 0} values]`);
    steps.push({ label, answer, sqls });
  };
  await logged("send-otp", () => post("/proxy/send-otp", { phone }));
  const [pair] = readCodes(target.outbox, phone);
  if (!pair) return { steps, error: `no code for ${phone} in ${target.outbox}` };
  const wrong = String((Number(pair.code) + 1) % 1_000_000).padStart(6, "0");
  await logged("verify-otp (wrong code)", () => post("/proxy/verify-otp", { phone, otp: wrong }));
  await logged("verify-otp (right code)", () => post("/proxy/verify-otp", { phone, otp: pair.code, selectedMode: "cod" }));
  return { steps };
}

/** "same" when both ran the same statements for every step, else what differs first. */
function compareStatements(app, floor) {
  if (app.error || floor.error) return `not compared: ${app.error ?? floor.error}`;
  for (let i = 0; i < app.steps.length; i++) {
    const [a, f] = [app.steps[i], floor.steps[i]];
    if (a.answer !== f.answer) return `${a.label}: the app answered ${a.answer}, the floor ${f.answer}`;
    for (let j = 0; j < Math.max(a.sqls.length, f.sqls.length); j++) {
      const [x, y] = [a.sqls[j] ?? "(none)", f.sqls[j] ?? "(none)"];
      if (x === y) continue;
      let at = 0;
      while (x[at] === y[at]) at++;
      const from = Math.max(0, at - 60);
      return `${a.label}, statement ${j + 1}, from character ${from}: app …${x.slice(from, at + 100)} | floor …${y.slice(from, at + 100)}`;
    }
  }
  return `same (${app.steps.map((s) => `${s.label} ${s.sqls.length}`).join(", ")})`;
}

const median = (values) => {
  const sorted = values.filter((v) => v !== null && v !== undefined && !Number.isNaN(v)).sort((a, b) => a - b);
  if (!sorted.length) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function benchEngine(engine, fake) {
  say(`${engine}: preparing the database`);
  const db = await prepareDatabase(engine);
  const app = await startApp(db, fake);
  const floor = await startFloor(db);
  const contract = await startContractFloor(db);
  const rows = [];
  const floors = [];
  // The OTP routes, per round: the app and the contract floor, each send-otp then verify-otp on its codes.
  const otpRounds = [];
  const runTag = String(200 + Math.floor(Math.random() * 700));
  // Numbers that exist in the US plan (send-otp refuses impossible ones): one area code per group, then
  // the exchange and line from the request's index, so every request of a run has its own number.
  // Groups in a run: 18 with the default 3 rounds, 3 more a round: 35 codes cover 8 rounds without a number sent twice.
  const areaCodes = [212, 213, 312, 415, 646, 718, 305, 404, 617, 702, 206, 303, 510, 773, 214, 713, 602, 619, 720, 801,
    347, 917, 332, 929, 628, 424, 818, 858, 971, 503, 612, 615, 704, 919, 512];
  const phone = (group, i) => {
    const exchange = 200 + ((Number(runTag) + Math.floor(i / 10_000)) % 800);
    return `+1${areaCodes[group % areaCodes.length]}${exchange}${String(i % 10_000).padStart(4, "0")}`;
  };
  const groupPrefix = (group) => `+1${areaCodes[group % areaCodes.length]}`;
  const signed = signer();
  let phoneGroup = 0;

  const measureFloor = async () => {
    const group = phoneGroup++;
    const r = await run(floor, {
      method: "POST",
      next: (i) => ({ path: `/proxy/send-otp?${signed()}`, body: JSON.stringify({ phone: phone(group, i) }) }),
    });
    floors.push({ index: rows.length, ...r });
    say(`${engine}: floor ${r.rps.toFixed(0)} req/s`);
  };
  const add = (name, r) => {
    rows.push({ engine, name, ...r });
    const stalled = r.stalls ? `; the server's loop held up to ${r.stalls.loopMax.toFixed(0)} ms, GC pauses up to ${r.stalls.gcMax.toFixed(0)} ms (${r.stalls.gcTotal.toFixed(0)} ms in all)` : "";
    const shares = r.shares ? `; CPU ms per request while answering: server ${r.shares.server.toFixed(2)}, PostgreSQL ${r.shares.postgres.toFixed(2)}, load ${r.shares.load.toFixed(2)}` : "";
    const waited = r.sched ? `; its main thread ran ${r.sched.runMs.toFixed(0)} ms (${r.sched.systemMs.toFixed(0)} in the kernel) and waited for a core ${r.sched.waitMs.toFixed(0)} ms` : "";
    say(`${engine}: ${name} ${r.rps.toFixed(0)} req/s p50 ${r.p50} ms p99 ${r.p99} ms ${JSON.stringify(r.statuses)}${stalled}${waited}${shares}`);
  };
  // Each send run starts the month afresh: otherwise the verifications of the runs before would use up the
  // plan's allowance and later runs would measure its refusal instead.
  const freshMonth = () => db.db.run(`DELETE FROM "DailyStat" WHERE "shopId" = $1 AND "metric" = 'otp_verified'`, [db.shopId]);

  /**
   * send-otp on `target` (fresh numbers), then verify-otp with half its codes right and four wrong guesses at
   * the other half. Round -1 is the warm-up round: unmeasured, unprofiled, its figures dropped.
   */
  const otpRuns = async (target, round) => {
    const label = (what) => (round < 0 ? undefined : `${engine}-round${round + 1}-${target === app ? "app" : "contract"}-${what}`);
    const group = phoneGroup++;
    const prefix = groupPrefix(group);
    await freshMonth();
    const send = await run(target, {
      method: "POST",
      label: label("send-otp"),
      next: (i) => ({ path: `/proxy/send-otp?${signed()}`, body: JSON.stringify({ phone: phone(group, i) }) }),
    });
    const pairs = readCodes(target.outbox, prefix);
    const right = pairs.filter((_, i) => i % 2 === 0);
    const wrong = pairs.filter((_, i) => i % 2 === 1);
    const verifyRight = right.length
      ? await load(target, {
          method: "POST",
          label: label("verify-otp-right"),
          amount: right.length,
          next: (i) => {
            const p = right[i % right.length];
            return { path: `/proxy/verify-otp?${signed()}`, body: JSON.stringify({ phone: p.phone, otp: p.code, selectedMode: "cod" }) };
          },
        })
      : null;
    // Four wrong guesses per code (the fifth would use up its last attempt): every answer is invalid_code.
    const verifyWrong = wrong.length
      ? await load(target, {
          method: "POST",
          label: label("verify-otp-wrong"),
          amount: wrong.length * 4,
          next: (i) => {
            const p = wrong[i % wrong.length];
            const otp = String((Number(p.code) + 1) % 1_000_000).padStart(6, "0");
            return { path: `/proxy/verify-otp?${signed()}`, body: JSON.stringify({ phone: p.phone, otp }) };
          },
        })
      : null;
    return { group, prefix, send, verifyRight, verifyWrong };
  };

  // PostgreSQL's autovacuum clears the dead rows every run leaves behind (each send-otp and verify-otp updates
  // counters and codes) and refreshes the planner's statistics. Where the server runs with it off (`SHOW
  // autovacuum`), the bench does that work itself between runs, outside any measurement: otherwise each run
  // measures the dead rows of the runs before it (orders/create after three OTP rounds: half the req/s, twice
  // the p99), which no deployment with autovacuum keeps.
  const autovacuumOff = engine === "postgresql" && (await db.db.query("SHOW autovacuum"))[0]?.autovacuum === "off";
  if (autovacuumOff) say(`${engine}: this server runs with autovacuum off: the bench runs VACUUM (ANALYZE) between runs instead`);
  const vacuum = async () => {
    if (autovacuumOff) await db.db.run("VACUUM (ANALYZE)");
  };
  try {
    await measureFloor();
    if (wanted("ping")) add("GET /proxy/api/auth/ping (unsigned)", await run(app, { next: () => ({ path: "/proxy/api/auth/ping" }) }));
    if (wanted("config")) add("GET /proxy/api/config (signed no-op)", await run(app, { next: () => ({ path: `/proxy/api/config?${signed()}` }) }));

    // The contract floor runs the app's statements: one request of each kind on both, compared (caches warmed first).
    let statementCheck = "not run";
    let sendPrefix = null;
    let sendGroup = null;
    if (wanted("send-otp") || wanted("verify-otp")) {
      const checkGroup = phoneGroup++;
      for (const target of [app, contract]) await statementsOf(target, engine, phone(checkGroup, target === app ? 9_000 : 9_001));
      statementCheck = compareStatements(
        await statementsOf(app, engine, phone(checkGroup, 9_002)),
        await statementsOf(contract, engine, phone(checkGroup, 9_003)),
      );
      say(`${engine}: the contract floor's statements against the app's: ${statementCheck}`);

      // A warm-up round first, on both: the verify-otp runs are a fixed amount with no warm-up run of their own, so
      // without it the first round measured the app's verify-otp while V8 was still compiling it (about a quarter
      // fewer req/s than the rounds after it; zod's parse ten times dearer) and the floor's, with less code to
      // compile, nearer its steady state.
      if (warmup > 0) for (const target of [app, contract]) await otpRuns(target, -1);

      // Rounds: the essential floor, then the app and the contract floor in turn (which goes first alternates).
      for (let round = 0; round < rounds; round++) {
        await vacuum();
        await measureFloor();
        const order = round % 2 ? [contract, app] : [app, contract];
        const result = {};
        for (const target of order) {
          const r = await otpRuns(target, round);
          result[target === app ? "app" : "contract"] = r;
          say(
            `${engine}: round ${round + 1} ${target === app ? "app" : "contract floor"}: send-otp ${r.send.rps.toFixed(0)} req/s, verify-otp right ${r.verifyRight?.rps.toFixed(0)}, wrong ${r.verifyWrong?.rps.toFixed(0)} ${JSON.stringify([r.send.statuses, r.verifyRight?.statuses, r.verifyWrong?.statuses])}`,
          );
        }
        otpRounds.push(result);
      }
      ({ prefix: sendPrefix, group: sendGroup } = otpRounds[0].app);
      // The main table's OTP rows: the app's runs, the round whose send-otp req/s is the median.
      const pick = (key) => {
        const byRps = otpRounds.map((r) => r.app[key]).filter(Boolean).sort((a, b) => a.rps - b.rps);
        return byRps[Math.floor((byRps.length - 1) / 2)];
      };
      if (wanted("send-otp") || wanted("verify-otp")) add(`POST /proxy/send-otp (median of ${rounds})`, pick("send"));
      if (wanted("verify-otp")) {
        if (pick("verifyRight")) add(`POST /proxy/verify-otp (right code, median of ${rounds})`, pick("verifyRight"));
        if (pick("verifyWrong")) add(`POST /proxy/verify-otp (wrong code, median of ${rounds})`, pick("verifyWrong"));
      }
    }
    if (wanted("send-otp")) {
      const group = phoneGroup++;
      await freshMonth();
      await vacuum();
      // One count across the warm-up and the measured run: every request has a number of its own.
      let sends = 0;
      const next = () => ({ path: `/proxy/send-otp?${signed()}`, body: JSON.stringify({ phone: phone(group, sends++) }) });
      if (warmup > 0) await paced(app, { method: "POST", rate: 400, seconds: warmup, next });
      add("POST /proxy/send-otp at 400 req/s (paced)", await paced(app, { method: "POST", rate: 400, next }));
    }
    await measureFloor();

    if (wanted("create-checkout")) {
      const group = sendGroup ?? phoneGroup++;
      add(
        "POST /proxy/create-checkout (prepaid, fake Shopify)",
        await run(app, {
          method: "POST",
          next: (i) => ({
            path: `/proxy/create-checkout?${signed()}`,
            body: JSON.stringify({ phone: phone(group, i % 1000), selectedMode: "prepaid", variantId: String(1000 + (i % 50)), quantity: 1 }),
          }),
          settle: async () => fake.reset(),
        }),
      );
    }
    if (wanted("address-correction")) {
      const signedStatus = signer([["token", db.correctionToken]]);
      add(
        "GET /proxy/api/address-correction.status",
        await run(app, { next: () => ({ path: `/proxy/api/address-correction.status?${signedStatus()}` }) }),
      );
    }
    if (wanted("orders-create")) {
      const deliveries = 1000;
      const prefix = `bench-${runTag}-`;
      const codes = sendPrefix ? readCodes(app.outbox, sendPrefix) : [];
      const verified = codes.filter((_, i) => i % 2 === 0);
      // The warm-up's deliveries (as every other row has one) use the numbers the measured run does not.
      const spare = codes.filter((_, i) => i % 2 === 1);
      const unverifiedGroup = phoneGroup++;
      const delivery = (i, numbers, id, webhookId) => {
        const body = JSON.stringify({
          id,
          admin_graphql_api_id: `gid://shopify/Order/${runTag}${String(id).padStart(7, "0")}`,
          name: `#B${id}`,
          phone: numbers.length ? numbers[i % numbers.length].phone : phone(unverifiedGroup, i),
          payment_gateway_names: ["Cash on Delivery (COD)"],
          note_attributes: [],
          created_at: new Date().toISOString(),
        });
        return {
          path: "/webhooks/orders/create",
          body,
          headers: {
            "x-shopify-hmac-sha256": crypto.createHmac("sha256", secret).update(body).digest("base64"),
            "x-shopify-topic": "orders/create",
            "x-shopify-shop-domain": shopDomain,
            "x-shopify-api-version": "2026-10",
            "x-shopify-webhook-id": webhookId,
          },
        };
      };
      // The deliveries' background work (every job due now: tags, risk, Flow, the confirmation's text) belongs
      // to them, its statements to their db/req: wait until it is done (at most two minutes; the note says
      // how many were still due). A job due later (the confirmation's deadline, a day away) is not waited for.
      const stillDue = async () => {
        const now = engine === "sqlite" ? Date.now() : new Date();
        const [{ n }] = await db.db.query(`SELECT COUNT(*) AS n FROM "Job" WHERE "doneAt" IS NULL AND "failedAt" IS NULL AND "nextAttemptAt" <= $1 AND "shop" <> '*'`, [now]);
        return Number(n);
      };
      const settle = async () => {
        for (let t = 0; t < 600 && (await stillDue()) > 0; t++) await new Promise((res) => setTimeout(res, 200));
      };
      if (warmup > 0) {
        await load(app, { method: "POST", amount: 200, next: (i) => delivery(i, spare, 6_000_000 + i, `warmup-${runTag}-${i}`), settle });
      }
      // After the warm-up: its 200 orders are the first rows of the tables orders/create fills, which
      // autovacuum would analyze (more than 50 rows changed) before a burst of 1,000.
      await vacuum();
      // An ANALYZE invalidates the cached plans of every statement that reads the tables it analyzed, so each of
      // the pool's connections plans orders/create's two statements anew on its next delivery (the read reads eight
      // tables: 1.5-3.4 ms of planning on an idle server, each connection once). Autovacuum analyzes at a time of
      // its own, not just before a burst: a few more deliveries let the pool replan before the measured run.
      if (autovacuumOff && warmup > 0) {
        await load(app, { method: "POST", amount: 4 * connections, next: (i) => delivery(i, spare, 6_500_000 + i, `replan-${runTag}-${i}`), settle });
      }
      const jobCount = async (done) =>
        Number((await db.db.query(`SELECT COUNT(*) AS n FROM "Job" WHERE kind = 'order-tags'${done ? ` AND "doneAt" IS NOT NULL` : ""}`))[0].n);
      const [queuedBefore, doneBefore] = [await jobCount(false), await jobCount(true)];
      // The background jobs that ran while the deliveries were being answered (the worker gives way to requests).
      const at = (date) => (engine === "sqlite" ? date.getTime() : date);
      const answered = async (since, until) =>
        Number((await db.db.query(`SELECT COUNT(*) AS n FROM "Job" WHERE "doneAt" >= $1 AND "doneAt" <= $2`, [at(since), at(until)]))[0].n);
      const r = await load(app, { method: "POST", label: `${engine}-orders-create`, amount: deliveries, next: (i) => delivery(i, verified, 5_000_000 + i, `${prefix}${i}`), settle, answered });
      // A delivery is recorded under its topic, its event id (the webhook id here) and its body's digest.
      const [{ n: recorded }] = await db.db.query(`SELECT COUNT(*) AS n FROM "WebhookDelivery" WHERE "id" LIKE $1`, [`%:${prefix}%`]);
      const queued = (await jobCount(false)) - queuedBefore;
      const tagged = (await jobCount(true)) - doneBefore;
      const left = await stillDue();
      r.note = `${deliveries} sent, ${recorded} recorded, ${deliveries - Number(recorded)} lost; ${queued} tag jobs, ${tagged} done${left ? `, ${left} jobs still due` : ""}; ${r.during} jobs of any kind done while the deliveries were answered`;
      add("POST /webhooks/orders/create (1,000 deliveries)", r);
      fake.reset();
    }
    await measureFloor();
    const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${app.child.pid}/status`, "utf8"));
    return { rows, floors, otpRounds, statementCheck, peakRss: hwm ? Number(hwm[1]) * 1024 : null, errors: app.errors(), contractErrors: contract.errors() };
  } finally {
    await app.stop();
    await floor.stop();
    await contract.stop();
    await db.db.close();
    await db.drop();
    fs.rmSync(path.join(tmp, "bench.db"), { force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Report

function floorFor(floors, index) {
  // The floor runs measured just before and just after this row (rows are numbered in run order).
  const before = [...floors].reverse().find((f) => f.index <= index);
  const after = floors.find((f) => f.index > index);
  const near = [before, after].filter(Boolean);
  return near.reduce((s, f) => s + f.rps, 0) / near.length;
}

function table(results) {
  const head = ["engine", "route", "req/s", "p50 ms", "p99 ms", "peak RSS MB", "db/req", "× floor", "× no-op", "answers"];
  const lines = [head];
  for (const { engine, rows, floors } of results) {
    const floorMean = floors.reduce((s, f) => s + f.rps, 0) / floors.length;
    const floorP50 = floors.map((f) => f.p50).sort((a, b) => a - b)[Math.floor(floors.length / 2)];
    const floorP99 = floors.map((f) => f.p99).sort((a, b) => a - b)[Math.floor(floors.length / 2)];
    const floorRss = Math.max(...floors.map((f) => f.peakRss));
    lines.push([engine, `floor: send-otp's essential work (${floors.length} runs)`, floorMean.toFixed(0), floorP50, floorP99, (floorRss / 2 ** 20).toFixed(0), "2", "1.00", "", floors.map((f) => f.rps.toFixed(0)).join(" / ")]);
    const noop = rows.find((r) => r.name.includes("signed no-op"))?.rps;
    rows.forEach((r, index) => {
      const fixedRate = r.name.includes("at 400");
      lines.push([
        engine,
        r.name,
        r.rps.toFixed(0),
        r.p50,
        r.p99,
        (r.peakRss / 2 ** 20).toFixed(0),
        r.dbPerRequest === null ? "" : r.dbPerRequest.toFixed(2),
        fixedRate ? "" : (r.rps / floorFor(floors, index)).toFixed(3),
        fixedRate || !noop ? "" : (r.rps / noop).toFixed(2),
        r.note ?? Object.entries(r.statuses).map(([k, v]) => `${k}:${v}`).join(" "),
      ]);
    });
  }
  const widths = head.map((_, c) => Math.max(...lines.map((l) => String(l[c]).length)));
  const fmt = (l) => `| ${l.map((v, c) => String(v).padEnd(widths[c])).join(" | ")} |`;
  return [fmt(lines[0]), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...lines.slice(1).map(fmt)].join("\n");
}

/**
 * The app against both floors on the OTP routes: per route, the medians over the rounds of the app's and
 * the contract floor's req/s, and the median of each round's ratio (app ÷ contract floor, measured minutes
 * apart at most); the framework's share of a request is 1 − that ratio. send-otp is also set against the
 * essential floor (its runs during the rounds).
 */
function floorsTable(results) {
  const head = ["engine", "route", "app req/s", "contract floor req/s", "app ÷ contract", "framework's share", "CPU µs/req app / floor", "floor ÷ app CPU", "app p50/p99 ms", "floor p50/p99 ms", "db/req app / floor", "writes/req app / floor", "essential floor req/s", "app ÷ essential"];
  const lines = [head];
  const fixed = (v, digits) => (v === null ? "" : v.toFixed(digits));
  for (const { engine, otpRounds, floors } of results) {
    if (!otpRounds?.length) continue;
    // The essential floor's runs: one at the start of each round.
    const essential = median(floors.slice(1, 1 + otpRounds.length).map((f) => f.rps));
    for (const [key, name] of [["send", "POST /proxy/send-otp"], ["verifyRight", "POST /proxy/verify-otp (right code)"], ["verifyWrong", "POST /proxy/verify-otp (wrong code)"]]) {
      const pairs = otpRounds.map((r) => [r.app[key], r.contract[key]]).filter(([a, c]) => a && c);
      if (!pairs.length) continue;
      const m = (pick) => median(pairs.map(pick));
      const ratio = m(([a, c]) => a.rps / c.rps);
      lines.push([
        engine,
        `${name} (${pairs.length} rounds)`,
        fixed(m(([a]) => a.rps), 0),
        fixed(m(([, c]) => c.rps), 0),
        fixed(ratio, 3),
        ratio === null ? "" : `${Math.round((1 - ratio) * 100)} %`,
        `${fixed(m(([a]) => a.cpuPerRequest), 0)} / ${fixed(m(([, c]) => c.cpuPerRequest), 0)}`,
        fixed(m(([a, c]) => (a.cpuPerRequest && c.cpuPerRequest ? c.cpuPerRequest / a.cpuPerRequest : null)), 3),
        `${m(([a]) => a.p50)} / ${m(([a]) => a.p99)}`,
        `${m(([, c]) => c.p50)} / ${m(([, c]) => c.p99)}`,
        `${fixed(m(([a]) => a.dbPerRequest), 2)} / ${fixed(m(([, c]) => c.dbPerRequest), 2)}`,
        `${fixed(m(([a]) => a.writesPerRequest), 1)} / ${fixed(m(([, c]) => c.writesPerRequest), 1)}`,
        key === "send" ? fixed(essential, 0) : "",
        key === "send" && essential ? fixed(m(([a]) => a.rps) / essential, 3) : "",
      ]);
    }
    lines.push([engine, "per round (send / right / wrong)", ...head.slice(2).map(() => "")]);
    lines[lines.length - 1][4] = otpRounds
      .map((r) => ["send", "verifyRight", "verifyWrong"].map((k) => (r.app[k] && r.contract[k] ? (r.app[k].rps / r.contract[k].rps).toFixed(2) : "-")).join(" / "))
      .join(", ");
    lines[lines.length - 1][7] = otpRounds
      .map((r) =>
        ["send", "verifyRight", "verifyWrong"]
          .map((k) => (r.app[k]?.cpuPerRequest && r.contract[k]?.cpuPerRequest ? (r.contract[k].cpuPerRequest / r.app[k].cpuPerRequest).toFixed(2) : "-"))
          .join(" / "),
      )
      .join(", ");
  }
  const widths = head.map((_, c) => Math.max(...lines.map((l) => String(l[c]).length)));
  const fmt = (l) => `| ${l.map((v, c) => String(v).padEnd(widths[c])).join(" | ")} |`;
  return [fmt(lines[0]), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...lines.slice(1).map(fmt)].join("\n");
}

// ---------------------------------------------------------------------------------------------

const results = [];
let fake;
try {
  if (!flag("no-build")) build();
  if (profileDir) fs.mkdirSync(profileDir, { recursive: true });
  fake = await startFakeShopify();
  for (const engine of engines) {
    try {
      results.push({ engine, ...(await benchEngine(engine, fake)) });
    } catch (error) {
      say(`${engine}: not measured: ${error?.message ?? error}`);
    }
  }
} finally {
  await fake?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
}

console.log(
  `\n${connections} connections, ${duration} s per run after ${warmup} s of warm-up, ${os.cpus().length} cores, Node ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}, ${((Date.now() - started) / 1000).toFixed(0)} s in all\n`,
);
console.log(table(results));
if (results.some((r) => r.otpRounds?.length)) {
  console.log("\nThe OTP routes against the contract floor (scripts/bench-contract-floor.mjs: the same statements, no framework):\n");
  console.log(floorsTable(results));
  for (const r of results) console.log(`${r.engine}: the contract floor's statements against the app's: ${r.statementCheck}`);
}
for (const r of results) {
  console.log(`${r.engine}: the app's peak RSS over the whole run ${r.peakRss ? (r.peakRss / 2 ** 20).toFixed(0) : "?"} MB`);
  if (r.errors.trim()) console.log(`${r.engine}: the app wrote to stderr:\n${r.errors.trim().split("\n").slice(-5).join("\n")}`);
  if (r.contractErrors?.trim()) console.log(`${r.engine}: the contract floor wrote to stderr:\n${r.contractErrors.trim().split("\n").slice(-5).join("\n")}`);
}

// The risk score's own cost per call (scripts/bench-risk.ts: the budget is 2 ms at p99 for send-otp
// and create-checkout on SQLite), measured in-process on a seeded history. --no-risk skips it.
if (!flag("no-risk") && (!only?.length || only.includes("risk"))) {
  const risk = spawnSync(process.execPath, [path.join(root, "node_modules", "vite-node", "vite-node.mjs"), "--config", "vitest.config.ts", "scripts/bench-risk.ts"], {
    cwd: root,
    encoding: "utf8",
  });
  console.log(`\n${risk.status === 0 ? risk.stdout.trim() : `risk scoring: not measured (${risk.stderr.trim().split("\n").slice(-3).join(" ")})`}`);
}
