import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getJwt } from "@shopify/shopify-api/test-helpers";
import { env } from "~/core/env.server";
import { SHOP } from "./shops";

type RouteModule = {
  loader?: (args: LoaderFunctionArgs) => unknown;
  action?: (args: ActionFunctionArgs) => unknown;
};

export type AdminRequestOptions = {
  method?: string;
  /** Form fields, posted as application/x-www-form-urlencoded as a Remix <Form> does. */
  form?: Record<string, string>;
  shop?: string;
  /** Sign the session token with another secret (a forged token). */
  secret?: string;
  /** Overrides of the session token's payload, e.g. { exp } for an expired one. */
  token?: Record<string, unknown>;
  /** Send no session token at all. */
  unauthenticated?: boolean;
  /** More request headers, e.g. the browser's Accept-Language. */
  headers?: Record<string, string>;
};

/**
 * A request from the embedded admin: App Bridge adds the session token (a JWT signed with the app's
 * secret, for the shop in `dest`) as `Authorization: Bearer` to the app's own fetches, which is how
 * Remix's loader and action requests reach the app. Signed with the library's own test helper.
 */
export async function adminRequest(path: string, options: AdminRequestOptions = {}): Promise<Request> {
  const headers = new Headers(options.headers);
  if (!options.unauthenticated) {
    // getJwt takes the store's name and adds ".myshopify.com" itself.
    const store = (options.shop ?? SHOP).replace(/\.myshopify\.com$/, "");
    const { token } = await getJwt(store, env.SHOPIFY_API_KEY, options.secret ?? env.SHOPIFY_API_SECRET, options.token);
    headers.set("authorization", `Bearer ${token}`);
  }
  let body: string | undefined;
  if (options.form) {
    body = new URLSearchParams(options.form).toString();
    headers.set("content-type", "application/x-www-form-urlencoded");
  }
  const method = options.method ?? (options.form ? "POST" : "GET");
  return new Request(`${env.SHOPIFY_APP_URL}${path}`, { method, headers, body });
}

export type AdminAnswer<T = Record<string, unknown>> = { status: number; data: T | null; response: Response | null };

/**
 * Calls an admin route as Remix (single fetch) would: a plain object is a 200, `data(value, init)`
 * carries its status, and a Response (returned or thrown, as the library's redirects are) is the answer.
 */
export async function callAdminRoute<T = Record<string, unknown>>(mod: RouteModule, request: Request, params: Record<string, string> = {}): Promise<AdminAnswer<T>> {
  const fn = request.method === "GET" || request.method === "HEAD" ? mod.loader : mod.action;
  if (!fn) throw new Error(`route has no ${request.method === "GET" ? "loader" : "action"}`);
  let result: unknown;
  try {
    result = await fn({ request, params, context: {} } as LoaderFunctionArgs & ActionFunctionArgs);
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, data: null, response: thrown };
    throw thrown;
  }
  if (result instanceof Response) return { status: result.status, data: null, response: result };
  if (result && typeof result === "object" && (result as { type?: unknown }).type === "DataWithResponseInit") {
    const wrapped = result as { data: T; init: ResponseInit | null };
    return { status: wrapped.init?.status ?? 200, data: wrapped.data, response: null };
  }
  return { status: 200, data: result as T, response: null };
}
