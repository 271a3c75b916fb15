import type { Session } from "@shopify/shopify-api";
import { authenticate } from "~/shopify/app.server";
import { jsonError } from "~/http/responses.server";
import { getShop, type Shop } from "~/settings/shop.server";
import { prepareDatabase } from "~/db.server";

export type ProxyContext = {
  shop: Shop;
  session: Session;
  /** The shopper's logged-in customer id, when Shopify sends one ("" means a guest). */
  loggedInCustomerId: string | null;
  /** The storefront path prefix Shopify used, e.g. /apps/cod. */
  pathPrefix: string | null;
};

/**
 * The guard every signed storefront route starts with. It verifies the app-proxy signature through
 * `authenticate.public.appProxy` (which also rejects stale timestamps and repeated single-value
 * params) and maps its failures to the storefront contract:
 *   401 `invalid_signature` for a missing, wrong, stale or ambiguous signature,
 *   403 `app_not_installed` for a validly signed request from a shop without our app.
 * The signature proves the request came through the shop's storefront, never who the shopper is.
 */
export async function authenticateProxy(request: Request): Promise<ProxyContext> {
  await prepareDatabase();
  let session: Session | undefined;
  try {
    ({ session } = await authenticate.public.appProxy(request));
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status >= 400 && thrown.status < 500) {
      throw jsonError(401, "invalid_signature", "The request's app-proxy signature is missing, invalid or expired.");
    }
    throw thrown;
  }
  const url = new URL(request.url);
  const domain = url.searchParams.get("shop") ?? "";
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
