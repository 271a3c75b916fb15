import { devToolsEnabled, devToolsRefused } from "~/dev/dev-tools.server";
import { themeCartRequest } from "~/dev/storefront/theme-cart.server";
import { json } from "~/http/responses.server";

/**
 * GET /cart.js: the theme's cart of the local storefront, as Shopify's cart AJAX API answers it
 * (the modal reads its lines and token). Local mode only; a 404 in production.
 */
export async function loader({ request }: { request: Request }) {
  if (!devToolsEnabled()) return devToolsRefused();
  const { cart, setCookie } = themeCartRequest(request);
  return json(cart, { headers: setCookie ? { "Set-Cookie": setCookie } : {} });
}
