import { signedProxyQuery } from "../../app/server/app-proxy-signature.mjs";
import { env } from "~/core/env.server";
import { SHOP } from "./shops";

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

type RouteModule = {
  loader?: (args: LoaderFunctionArgs) => unknown;
  action?: (args: ActionFunctionArgs) => unknown;
};

export type SignedRequestOptions = {
  method?: string;
  /** A JSON body (serialised) or a raw string sent as is. */
  body?: unknown;
  shop?: string;
  secret?: string;
  timestamp?: number;
  headers?: Record<string, string>;
  /** The storefront request's own query, signed along as Shopify does. */
  query?: Record<string, string>;
  /** Tamper with the signed query after signing. */
  mutate?: (params: URLSearchParams) => void;
};

/** A request as Shopify's app proxy forwards it to https://app/proxy/<path>, signed with the app's secret. */
export function signedRequest(path: string, options: SignedRequestOptions = {}): Request {
  const params = signedProxyQuery({
    shop: options.shop ?? SHOP,
    secret: options.secret ?? env.SHOPIFY_API_SECRET,
    timestamp: options.timestamp,
    extra: Object.entries(options.query ?? {}),
  });
  options.mutate?.(params);
  const method = options.method ?? (options.body === undefined ? "GET" : "POST");
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  return new Request(`https://app.example.com/proxy${path}?${params}`, { method, headers, body });
}

export function unsignedRequest(path: string, init: RequestInit = {}): Request {
  return new Request(`https://app.example.com/proxy${path}?shop=${SHOP}`, init);
}

/** Calls a route module as Remix would: loader for GET/HEAD, action otherwise; a thrown Response is the answer. */
export async function callRoute(mod: RouteModule, request: Request, params: Record<string, string> = {}): Promise<Response> {
  const fn = request.method === "GET" || request.method === "HEAD" ? mod.loader : mod.action;
  if (!fn) throw new Error(`route has no ${request.method === "GET" ? "loader" : "action"}`);
  try {
    const result = await fn({ request, params, context: {} } as LoaderFunctionArgs & ActionFunctionArgs);
    if (!(result instanceof Response)) throw new Error("route returned something other than a Response");
    return result;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

export async function jsonOf(response: Response): Promise<Record<string, unknown>> {
  expect(response.headers.get("content-type")).toMatch(/application\/json/);
  return (await response.json()) as Record<string, unknown>;
}
