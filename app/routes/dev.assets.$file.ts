import type { LoaderFunctionArgs } from "@remix-run/node";
import { devToolsEnabled, devToolsRefused } from "~/dev/dev-tools.server";
import { readAsset } from "~/dev/storefront/extension.server";

/**
 * GET /dev/assets/<file>: the theme app extension's assets (extensions/cod-verify/assets), served as
 * Shopify's CDN serves them to a theme, read fresh on each request so edits show on reload.
 * Local mode only; a 404 in production.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  if (!devToolsEnabled()) return devToolsRefused();
  const asset = readAsset(params.file ?? "");
  if (!asset) return devToolsRefused();
  return new Response(asset.body, { headers: { "Content-Type": asset.type, "Cache-Control": "no-cache" } });
}
