import type { LoaderFunctionArgs } from "@remix-run/node";
import { devToolsEnabled, devToolsRefused } from "~/dev/dev-tools.server";
import { renderStorefrontPage } from "~/dev/storefront/page.server";
import { LOCAL_DEFAULTS } from "~/server/app-proxy-signature.mjs";
import { env } from "~/core/env.server";

/**
 * GET /dev/storefront: a local product page carrying the theme app extension's block, so the modal
 * can be tried (and tested in Chromium) with no Shopify store. ?locale=ar|fr|es|hi, ?country=MA,
 * ?source=cart (the block set to buy the whole cart), ?currency=JPY&rate=150 (the cart's currency and Shopify's rate for it).
 * Local mode only; a 404 in production.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!devToolsEnabled()) return devToolsRefused();
  const url = new URL(request.url);
  const html = renderStorefrontPage({
    locale: url.searchParams.get("locale") ?? undefined,
    country: /^[A-Z]{2}$/.test(url.searchParams.get("country") ?? "") ? url.searchParams.get("country")! : undefined,
    basePath: `/apps/${env.APP_PROXY_SUBPATH}`,
    assetBase: "/dev/assets",
    shopDomain: LOCAL_DEFAULTS.shop,
    source: url.searchParams.get("source") === "cart" ? "cart" : "product",
    currency: /^[A-Z]{3}$/.test(url.searchParams.get("currency") ?? "") ? url.searchParams.get("currency")! : undefined,
    rate: Number(url.searchParams.get("rate")) > 0 ? Number(url.searchParams.get("rate")) : undefined,
  });
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}
