import { createHash } from "node:crypto";
import zlib from "node:zlib";

/**
 * A JSON answer that is the same for every shopper of a shop (GET /api/config): the browser keeps it
 * and asks again each time with its ETag (`no-cache`: revalidate, never use unchecked), getting a
 * bodiless 304 while nothing changed; the body goes compressed (br, else gzip) when the request
 * accepts it. Shopper-specific answers stay `no-store` (responses.server.ts).
 * docs/storefront-api.md, "Caching".
 */
const CACHE_CONTROL = "private, no-cache";
/** Below this, compressing costs more than it saves (one TCP packet either way). */
const MIN_COMPRESSED_BYTES = 1024;

/** Compressed bodies by ETag and encoding: a shop's config is compressed once, not per request. */
const compressed = new Map<string, Buffer>();
const MAX_COMPRESSED = 500;

function encodingFor(acceptEncoding: string | null): "br" | "gzip" | null {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? "").toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
    if (name) accepted.set(name.trim(), q ? Number(q[1]) : 1);
  }
  const allows = (name: string) => (accepted.get(name) ?? accepted.get("*") ?? 0) > 0;
  return allows("br") ? "br" : allows("gzip") ? "gzip" : null;
}

function compress(etag: string, encoding: "br" | "gzip", body: Buffer): Buffer {
  const key = `${encoding}:${etag}`;
  let out = compressed.get(key);
  if (!out) {
    out =
      encoding === "br"
        ? zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
        : zlib.gzipSync(body, { level: 9 });
    if (compressed.size >= MAX_COMPRESSED) compressed.delete(compressed.keys().next().value!);
    compressed.set(key, out);
  }
  return out;
}

function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim().replace(/^W\//, "");
    return t === "*" || t === etag.replace(/^W\//, "");
  });
}

export function revalidatedJson(request: Request, data: unknown): Response {
  const body = Buffer.from(JSON.stringify(data));
  // Weak: the br, gzip and plain bodies are one representation for the browser's purposes.
  const etag = `W/"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  const headers = new Headers({ "Cache-Control": CACHE_CONTROL, ETag: etag, Vary: "Accept-Encoding" });
  if (matches(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  headers.set("Content-Type", "application/json; charset=utf-8");
  const encoding = body.length >= MIN_COMPRESSED_BYTES ? encodingFor(request.headers.get("accept-encoding")) : null;
  if (!encoding) return new Response(new Uint8Array(body), { status: 200, headers });
  headers.set("Content-Encoding", encoding);
  return new Response(new Uint8Array(compress(etag, encoding, body)), { status: 200, headers });
}
