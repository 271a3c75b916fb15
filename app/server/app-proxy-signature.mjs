// Signs a request exactly as Shopify's app proxy does: HMAC-SHA256 (hex) keyed with the app's API
// secret over the query parameters other than `signature`, sorted by key, each `key=value` (repeated
// values joined by ","), concatenated with no separator. Used by `npm run proxy`, the local storefront
// emulation and the tests; a test checks that the library accepts what this produces.
import crypto from "node:crypto";

export const LOCAL_DEFAULTS = {
  secret: "local-dev-api-secret",
  shop: "demo-shop.myshopify.com",
  pathPrefix: "/apps/cod",
};

export function appProxySignature(params, secret) {
  const grouped = new Map();
  for (const [key, value] of params) {
    if (key === "signature") continue;
    grouped.set(key, [...(grouped.get(key) ?? []), value]);
  }
  const message = [...grouped.keys()]
    .sort((a, b) => a.localeCompare(b))
    .map((key) => `${key}=${grouped.get(key).join(",")}`)
    .join("");
  return crypto.createHmac("sha256", secret).update(message).digest("hex");
}

/**
 * The query string Shopify appends when it forwards https://<shop>/<prefix>/<path> to the app.
 * `extra` are the storefront request's own query parameters, which Shopify signs along.
 */
export function signedProxyQuery({
  shop = LOCAL_DEFAULTS.shop,
  secret = LOCAL_DEFAULTS.secret,
  pathPrefix = LOCAL_DEFAULTS.pathPrefix,
  loggedInCustomerId = "",
  timestamp = Math.floor(Date.now() / 1000),
  extra = [],
} = {}) {
  const params = new URLSearchParams();
  for (const [k, v] of extra) params.append(k, v);
  params.append("shop", shop);
  params.append("logged_in_customer_id", loggedInCustomerId);
  params.append("path_prefix", pathPrefix);
  params.append("timestamp", String(timestamp));
  params.append("signature", appProxySignature(params, secret));
  return params;
}
