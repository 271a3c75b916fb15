// Loaded by `npm run bench` in front of the production server (node --import this server.mjs) and of the
// contract floor; never part of the app. It does what the benchmark needs and production does not:
//  1. Counts database round trips: every statement better-sqlite3 executes (run/get/all/iterate,
//     exec) and every query a pg client sends (a transaction's BEGIN and COMMIT included). The
//     benchmark reads the count over the IPC channel before and after each route's run.
//  2. With BENCH_SHOPIFY_ORIGIN set, sends Shopify Admin/Storefront API calls to that origin (the
//     benchmark's own zero-latency fake Shopify), as the app's tests and local mode do through
//     redirectShopifyApi; the Shopify library captures global fetch when it loads, after this.
//  3. On the benchmark's word (IPC): logs every statement's SQL, or takes a CPU profile of one run (below).
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(path.join(root, "package.json"));
let statements = 0;
// BENCH_STATEMENT_TIMES=<file>: also times each SQLite statement by its SQL and writes the totals
// there when the server exits (where a route's database time goes).
const timesFile = process.env.BENCH_STATEMENT_TIMES;
const statementTimes = new Map();
if (timesFile) {
  process.on("exit", () => {
    const rows = [...statementTimes].sort((a, b) => Number(b[1].ns - a[1].ns));
    const lines = rows.map(([sql, { n, ns }]) => `${(Number(ns) / 1e6).toFixed(1)} ms\t${n}\t${(Number(ns) / 1e3 / n).toFixed(1)} µs\t${sql.replace(/\s+/g, " ").slice(0, 300)}`);
    require("node:fs").writeFileSync(timesFile, `total ms\tcalls\tper call\tSQL\n${lines.join("\n")}\n`);
  });
}

// BENCH_SQL_LOG=<file>, or the message { sqlLog: <file> | null } from the benchmark: also appends every
// statement's SQL and values there as JSON lines (which statements a request runs: the bench holds its
// contract floor, scripts/bench-contract-floor.mjs, to the app's statements with it).
let sqlLog = process.env.BENCH_SQL_LOG ?? null;
const fs = require("node:fs");
const logStatement = (engine, text, values) => {
  if (!sqlLog) return;
  fs.appendFileSync(sqlLog, `${JSON.stringify({ engine, sql: text, values }, (_, v) => (typeof v === "bigint" ? `${v}n` : v))}\n`);
};

try {
  const Database = require("better-sqlite3");
  const db = new Database(":memory:");
  const Statement = Object.getPrototypeOf(db.prepare("SELECT 1"));
  db.close();
  for (const method of ["run", "get", "all", "iterate"]) {
    const original = Statement[method];
    Statement[method] = timesFile
      ? function timed(...args) {
          statements++;
          const t = process.hrtime.bigint();
          try {
            return original.apply(this, args);
          } finally {
            const entry = statementTimes.get(this.source) ?? { n: 0, ns: 0n };
            entry.n++;
            entry.ns += process.hrtime.bigint() - t;
            statementTimes.set(this.source, entry);
          }
        }
      : function counted(...args) {
          statements++;
          if (sqlLog) logStatement("sqlite", this.source, args);
          return original.apply(this, args);
        };
  }
  const exec = Database.prototype.exec;
  Database.prototype.exec = function counted(...args) {
    statements++;
    if (sqlLog) logStatement("sqlite", String(args[0]), []);
    return exec.apply(this, args);
  };
} catch {
  // better-sqlite3 is not installed: nothing to count there.
}

try {
  const { Client } = require("pg");
  const query = Client.prototype.query;
  Client.prototype.query = function counted(...args) {
    statements++;
    if (sqlLog) {
      const [config, values] = args;
      logStatement("postgresql", typeof config === "string" ? config : config?.text, typeof config === "string" ? values : config?.values);
    }
    return query.apply(this, args);
  };
} catch {
  // pg is not installed.
}

const origin = process.env.BENCH_SHOPIFY_ORIGIN?.replace(/\/$/, "");
if (origin) {
  const realFetch = globalThis.fetch;
  globalThis.fetch = function redirected(input, init) {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    if (url.hostname.endsWith(".myshopify.com") && (url.pathname.startsWith("/admin/") || url.pathname.startsWith("/api/"))) {
      return realFetch(`${origin}/${url.hostname}${url.pathname}${url.search}`, init);
    }
    return realFetch(input, init);
  };
}

// The message { profile: <file> } starts V8's CPU profiler; { profile: null } stops it and writes the
// profile to the file named at its start (`npm run bench -- --profile DIR`: one profile per measured run).
let profiler = null;
async function profile(file) {
  const { Session } = await import("node:inspector/promises");
  if (file) {
    if (!profiler) {
      const session = new Session();
      session.connect();
      await session.post("Profiler.enable");
      await session.post("Profiler.setSamplingInterval", { interval: 200 });
      profiler = { session, file: null };
    }
    profiler.file = file;
    await profiler.session.post("Profiler.start");
  } else if (profiler?.file) {
    const { profile: taken } = await profiler.session.post("Profiler.stop");
    fs.writeFileSync(profiler.file, JSON.stringify(taken));
    profiler.file = null;
  }
  process.send({ profile: file });
}

// Stalls since the last "stats": the longest the event loop was held (every request in flight waits that
// long), and the garbage collector's longest and total pauses. What a run's p99 is made of, beside its work.
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
let gcMax = 0;
let gcTotal = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcMax = Math.max(gcMax, entry.duration);
    gcTotal += entry.duration;
  }
}).observe({ entryTypes: ["gc"] });
function stalls() {
  const taken = { loopMaxMs: loopDelay.max / 1e6, gcMaxMs: gcMax, gcTotalMs: gcTotal };
  loopDelay.reset();
  gcMax = 0;
  gcTotal = 0;
  return taken;
}

if (process.send) {
  process.on("message", (message) => {
    if (message === "stats") process.send({ statements, rss: process.memoryUsage.rss(), ...stalls() });
    else if (message && typeof message === "object" && "sqlLog" in message) {
      sqlLog = message.sqlLog;
      process.send({ sqlLog });
    } else if (message && typeof message === "object" && "profile" in message) void profile(message.profile);
  });
  process.channel?.unref();
}
