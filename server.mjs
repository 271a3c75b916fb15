#!/usr/bin/env node
// The production server (NODE_ENV is production unless set: `npm run dev` and `npm run local` ask for
// development): Remix's request handler behind a small node:http adapter instead of
// remix-serve (docs/decisions/0001-node-http-server.md: no throughput gain is established; `npm run
// bench:server` measures it). It keeps what production needs: static assets with long-lived caching,
// gzip for HTML/CSS/JS, one log line per request without query strings (signed URLs) or tokens, and a
// graceful SIGTERM that finishes in-flight requests.
import "./app/server/load-env.mjs";
import "./app/server/production-default.mjs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/node";
import { pendingMigrations } from "./prisma/migrate.mjs";
import { createAppHandler } from "./app/server/resource-routes.mjs";
import { trackConnections } from "./app/server/connections.mjs";
import { bodyReadWhole, discardBody, drainAbandonedBody, MAX_BODY_BYTES, readWholeBody, requestUrl, toRequest, wholeRequest, writeResponse } from "./app/server/node-request.mjs";
import { staticFiles } from "./app/server/static-files.mjs";

const root = path.dirname(fileURLToPath(import.meta.url));
const publicFiles = staticFiles(path.join(root, "public"));
const SHUTDOWN_GRACE_MS = Number(process.env.SHUTDOWN_GRACE_MS || 10_000);

let build;
try {
  build = await import(pathToFileURL(path.join(root, "build", "index.js")).href);
} catch (err) {
  // Configuration errors (a missing production secret) surface here, at start-up.
  console.error(`server: cannot start: ${err?.message ?? err}`);
  process.exit(1);
}
const mode = process.env.NODE_ENV === "production" ? "production" : "development";
/** Fixed-path resource routes (the storefront API, webhooks) directly, the rest through Remix; errors as JSON. */
const handle = createAppHandler(build, createRequestHandler(build, mode));

/** Paths as logged: token-like segments (address-correction links) are masked. */
export function loggablePath(pathname) {
  return pathname.replace(/\/ac\/[^/]+/, "/ac/:token").replace(/[A-Za-z0-9_-]{24,}/g, ":id");
}

/**
 * A path whose percent-escapes do not decode (`/%`, `/proxy/send-otp%E0%A4%A`) cannot name any route
 * or file: it is answered 400 at the door, before anything decodes it, and logged as this placeholder
 * (the raw text is whatever the client chose to send).
 */
