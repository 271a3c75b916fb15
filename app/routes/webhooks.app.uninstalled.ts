import type { ActionFunctionArgs } from "@remix-run/node";
import { authenticate, sessionStorage } from "~/shopify.server";
import { prisma } from "~/db.server";
import { forgetShop } from "~/shops/shop.server";

/**
 * app/uninstalled: the shop's sessions are removed and the shop is marked uninstalled.
 * Its data stays until Shopify sends shop/redact (48 hours later), in case the merchant reinstalls.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { shop } = await authenticate.webhook(request);
  await prisma.session.deleteMany({ where: { shop } });
  sessionStorage.forgetShop(shop);
  await prisma.shop.updateMany({ where: { domain: shop }, data: { uninstalledAt: new Date() } });
  forgetShop(shop);
  return new Response(null, { status: 200 });
}
