import type { ActionFunctionArgs } from "@remix-run/node";
import { authenticate } from "~/shopify/app.server";
import { applyShopUpdate } from "~/settings/shop.server";
import { log } from "~/utils/log.server";

/**
 * shop/update: keeps the shop's primary domain (the host named on the code SMS's last line, which
 * WebOTP and Apple's autofill match against the storefront), name and currency current.
 * Replays are harmless: the same values are written again.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { shop, payload } = await authenticate.webhook(request);
  const applied = await applyShopUpdate(shop, payload);
  log.info("webhook: shop updated", { shop, fields: Object.keys(applied) });
  return new Response(null, { status: 200 });
}