const MALFORMED_PATH = "(malformed path)";
function decodablePath(pathname) {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/**
 * Request lines are written once per turn of the event loop: the lines of the requests answered in one turn
 * go out in one write instead of one write (a system call) each. What is still waiting is written when the
 * process exits, whatever the reason.
 */
let pendingLog = "";
/** Request lines are info lines: LOG_LEVEL=warn or error leaves them out, as it does the app's own. */
const requestLines = !["warn", "error"].includes(process.env.LOG_LEVEL ?? "");
function log(fields) {
  if (!pendingLog) setImmediate(flushLog);
  pendingLog += `${JSON.stringify({ time: new Date().toISOString(), level: "info", msg: "request", ...fields })}\n`;
}
function flushLog() {
  if (!pendingLog) return;
  const lines = pendingLog;
  pendingLog = "";
  process.stdout.write(lines);
}
process.on("exit", flushLog);

/** A request carrying Remix's legacy `_data` query parameter (anywhere in its query). */
function isLegacyDataRequest(url) {
  const query = (url ?? "").split("?").slice(1).join("?");
  return query !== "" && query.split("&").some((pair) => pair === "_data" || pair.startsWith("_data="));
}

let inFlight = 0;
let shuttingDown = false;

const server = http.createServer(async (req, res) => {
  const started = process.hrtime.bigint();
  inFlight++;
  connections.answer(req, res);
  const rawPath = (req.url ?? "/").split("?")[0];
  const malformed = !decodablePath(rawPath);
  const pathname = malformed ? MALFORMED_PATH : rawPath;
  const fixedRoute = !malformed && handle.isFixedRoute(pathname);
  const wired = fixedRoute ? handle.wireRoute(pathname, req.method) : null;
  try {
    if (shuttingDown) res.setHeader("Connection", "close");
    if (malformed) {
      discardBody(req);
      await drainAbandonedBody(req);
      res.writeHead(400, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
      res.end(JSON.stringify({ error: "The request's path is not valid percent-encoding.", code: "invalid_request" }));
    } else if (isLegacyDataRequest(req.url)) {
      // Remix's `?_data` requests: the app uses single fetch (`.data`), so only a probe sends one. A client's
      // mistake: 400 JSON and a debug line, never the runtime's error-level warning.
      discardBody(req);
      await drainAbandonedBody(req);
      res.writeHead(400, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
      res.end(JSON.stringify({ error: "The `_data` parameter is not served: this app uses Remix single fetch.", code: "invalid_request" }));
    } else if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES) {
      discardBody(req);
      await drainAbandonedBody(req);
      res.writeHead(413, { "content-type": "application/json", "cache-control": "no-store", connection: "close" });
      res.end(JSON.stringify({ error: "The request body is too large.", code: "payload_too_large" }));
    } else if (wired && bodyReadWhole(req)) {
      // A storefront JSON route or a webhook, through its own interface: the body read whole, the answer written as it comes.
      const body = await readWholeBody(req);
      const answer = await wired.wire(build.requestFromServer({ method: req.method, url: requestUrl(req), rawHeaders: req.rawHeaders, body }));
      answer.headers["content-length"] = String(Buffer.byteLength(answer.text));
      res.writeHead(answer.status, answer.headers);
      res.end(answer.text);
    } else if (fixedRoute || !(await publicFiles.serve(req, res, pathname))) {
      // A fixed-path route is never a file under public/: it skips the static lookup.
      const request = fixedRoute && bodyReadWhole(req) ? await wholeRequest(req) : toRequest(req, res);
      const response = await handle(request, pathname);
      // The route answered without reading the whole body (a declared length over its limit).
      if (!req.complete) req.abandonBody?.();
      // A body cut off at MAX_BODY_BYTES is a 413 whatever the route made of the truncated stream.
      if (req.bodyTooLarge) throw Object.assign(new Error("body too large"), { code: "BODY_TOO_LARGE" });
      await writeResponse(req, res, response);
    }
  } catch (err) {
    if (err?.code !== "ERR_STREAM_PREMATURE_CLOSE" && err?.code !== "BODY_TOO_LARGE") {
      console.error(JSON.stringify({ level: "error", msg: "request failed", path: loggablePath(pathname), error: String(err?.message ?? err) }));
    }
    if (!res.headersSent) {
      const tooLarge = err?.code === "BODY_TOO_LARGE";
      await drainAbandonedBody(req);
      res.writeHead(tooLarge ? 413 : 500, { "content-type": "application/json", "cache-control": "no-store" });
      res.end(JSON.stringify(tooLarge ? { error: "The request body is too large.", code: "payload_too_large" } : { error: "Something went wrong on our side.", code: "internal_error" }));
    } else res.destroy();
  } finally {
    inFlight--;
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    build.observeRequest?.(build.routeLabel(pathname, fixedRoute), req.method, res.statusCode, ms / 1000);
    if (requestLines) log({ method: req.method, path: loggablePath(pathname), status: res.statusCode, ms: Math.round(ms * 10) / 10 });
    if (shuttingDown && inFlight === 0) finishShutdown();
  }
});
// Requests Node's HTTP parser refuses (malformed framing, oversized headers, a client too slow to
// send its headers) never reach the app; their answer is still the contract's JSON error.
server.on("clientError", (err, socket) => {
  if (err.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
  const [status, reason, code, message] =
    err.code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request Header Fields Too Large", "invalid_request", "The request's headers are too large."]
      : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout", "request_timeout", "The request took too long to arrive."]
        : [400, "Bad Request", "invalid_request", "The request could not be parsed."];
  console.error(JSON.stringify({ level: "warn", msg: "client error", status, error: err.code ?? String(err.message) }));
  const body = JSON.stringify({ error: message, code });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncache-control: no-store\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
});
const connections = trackConnections(server);
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
server.requestTimeout = 30_000;

let exitTimer;
let exitCode = 0;
/** Nothing in flight any more: every idle connection is closed (FIN); the process exits once the last one is gone. */
function finishShutdown() {
  connections.closeIdle();
}

/**
 * Stops accepting, lets the requests in flight finish (at most SHUTDOWN_GRACE_MS), then exits:
 * 0 after SIGTERM/SIGINT, 1 after a fault (the supervisor restarts the process). No open connection is
 * reset: every answer still to be written says `Connection: close` and its connection ends once it is
 * written; while requests are in flight an idle keep-alive connection is still answered (a request its
 * client sent as the stop began gets its answer, with `Connection: close`); once none is in flight the
 * idle ones are closed (FIN) (app/server/connections.mjs).
 */
function shutdown(reason, line = { level: "info", msg: `server: ${reason}, finishing ${inFlight} in-flight request(s)` }) {
  if (shuttingDown) return;
  shuttingDown = true;
  (line.level === "info" ? console.log : console.error)(JSON.stringify(line));
  connections.stop(() => process.exit(exitCode));
  if (inFlight === 0) finishShutdown();
  exitTimer = setTimeout(() => {
    console.error(JSON.stringify({ level: "warn", msg: "server: grace period over, closing remaining connections" }));
    server.closeAllConnections();
    process.exit(1);
  }, SHUTDOWN_GRACE_MS);
  exitTimer.unref();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
// An exception that escaped every request handler (a bug in a stream callback or a timer) may have
// left shared state half-changed: the process stops accepting, finishes the
// requests in flight (bounded by SHUTDOWN_GRACE_MS) and exits 1 for the supervisor to restart it
// (docs/deploy.md). Each request's own errors are answered 500 JSON above and never get here.
function fault(kind, err) {
  exitCode = 1;
  const error = String(err?.stack ?? err).slice(0, 4000);
  if (shuttingDown) return void console.error(JSON.stringify({ level: "error", msg: `${kind} while stopping`, error }));
  shutdown(kind, { level: "error", msg: `server: ${kind}; stopping after ${inFlight} in-flight request(s), then exiting 1`, error });
}
process.on("uncaughtException", (err) => fault("uncaught exception", err));
// A rejection nobody handled is logged, not fatal: the Prisma session storage's constructor starts a
// table check whose promise rejects unhandled when the database is down at start-up, and the server
// must then keep answering 503 (and recover) rather than exit in a loop.
process.on("unhandledRejection", (err) => {
  console.error(JSON.stringify({ level: "error", msg: "unhandled rejection", error: String(err?.stack ?? err).slice(0, 4000) }));
});
process.on("SIGINT", () => shutdown("SIGINT"));

const port = Number(process.env.PORT || 3000);
const host = process.env.HOST || "0.0.0.0";
server.listen(port, host, () => {
  const shown = host === "0.0.0.0" ? "localhost" : host;
  console.log(JSON.stringify({ level: "info", msg: `server: listening on http://${shown}:${server.address().port}` }));
  void checkMigrations();
  // The job worker and its kinds (app/server-build.ts): this process runs the background work.
  build.startBackgroundWork();
});

/** One line at start-up when the database lacks migrations (every signed route would fail), naming the fix. */
async function checkMigrations() {
  try {
    const pending = await pendingMigrations(process.env.DATABASE_URL);
    if (pending.length) {
      console.error(
        JSON.stringify({
          level: "error",
          msg: `server: the database is missing ${pending.length} migration(s) (${pending.join(", ")}); run \`npm run setup\` (or \`npm run db:migrate\`) to apply them. Until then ping answers 503.`,
        }),
      );
    }
  } catch (err) {
    console.error(JSON.stringify({ level: "warn", msg: `server: could not check the database's migrations: ${err?.message ?? err}` }));
  }
}
