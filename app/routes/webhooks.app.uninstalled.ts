import type { ActionFunctionArgs } from "@remix-run/node";
import { uninstallShop } from "~/privacy/privacy.server";
import { authenticate } from "~/shopify/app.server";
import { recordDelivery } from "~/shopify/webhook-deliveries.server";

/**
 * app/uninstalled: the shop's sessions are removed and the shop is marked uninstalled.
 * Its data stays until Shopify sends shop/redact (48 hours later), in case the merchant reinstalls.
 * Idempotent: a redelivery (or a late one) keeps the first uninstall time.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { shop, topic, webhookId } = await authenticate.webhook(request);
  await uninstallShop(shop);
  await recordDelivery(webhookId, topic, shop);
  return new Response(null, { status: 200 });
}
