import crypto from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { inject } from "vitest";
import { applyMigrations } from "../../prisma/migrate.mjs";
import { ROOT } from "../setup/databases";
import { signedProxyQuery } from "../../app/server/app-proxy-signature.mjs";
import { startLocalShopify, type LocalShopify } from "../mocks/shopify/local";
import { carrierReported, orderPlaced } from "../mocks/shopify/learnt-orders";

export type RunningServer = {
  url: string;
  port: number;
  process: ChildProcess;
  /** Everything the server printed so far (stdout and stderr). */
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
  dataDir: string;
  /** Local mode's fake Shopify, started beside a development server that was given no SHOPIFY_API_ORIGIN. */
  shopify: LocalShopify | null;
};

/**
 * Starts the production server (server.mjs over the built app) on a free port with its own SQLite
 * database in local mode, as `npm run local` would: a development server (NODE_ENV=development) with
 * no SHOPIFY_API_ORIGIN gets local mode's fake Shopify as its own HTTP server beside it. Requires
 * `npm run build:dev` (npm test builds it first): local mode's tools are only in a development build.
 */
export async function startServer(
  /** Overrides of the server's environment; `undefined` leaves a variable unset (e.g. NODE_ENV, as `npm start` meets it). */
  env: Record<string, string | undefined> = {},
  /** nodeArgs: flags for node before server.mjs (e.g. `--import` of a test-only hook). */
  options: { migrate?: boolean; nodeArgs?: string[] } = {},
): Promise<RunningServer> {
  if (!fs.existsSync(path.join(ROOT, "build", "index.js"))) throw new Error("no build/: run `npm run build:dev` first");
  const dataDir = fs.mkdtempSync(path.join(ROOT, "data", `server-${inject("runId")}-`));
  const databaseUrl = env.DATABASE_URL ?? `file:${path.join(dataDir, "app.db")}`;
  if (options.migrate !== false) await prepareDatabase(databaseUrl);
  const shopify = env.NODE_ENV === "development" && !env.SHOPIFY_API_ORIGIN ? await startLocalShopify() : null;

  let output = "";
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: "0",
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    LOCAL_MODE: "true",
    SHOPIFY_API_KEY: "local-dev-api-key",
    SHOPIFY_API_SECRET: "local-dev-api-secret",
    SHOPIFY_APP_URL: "http://127.0.0.1",
    OTP_HASH_SECRET: "server-test-otp-hash-secret-0123456789abcdef",
    SMS_PROVIDER: "outbox",
    OUTBOX_DIR: dataDir,
    LOG_LEVEL: "info",
    ...(shopify ? { SHOPIFY_API_ORIGIN: shopify.origin } : {}),
    ...env,
  };
  for (const [key, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[key];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), path.join(ROOT, "server.mjs")], {
    cwd: ROOT,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const port = await new Promise<number>((resolve, reject) => {
    const fail = (error: Error) => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      void shopify?.stop();
      reject(error);
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(new Error(`server did not start:\n${output}`));
    }, 45_000);
    const onData = () => {
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    process: child,
    output: () => output,
    dataDir,
    shopify,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null) child.kill(signal);
      const code = await exited;
      await shopify?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/** Migrates the database and installs the demo shop, as `npm run setup` does in local mode. */
export async function prepareDatabase(databaseUrl: string) {
  await applyMigrations(databaseUrl);
  const seed = spawn(process.execPath, [path.join(ROOT, "scripts", "setup.mjs")], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOCAL_MODE: "true", NODE_ENV: "development" },
    stdio: "ignore",
  });
  const code = await new Promise((resolve) => seed.once("exit", resolve));
  if (code !== 0) throw new Error(`setup failed with ${code}`);
}

/** A JSON POST to a running server's /proxy<path>, signed as Shopify's app proxy signs it for local mode's demo shop. */
export function postSigned(server: Pick<RunningServer, "url">, path: string, body: unknown, headers: Record<string, string> = {}) {
  const q = signedProxyQuery({ secret: "local-dev-api-secret" });
  return fetch(`${server.url}/proxy${path}?${q}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

/** An orders/create delivery to a running server, signed as Shopify signs it for local mode's demo shop. */
export function deliverOrderCreated(server: Pick<RunningServer, "url">, payload: unknown) {
  return deliverWebhook(server, "orders/create", payload);
}

/** A webhook delivery of `topic` (its route is /webhooks/<topic>) to a running server, for local mode's demo shop. */
export function deliverWebhook(server: Pick<RunningServer, "url">, topic: string, payload: unknown) {
  const body = typeof payload === "string" ? payload : JSON.stringify(payload);
  // As on Shopify, the order (and the carrier's event on it) is in the store (local mode's fake, when this process runs one) before its webhook.
  if (topic === "orders/create") orderPlaced("demo-shop.myshopify.com", typeof payload === "string" ? safeJson(payload) : payload);
  if (topic === "fulfillment_events/create") carrierReported("demo-shop.myshopify.com", body);
  return fetch(`${server.url}/webhooks/${topic}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-shopify-hmac-sha256": crypto.createHmac("sha256", "local-dev-api-secret").update(body, "utf8").digest("base64"),
      "x-shopify-topic": topic,
      "x-shopify-shop-domain": "demo-shop.myshopify.com",
      "x-shopify-api-version": "2026-10",
      "x-shopify-webhook-id": crypto.randomUUID(),
      "x-shopify-event-id": crypto.randomUUID(),
      "x-shopify-triggered-at": new Date().toISOString(),
    },
    body,
  });
}

/**
 * `node --import` flags for startServer: tests/helpers/request-probe.mjs prints a line once the server
 * has read a request's head, which `requestInFlight` waits for.
 */
export const REQUEST_PROBE = ["--import", pathToFileURL(path.join(ROOT, "tests", "helpers", "request-probe.mjs")).href];

/** Resolves once a server started with REQUEST_PROBE holds a request to `pathname` (its head read). */
export async function requestInFlight(server: Pick<RunningServer, "output">, pathname: string): Promise<void> {
  const line = JSON.stringify({ probe: "request-start", url: pathname });
  while (!server.output().includes(line)) await new Promise((r) => setTimeout(r, 20));
}
