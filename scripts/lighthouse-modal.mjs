#!/usr/bin/env node
// Layout stability of the storefront modal, measured the way Lighthouse measures it: a Lighthouse
// user-flow timespan (mobile emulation) over opening the modal on the local storefront and sending a
// code, on the built app in local mode with its own SQLite database. Prints the cumulative layout
// shift (CLS) and the shifts that made it. Needs `npm run build:dev` (the local storefront is only in a development build) and Chromium (CHROMIUM_PATH or
// /usr/bin/chromium). Usage: node scripts/lighthouse-modal.mjs [--locale=ar] [--runs=3]
import { spawn, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startFlow } from "lighthouse";
import puppeteer from "puppeteer-core";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback;
const locale = arg("locale", "en");
const runs = Math.max(1, Math.min(10, Number(arg("runs", "3")) || 3));

if (!fs.existsSync(path.join(root, "build", "index.js"))) {
  console.error("no build/: run `npm run build:dev` first");
  process.exit(1);
}
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "codv-lighthouse-"));
const env = {
  ...process.env,
  NODE_ENV: "development",
  PORT: "0",
  HOST: "127.0.0.1",
  DATABASE_URL: `file:${path.join(dataDir, "app.db")}`,
  LOCAL_MODE: "true",
  SHOPIFY_API_KEY: "local-dev-api-key",
  SHOPIFY_API_SECRET: "local-dev-api-secret",
  SHOPIFY_APP_URL: "http://127.0.0.1",
  OTP_HASH_SECRET: "lighthouse-otp-hash-secret-0123456789abcdef",
  SMS_PROVIDER: "outbox",
  OUTBOX_DIR: dataDir,
  LOG_LEVEL: "warn",
};
execFileSync(process.execPath, [path.join(root, "scripts", "setup.mjs")], { env, stdio: "ignore" });
const server = spawn(process.execPath, [path.join(root, "server.mjs")], { cwd: root, env, stdio: ["ignore", "pipe", "ignore"] });
const baseUrl = await new Promise((resolve, reject) => {
  let out = "";
  server.stdout.on("data", (d) => {
    out += d;
    const m = /listening on http:\/\/[^:\s]+:(\d+)/.exec(out);
    if (m) resolve(`http://127.0.0.1:${m[1]}`);
  });
  server.once("exit", (code) => reject(new Error(`server exited with ${code}: ${out}`)));
});

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
const values = [];
try {
  for (let run = 0; run < runs; run++) {
    const page = await browser.newPage();
    // Leaving the storefront is not part of the measure.
    await page.goto(`${baseUrl}/dev/storefront?locale=${locale}`, { waitUntil: "networkidle0" });
    const flow = await startFlow(page, { name: "Open the COD modal and send a code" });
    await flow.startTimespan({ name: "open and send" });
    await page.click("[data-cod-open]");
    await page.waitForSelector(".codv-dialog input[type=tel]", { visible: true });
    await page.type(".codv-dialog input[type=tel]", `98765 4${String(3210 + run).padStart(4, "0")}`);
    await page.click(".codv-dialog form:not([hidden]) button[type=submit]");
    await page.waitForSelector(".codv-dialog input[autocomplete=one-time-code]", { visible: true });
    await new Promise((r) => setTimeout(r, 1500)); // let late shifts (status text, timers) land
    await flow.endTimespan();
    const result = await flow.createFlowResult();
    const audit = result.steps[0].lhr.audits["cumulative-layout-shift"];
    const shifts = result.steps[0].lhr.audits["layout-shifts"]?.details?.items ?? [];
    values.push(audit.numericValue);
    console.log(`run ${run + 1}: CLS ${audit.numericValue.toFixed(4)} (${audit.displayValue ?? ""})`);
    for (const s of shifts) console.log(`  shift ${Number(s.score).toFixed(4)} ${s.node?.selector ?? ""} ${s.node?.snippet?.slice(0, 80) ?? ""}`);
    await page.close();
  }
} finally {
  await browser.close();
  server.kill("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
}
const sorted = [...values].sort((a, b) => a - b);
console.log(`modal (${locale}, Lighthouse mobile emulation): CLS median ${sorted[Math.floor(sorted.length / 2)].toFixed(4)}, max ${sorted.at(-1).toFixed(4)} over ${values.length} run(s); target < 0.1`);
