import { createHmac, timingSafeEqual } from "node:crypto";
import type { Session } from "@shopify/shopify-api";
import { authenticate, sessionStorage } from "~/core/shopify/app.server";
import { env } from "~/core/env.server";
import { jsonError } from "~/http/responses.server";
import { getShop, type Shop } from "~/core/settings/shop.server";
import { prepareDatabase } from "~/core/db.server";
import { wireRequest, type WireRequest } from "~/http/storefront.server";

export type ProxyContext = {
  shop: Shop;
  session: Session;
  /** The shopper's logged-in customer id, when Shopify sends one ("" means a guest). */
  loggedInCustomerId: string | null;
  /** The storefront path prefix Shopify used, e.g. /apps/cod. */
  pathPrefix: string | null;
};

/**
 * The guard every signed storefront route starts with. It verifies the app-proxy signature as
 * `authenticate.public.appProxy` does (see verifyAppProxySignature: stale timestamps and repeated
 * single-value params are refused), loads the shop's offline session from the app's session storage
 * as the library does, and maps failures to the storefront contract:
 *   401 `invalid_signature` for a missing, wrong, stale or ambiguous signature, or a `shop` that is
 *     not a shop domain,
 *   403 `app_not_installed` for a validly signed request from a shop without our app.
 * The signature proves the request came through the shop's storefront, never who the shopper is.
 * Why the check is done here rather than by the library: docs/decisions/app-proxy-signature.md.
 */
export async function authenticateProxy(incoming: Request | WireRequest): Promise<ProxyContext> {
  const request = wireRequest(incoming);
  await prepareDatabase();
  const { url } = request;
  if (!verifyAppProxySignature(url.searchParams, env.SHOPIFY_API_SECRET)) {
    throw jsonError(401, "invalid_signature", "The request's app-proxy signature is missing, invalid or expired.");
  }
  const domain = url.searchParams.get("shop") ?? "";
  // A correctly signed request can still name something that is not a shop domain (empty,
  // `evil.com`, control characters): as far as the contract goes that is a bad signature, not a shop.
  if (!shopDomainPattern().test(domain)) {
    throw jsonError(401, "invalid_signature", "The request's app-proxy signature is missing, invalid or expired.");
  }
  const session = await offlineSession(request, domain);
  const shop = session ? await getShop(domain) : null;
  if (!session || !shop || shop.uninstalledAt) {
    throw jsonError(403, "app_not_installed", "This shop has not installed the app.");
  }
  return {
    shop,
    session,
    loggedInCustomerId: url.searchParams.get("logged_in_customer_id") || null,
    pathPrefix: url.searchParams.get("path_prefix"),
  };
}

let shopPattern: RegExp | null = null;

/** Shop domains as the library's sanitizeShop accepts them (its offline session id is `offline_<shop>`). */
export function shopDomainPattern(): RegExp {
  const domains = ["myshopify\\.com", "shopify\\.com", "myshopify\\.io", "shop\\.dev"];
  if (env.SHOP_CUSTOM_DOMAIN) domains.push(env.SHOP_CUSTOM_DOMAIN);
  return (shopPattern ??= new RegExp(`^[a-zA-Z0-9][a-zA-Z0-9-_]*\\.(${domains.join("|")})$`));
}

/** The shop's offline session, loaded from the app's session storage under the library's id for it. */
async function offlineSession(request: WireRequest, domain: string): Promise<Session | undefined> {
  if (!shopDomainPattern().test(domain)) return undefined;
  let session = await sessionStorage.loadSession(`offline_${domain}`);
  // An expiring offline token about to lapse: the library's own path refreshes it.
  if (session?.refreshToken && session.isExpired(5 * 60_000)) {
    ({ session } = await authenticate.public.appProxy(request.toRequest()));
  }
  return session;
}

/** Shopify signs these once each; a repeat makes the request ambiguous (the library refuses it too). */
const SINGLE_VALUE_PARAMS = new Set(["hmac", "shop", "signature", "timestamp"]);
const TIMESTAMP_TOLERANCE_SECONDS = 90;

/**
 * Shopify's app-proxy signature, checked exactly as `@shopify/shopify-api`'s `validateHmac` with the
 * `appProxy` signator checks it, with node:crypto: every parameter but `signature` (and an empty
 * `index`), repeated values joined by ",", sorted by key (localeCompare), `key=value` concatenated,
 * HMAC-SHA256 hex under the app's secret, compared in constant time; the timestamp must be an integer
 * within 90 seconds of now. A unit test holds it to the library's verdict on the same inputs.
 */
export function verifyAppProxySignature(params: URLSearchParams, secret: string, nowSeconds = Math.trunc(Date.now() / 1000)): boolean {
  const query = new Map<string, string>();
  for (const [key, value] of params) {
    if (key === "index" && !params.get("index")) continue;
    const existing = query.get(key);
    if (existing === undefined) query.set(key, value);
    else if (SINGLE_VALUE_PARAMS.has(key)) return false;
    else query.set(key, `${existing},${value}`);
  }
  const signature = query.get("signature");
  if (!signature) return false;
  const stamp = query.get("timestamp");
  const timestamp = Number(stamp);
  if (stamp === undefined || !Number.isInteger(timestamp)) return false;
  if (Math.abs(nowSeconds - timestamp) > TIMESTAMP_TOLERANCE_SECONDS) return false;
  const signed: string[] = [];
  for (const key of query.keys()) if (key !== "signature" && key !== "hmac") signed.push(key);
  signed.sort((a, b) => a.localeCompare(b));
  let message = "";
  for (const key of signed) message += `${key}=${query.get(key)}`;
  const given = Buffer.from(signature, "utf8");
  const wanted = Buffer.from(createHmac("sha256", secret).update(message).digest("hex"), "utf8");
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
