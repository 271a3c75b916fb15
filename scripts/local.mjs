#!/usr/bin/env node
// Local mode with no Shopify store: starts the fake Shopify (tests/mocks, bundled here with esbuild)
// as its own HTTP server, then the app (server.mjs) pointed at it through SHOPIFY_API_ORIGIN, exactly
// as the tests run them. The app itself holds no fake. Stops both on Ctrl-C.
// Texts go to the outbox (data/outbox.jsonl) unless `--twilio` (or LOCAL_TWILIO=true): then the fake
// Twilio runs too, and the app sends through the real Twilio client pointed at it (TWILIO_API_BASE).
import "../app/server/load-env.mjs";
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bundle = path.join(root, ".cache", "local-mocks.mjs");
// Synchronous: esbuild runs once and exits, instead of a service process left idle beside the servers.
buildSync({
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
const withTwilio = process.argv.includes("--twilio") || process.env.LOCAL_TWILIO === "true";
const mocks = spawn(process.execPath, [bundle], {
  env: {
    ...process.env,
    LOCAL_SHOPIFY_PORT: process.env.LOCAL_SHOPIFY_PORT ?? String(port + 1),
    // Where the fake Shopify delivers the webhooks it sends itself (orders/paid from its payment page).
    LOCAL_APP_URL: process.env.SHOPIFY_APP_URL ?? `http://localhost:${port}`,
    ...(withTwilio ? { LOCAL_TWILIO_PORT: process.env.LOCAL_TWILIO_PORT ?? String(port + 2) } : {}),
  },
  stdio: ["ignore", "pipe", "inherit"],
});
const origins = await new Promise((resolve, reject) => {
  let seen = "";
  mocks.stdout.on("data", (chunk) => {
    process.stdout.write(chunk);
    seen += chunk;
    const shopify = /fake Shopify at (http:\/\/\S+)/.exec(seen)?.[1];
    const twilio = /fake Twilio at (http:\/\/\S+)/.exec(seen)?.[1];
    if (shopify && (twilio || !withTwilio)) resolve({ shopify, twilio });
  });
  mocks.once("exit", (code) => reject(new Error(`local mode's stand-ins exited with ${code}`)));
});

// The fake Twilio's account (tests/mocks/twilio.ts FAKE_TWILIO_ACCOUNT): the real client signs in with it.
const twilioEnv = origins.twilio
  ? {
      SMS_PROVIDER: "twilio",
      TWILIO_API_BASE: origins.twilio,
      TWILIO_ACCOUNT_SID: "ACfake00000000000000000000000000",
      TWILIO_AUTH_TOKEN: "fake-twilio-token",
      TWILIO_FROM_NUMBER: process.env.TWILIO_FROM_NUMBER ?? "+15005550006",
      // WhatsApp plays too: a sender and the fake's templates (tests/mocks/twilio.ts LOCAL_TEMPLATES).
      TWILIO_WHATSAPP_FROM: process.env.TWILIO_WHATSAPP_FROM ?? "+15005550007",
      TWILIO_WHATSAPP_CONTENT_SID: process.env.TWILIO_WHATSAPP_CONTENT_SID ?? "HX00000000000000000000000000000c0d",
      TWILIO_WHATSAPP_CONFIRM_CONTENT_SID: process.env.TWILIO_WHATSAPP_CONFIRM_CONTENT_SID ?? "HX0000000000000000000000000000c0f1",
      TWILIO_WHATSAPP_LINK_CONTENT_SID: process.env.TWILIO_WHATSAPP_LINK_CONTENT_SID ?? "HX00000000000000000000000000001111",
    }
  : {};
const app = spawn(process.execPath, [path.join(root, "server.mjs")], {
  // Local mode is a development server (server.mjs alone defaults to production, which refuses fakes).
  env: { ...process.env, NODE_ENV: process.env.NODE_ENV || "development", SHOPIFY_API_ORIGIN: process.env.SHOPIFY_API_ORIGIN ?? origins.shopify, ...twilioEnv },
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
