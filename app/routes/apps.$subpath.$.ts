import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { devToolsEnabled, devToolsRefused } from "~/dev/dev-tools.server";
import { forwardThroughProxy, selfOrigin } from "~/dev/storefront/proxy-emulation.server";
import { env } from "~/core/env.server";

/**
 * /apps/<subpath>/* (every method): Shopify's app proxy, emulated for the local storefront. The
 * request is signed with the app's secret for the demo shop exactly as Shopify signs it and forwarded
 * to the matching /proxy/* route of this server; the answer comes back as Shopify would relay it.
 * Local mode only; a 404 in production (it would sign anything for anyone).
 */
async function emulate({ request, params }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (!devToolsEnabled() || params.subpath !== env.APP_PROXY_SUBPATH) return devToolsRefused();
  // Only ever forward under /proxy: no dot segments that would climb out of it.
  if ((params["*"] ?? "").split("/").some((segment) => segment === ".." || segment === ".")) return devToolsRefused();
  return forwardThroughProxy(request, params["*"] ?? "", { appOrigin: selfOrigin(request) });
}

export const loader = emulate;
export const action = emulate;
