import { env } from "~/core/env.server";
import { unauthenticated } from "~/core/shopify/app.server";

/** Why a Shopify call did not give us data: each cause is logged by the caller and becomes a fallback or a retry. */
export type ShopifyFailureCause =
  | "no_session"
  | "timeout"
  | "throttled"
  | "http_error"
  | "graphql_errors"
  | "network_error"
  | "invalid_response";

export type ShopifyCallResult<T> = { ok: true; data: T } | { ok: false; cause: ShopifyFailureCause; detail: string };

/** Tests shorten the bound; everything else reads SHOPIFY_CALL_TIMEOUT_MS. */
export const shopifyCallLimits = { timeoutMs: env.SHOPIFY_CALL_TIMEOUT_MS };

class CallTimeout extends Error {}

/**
 * One GraphQL call through the library's clients (`unauthenticated.admin/storefront`, the shop's
 * offline session), bounded in time, with every failure turned into a value: a missing session, a
 * timeout, throttling, an HTTP error, GraphQL errors or a reply without data.
 */
export async function shopifyGraphql<T>(
  api: "admin" | "storefront",
  shop: string,
  query: string,
  options: { variables?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Promise<ShopifyCallResult<T>> {
  const timeoutMs = shopifyCallLimits.timeoutMs;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CallTimeout(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const call = (async () => {
      let client: { graphql: (q: string, o: object) => Promise<Response> };
      try {
        client = api === "admin" ? (await unauthenticated.admin(shop)).admin : (await unauthenticated.storefront(shop)).storefront;
      } catch (error) {
        return { ok: false, cause: "no_session", detail: messageOf(error) } as const;
      }
      // The storefront client takes no abort signal; the race below bounds it. The admin client does.
      const signal = api === "admin" ? AbortSignal.timeout(timeoutMs) : undefined;
      const response = await client.graphql(query, { variables: options.variables, headers: options.headers, signal });
      const body = (await response.json()) as { data?: T; errors?: unknown };
      if (body.errors) return { ok: false, cause: classifyErrors(body.errors), detail: JSON.stringify(body.errors).slice(0, 500) } as const;
      if (!body.data) return { ok: false, cause: "invalid_response", detail: "no data in the reply" } as const;
      return { ok: true, data: body.data } as const;
    })();
    call.catch(() => {}); // a late failure after a timeout is already answered
    return await Promise.race([call, deadline]);
  } catch (error) {
    return { ok: false, cause: classifyThrown(error), detail: messageOf(error) };
  } finally {
    clearTimeout(timer);
  }
}

function messageOf(error: unknown): string {
  const e = error as { message?: string; response?: { errors?: unknown } };
  return String(e?.message ?? error).slice(0, 500);
}

function classifyErrors(errors: unknown): ShopifyFailureCause {
  const text = JSON.stringify(errors);
  if (/THROTTLED|Throttled|429/.test(text)) return "throttled";
  if (/networkStatusCode":\s*5\d\d|Internal Server Error|status code 5\d\d/.test(text)) return "http_error";
  return "graphql_errors";
}

/** The library's clients throw on HTTP failures and GraphQL errors; sort them by what a log reader needs. */
function classifyThrown(error: unknown): ShopifyFailureCause {
  if (error instanceof CallTimeout) return "timeout";
  const e = error as { name?: string; message?: string; response?: { code?: number; statusCode?: number } ; body?: unknown };
  const text = `${e?.name ?? ""} ${e?.message ?? ""} ${JSON.stringify(e?.body ?? e?.response ?? "")}`;
  if (/AbortError|TimeoutError|aborted/i.test(text)) return "timeout";
  if (/no response available|fetch failed|ECONNRESET|ECONNREFUSED|socket hang up/i.test(text)) return "network_error";
  if (/THROTTLED|Throttl|429/i.test(text)) return "throttled";
  if (/HttpResponseError|HttpInternalError|HttpRetriableError|status code|5\d\d|4\d\d/i.test(text)) return "http_error";
  if (/GraphqlQueryError|GraphQL/i.test(text)) return "graphql_errors";
  return "network_error";
}
