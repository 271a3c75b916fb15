import { methodNotAllowed } from "~/http/responses.server";
import { webhookRoute } from "~/http/webhook.server";
import { uninstallShop } from "~/privacy/privacy.server";
import { recordDelivery } from "~/core/shopify/webhook-deliveries.server";

/**
 * app/uninstalled: the shop's sessions are removed and the shop is marked uninstalled.
 * Its data stays until Shopify sends shop/redact (48 hours later), in case the merchant reinstalls.
 * Idempotent: a redelivery (or a late one) keeps the first uninstall time.
 */
export const webhook = webhookRoute("app/uninstalled", async ({ shop, topic, webhookId }) => {
  await uninstallShop(shop);
  await recordDelivery(webhookId, topic, shop);
  return "done";
});

export const action = webhook.action;

export async function loader() {
  return methodNotAllowed(["POST"]);
}
