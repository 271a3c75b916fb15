import type { ActionFunctionArgs } from "@remix-run/node";
import { answer, methodNotAllowed } from "~/http/responses.server";
import { authenticateWebhook } from "~/http/webhook.server";
import { uninstallShop } from "~/privacy/privacy.server";
import { recordDelivery } from "~/core/shopify/webhook-deliveries.server";

/**
 * app/uninstalled: the shop's sessions are removed and the shop is marked uninstalled.
 * Its data stays until Shopify sends shop/redact (48 hours later), in case the merchant reinstalls.
 * Idempotent: a redelivery (or a late one) keeps the first uninstall time.
 */
export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    const { shop, topic, webhookId } = await authenticateWebhook(request, "app/uninstalled");
    await uninstallShop(shop);
    await recordDelivery(webhookId, topic, shop);
    return new Response(null, { status: 200 });
  }, "webhooks/app/uninstalled");
}

export async function loader() {
  return methodNotAllowed(["POST"]);
}
