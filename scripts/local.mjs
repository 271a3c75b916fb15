#!/usr/bin/env node
// Local mode with no Shopify store: starts the fake Shopify (tests/mocks, bundled here with esbuild)
// as its own HTTP server, then the app (server.mjs) pointed at it through SHOPIFY_API_ORIGIN, exactly
// as the tests run them. The app itself holds no fake. Stops both on Ctrl-C.
import "./lib/load-env.mjs";
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bundle = path.join(root, ".cache", "local-mocks.mjs");
await build({
  entryPoints: [path.join(root, "tests", "mocks", "local-main.ts")],
  outfile: bundle,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  packages: "external",
  logLevel: "warning",
});

const port = Number(process.env.PORT ?? 3000);
const mocks = spawn(process.execPath, [bundle], {
  env: { ...process.env, LOCAL_SHOPIFY_PORT: process.env.LOCAL_SHOPIFY_PORT ?? String(port + 1) },
  stdio: ["ignore", "pipe", "inherit"],
});
const origin = await new Promise((resolve, reject) => {
  let seen = "";
  mocks.stdout.on("data", (chunk) => {
    process.stdout.write(chunk);
    seen += chunk;
    const m = /fake Shopify at (http:\/\/\S+)/.exec(seen);
    if (m) resolve(m[1]);
  });
  mocks.once("exit", (code) => reject(new Error(`the fake Shopify exited with ${code}`)));
});

const app = spawn(process.execPath, [path.join(root, "server.mjs")], {
  env: { ...process.env, SHOPIFY_API_ORIGIN: process.env.SHOPIFY_API_ORIGIN ?? origin },
  stdio: "inherit",
});
const stop = (signal) => {
  app.kill(signal);
  mocks.kill(signal);
};
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
app.once("exit", (code) => {
  mocks.kill("SIGTERM");
  process.exitCode = code ?? 0;
});
mocks.once("exit", () => app.kill("SIGTERM"));
