// The build's static assets, as the production server (server.mjs) serves them: long-lived caching for
// hashed files, gzip for text, 304 on If-Modified-Since; paths outside public/ never touch the disk.
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { acceptsGzip } from "./node-request.mjs";

function listFiles(dir, prefix = "") {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]));
}

const TYPES = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".woff2": "font/woff2",
};
const COMPRESSIBLE = /^(text\/|application\/(json|javascript)|image\/svg)/;

/**
 * The files under `publicDir` (the build's assets), listed once: `serve` answers a GET or HEAD for one of
 * them (false when the path names none, and the request goes on to the app).
 */
export function staticFiles(publicDir) {
  const publicFiles = new Set(listFiles(publicDir));
  return { serve: (req, res, pathname) => serveStatic(publicDir, publicFiles, req, res, pathname) };
}

async function serveStatic(publicDir, publicFiles, req, res, pathname) {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const rel = decodeURIComponent(pathname).replace(/^\/+/, "");
  if (!rel || rel.includes("..") || rel.includes("\0") || !publicFiles.has(rel)) return false;
  const file = path.join(publicDir, rel);
  if (!file.startsWith(publicDir + path.sep)) return false;
  let stat;
  try {
    stat = await fs.promises.stat(file);
  } catch {
    return false;
  }
  if (!stat.isFile()) return false;
  const type = TYPES[path.extname(file)] ?? "application/octet-stream";
  // Files under /build/ have content hashes in their names: cache them for a year.
  const cache = rel.startsWith("build/") ? "public, max-age=31536000, immutable" : "public, max-age=3600";
  const headers = { "Content-Type": type, "Cache-Control": cache, "Last-Modified": stat.mtime.toUTCString(), Vary: "Accept-Encoding" };
  if (req.headers["if-modified-since"] && new Date(req.headers["if-modified-since"]) >= new Date(stat.mtime.toUTCString())) {
    res.writeHead(304, headers).end();
    return true;
  }
  const gzip = COMPRESSIBLE.test(type) && stat.size > 1024 && acceptsGzip(req);
  if (gzip) headers["Content-Encoding"] = "gzip";
  else headers["Content-Length"] = stat.size;
  res.writeHead(200, headers);
  if (req.method === "HEAD") return res.end(), true;
  const source = fs.createReadStream(file);
  await pipeline(gzip ? source.pipe(zlib.createGzip()) : source, res);
  return true;
}
