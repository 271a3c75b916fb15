import { abstractFetch, setAbstractFetchFunc } from "@shopify/shopify-api/runtime";

const original = abstractFetch;

/**
 * Sends the Shopify library's Admin and Storefront API calls to another origin (a stand-in server in
 * local mode and tests) instead of https://<shop>/...: https://<shop>/admin/api/2026-10/graphql.json
 * becomes <origin>/<shop>/admin/api/2026-10/graphql.json. The library's own clients still run; only the
 * HTTP edge moves. Never enabled in production (env.server.ts refuses SHOPIFY_API_ORIGIN there).
 * Calling it again points at the new origin; `null` restores the real one.
 */
export function redirectShopifyApi(origin: string | null) {
  if (!origin) {
    setAbstractFetchFunc(original);
    return;
  }
  const target = origin.replace(/\/$/, "");
  setAbstractFetchFunc(async (input, init) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    if (url.pathname.startsWith("/admin/") || url.pathname.startsWith("/api/")) {
      return original(`${target}/${url.hostname}${url.pathname}${url.search}`, init);
    }
    return original(input, init);
  });
}
