// Node's http request and answer against the web's Request and Response, for the production server
// (server.mjs): a body read whole or streamed with limits, a body nobody reads drained before the answer,
// and the Response written back.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";

/** The largest body streamed to the app; past it the rest is discarded and the answer is 413. */
export const MAX_BODY_BYTES = 1024 * 1024;
const DRAIN_BYTES = 64 * 1024 * 1024;
const DRAIN_MS = 5_000;

/** The client takes gzip (static files here, HTML, CSS and JS in writeResponse). */
export function acceptsGzip(req) {
  return /\bgzip\b/.test(req.headers["accept-encoding"] ?? "");
}

export function requestUrl(req) {
  const proto = req.headers["x-forwarded-proto"]?.split(",")[0]?.trim() || "http";
  const host = req.headers["x-forwarded-host"] ?? req.headers.host ?? "localhost";
  return new URL(req.url, `${proto}://${host}`);
}

function requestHeaders(req) {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  return headers;
}

/** The Request Remix's handler (and a fixed-path route's streamed body) gets, aborted when the client goes away first. */
export function toRequest(req, res) {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const init = { method: req.method, headers: requestHeaders(req), signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = requestBody(req);
    init.duplex = "half";
  }
  return new Request(requestUrl(req), init);
}

/**
 * A body the server reads whole before a fixed-path route runs: one with a declared length of at most
 * this (every storefront request and webhook). Anything else (chunked, or longer) is streamed to the route
 * as before, so a route can still refuse a body over its own limit before it has all arrived.
 */
const WHOLE_BODY_BYTES = 64 * 1024;

export function bodyReadWhole(req) {
  if (req.method === "GET" || req.method === "HEAD") return true;
  const declared = req.headers["content-length"];
  return declared !== undefined && !req.headers["transfer-encoding"] && Number(declared) <= WHOLE_BODY_BYTES;
}

/** The body (at most WHOLE_BODY_BYTES, its declared length) as one Buffer; rejects when the client goes away first. */
export function readWholeBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.once("end", () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    const gone = () => reject(Object.assign(new Error("client went away"), { code: "ERR_STREAM_PREMATURE_CLOSE" }));
    req.once("error", gone);
    req.once("close", () => {
      if (!req.complete) gone();
    });
  });
}

/**
 * The Request a fixed-path route gets when its body was read whole: the body as a Buffer instead of a
 * web stream fed chunk by chunk (a ReadableStream, its pull and enqueue, undici reading it back), and no
 * abort signal (no fixed-path route reads one: each finishes what it started). About a tenth of a storefront
 * request's CPU (a wrong-code verify-otp) went to the stream and the Request around it.
 */
export async function wholeRequest(req) {
  const init = { method: req.method, headers: requestHeaders(req) };
  if (req.method !== "GET" && req.method !== "HEAD") init.body = await readWholeBody(req);
  return new Request(requestUrl(req), init);
}

/** Reads and drops a body nobody will read (up to DRAIN_BYTES, then the connection is cut). */
export function discardBody(req) {
  let seen = 0;
  req.bodyAbandoned = true;
  req.on("data", (chunk) => {
    seen += chunk.length;
    if (seen > DRAIN_BYTES) req.socket?.destroy();
  });
}

/**
 * Before answering a request whose body the app stopped reading: wait (up to DRAIN_MS) for the rest
 * of the body to arrive and be discarded. Node closes a connection whose request was not read to
 * the end, and closing while the client still uploads resets the connection, which can lose the
 * answer on the client's side; after draining, the answer arrives and the connection stays usable.
 */
export async function drainAbandonedBody(req) {
  if (!req.bodyAbandoned || req.complete || req.destroyed) return;
  await new Promise((resolve) => {
    const timer = setTimeout(done, DRAIN_MS);
    function done() {
      clearTimeout(timer);
      req.off("end", done).off("close", done);
      resolve();
    }
    req.once("end", done).once("close", done);
  });
}

/**
 * The request body as a web stream, read only as fast as the app reads it. When the app stops
 * early (a route refuses a body over its own limit) or the body passes MAX_BODY_BYTES, the rest is
 * discarded as it arrives and the connection is marked to close after the answer; nothing is ever
 * enqueued into a stream that was cancelled or errored.
 */
function requestBody(req) {
  let seen = 0;
  let open = true;
  const stop = () => {
    open = false;
    req.bodyAbandoned = true;
    req.resume();
  };
  req.abandonBody = () => {
    if (open) stop();
  };
  return new ReadableStream({
    start(stream) {
      req.on("data", (chunk) => {
        seen += chunk.length;
        if (!open) {
          // Discarding. A client that keeps sending past DRAIN_BYTES is cut off.
          if (seen > DRAIN_BYTES) req.socket?.destroy();
          return;
        }
        if (seen > MAX_BODY_BYTES) {
          req.bodyTooLarge = true;
          stop();
          stream.error(Object.assign(new Error("body too large"), { code: "BODY_TOO_LARGE" }));
          return;
        }
        stream.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if (stream.desiredSize !== null && stream.desiredSize <= 0) req.pause();
      });
      req.once("end", () => {
        if (open) {
          open = false;
          stream.close();
        }
      });
      req.once("error", (err) => {
        if (open) {
          open = false;
          stream.error(err);
        }
      });
    },
    pull() {
      if (open) req.resume();
    },
    cancel() {
      if (open) stop();
    },
  });
}

/** A web Response written to node:http's answer: cookies kept apart, gzip for HTML, CSS and JS, small JSON in one write. */
export async function writeResponse(req, res, response) {
  const headers = {};
  for (const [k, v] of response.headers) if (k !== "set-cookie") headers[k] = v;
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  const type = response.headers.get("content-type") ?? "";
  const gzip =
    response.body &&
    /^text\/html|^text\/css|javascript/.test(type) &&
    !response.headers.has("content-encoding") &&
    acceptsGzip(req);
  if (gzip) {
    headers["content-encoding"] = "gzip";
    delete headers["content-length"];
    headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : "Accept-Encoding";
  }
  await drainAbandonedBody(req);
  if (response.body && !gzip && /^application\/json/.test(type)) {
    // JSON answers are small and whole: one write with a length instead of a stream piped through (plain
    // text: head and body in one write; a body the route compressed itself stays bytes).
    const json = headers["content-encoding"] ? Buffer.from(await response.arrayBuffer()) : await response.text();
    headers["content-length"] = String(Buffer.byteLength(json));
    res.writeHead(response.status, response.statusText || undefined, headers);
    return void res.end(req.method === "HEAD" ? undefined : json);
  }
  res.writeHead(response.status, response.statusText || undefined, headers);
  if (!response.body || req.method === "HEAD") return void res.end();
  const body = Readable.fromWeb(response.body);
  await pipeline(gzip ? body.pipe(zlib.createGzip({ flush: zlib.constants.Z_SYNC_FLUSH })) : body, res);
}
