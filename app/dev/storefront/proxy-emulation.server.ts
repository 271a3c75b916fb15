import { env } from "~/core/env.server";
import { LOCAL_DEFAULTS, signedProxyQuery } from "~/server/app-proxy-signature.mjs";

/** Request headers Shopify's app proxy does not pass on (cookies) or that belong to one hop only. */
const DROPPED_REQUEST_HEADERS = ["cookie", "host", "connection", "content-length", "transfer-encoding", "accept-encoding"];
/** Response headers Shopify strips (Set-Cookie and others) or that fetch already undid (encoding). */
const DROPPED_RESPONSE_HEADERS = ["set-cookie", "connection", "content-encoding", "content-length", "transfer-encoding", "server", "x-powered-by", "date"];

export type EmulatedProxyOptions = {
  /** The app's origin the request is forwarded to. */
  appOrigin: string;
  shop?: string;
  secret?: string;
  pathPrefix?: string;
  timestamp?: number;
};

/**
 * The request Shopify's app proxy would send the app for a storefront request to
 * https://<shop>/<prefix>/<subpath>/<path>: the same method, body and query, the path moved under
 * /proxy, Shopify's signed parameters added (shop, logged_in_customer_id, path_prefix, timestamp,
 * signature), cookies removed and X-Forwarded-For/-Host added.
 */
export async function emulatedProxyRequest(storefrontRequest: Request, path: string, options: EmulatedProxyOptions): Promise<Request> {
  const incoming = new URL(storefrontRequest.url);
  const query = signedProxyQuery({
    shop: options.shop ?? LOCAL_DEFAULTS.shop,
    secret: options.secret ?? env.SHOPIFY_API_SECRET,
    pathPrefix: options.pathPrefix ?? env.proxyBasePath,
    timestamp: options.timestamp,
    extra: [...incoming.searchParams].filter(([key]) => !["shop", "logged_in_customer_id", "path_prefix", "timestamp", "signature"].includes(key)),
  });
  const headers = new Headers(storefrontRequest.headers);
  for (const name of DROPPED_REQUEST_HEADERS) headers.delete(name);
  headers.set("X-Forwarded-For", storefrontRequest.headers.get("x-forwarded-for") ?? "127.0.0.1");
  headers.set("X-Forwarded-Host", incoming.host);
  const method = storefrontRequest.method.toUpperCase();
  const body = method === "GET" || method === "HEAD" ? undefined : await storefrontRequest.arrayBuffer();
  const target = new URL(`/proxy/${path.replace(/^\/+/, "")}`, options.appOrigin);
  target.search = query.toString();
  return new Request(target, { method, headers, body });
}

/** Forwards a storefront request to the app as Shopify's app proxy would, and hands back the answer. */
export async function forwardThroughProxy(storefrontRequest: Request, path: string, options: EmulatedProxyOptions): Promise<Response> {
  const forwarded = await emulatedProxyRequest(storefrontRequest, path, options);
  let answer: Response;
  try {
    answer = await fetch(forwarded, { redirect: "manual" });
  } catch {
    return new Response(JSON.stringify({ error: "The emulated app proxy could not reach the app.", code: "proxy_unreachable" }), {
      status: 502,
      headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  const headers = new Headers(answer.headers);
  for (const name of DROPPED_RESPONSE_HEADERS) headers.delete(name);
  return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers });
}

/**
 * Where this server can reach itself: loopback on the port it listens on (PORT, or the port the
 * request came in on when PORT=0 picked a free one). Never the Host header's name, so a request
 * cannot point the signed forward at another machine.
 */
export function selfOrigin(request: Request): string {
  const port = env.PORT || Number(new URL(request.url).port) || 80;
  const host = env.HOST === "0.0.0.0" || env.HOST === "::" ? "127.0.0.1" : env.HOST;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}
