import type { ActionFunctionArgs } from "@remix-run/node";
import { answer, jsonError, methodNotAllowed } from "~/http/responses.server";
import { authenticateWebhook } from "~/http/webhook.server";
import { redactShop } from "~/privacy/privacy.server";
import { recordDelivery } from "~/core/shopify/webhook-deliveries.server";
import { log } from "~/core/utils/log.server";

/**
 * shop/redact (mandatory, 48 h after uninstall): deletes everything the app holds for the shop. Idempotent.
 * Refused with 409 (`shop_installed`, `redact_too_early`) while the shop is installed or within 48 h of
 * its uninstall; nothing is deleted and the delivery is not recorded, so Shopify's retry is judged anew.
 */
export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    const { shop, topic, webhookId } = await authenticateWebhook(request, "shop/redact");
    const outcome = await redactShop(shop);
    if (!outcome.ok) {
      log.warn("shop/redact refused", { shop, webhookId, code: outcome.code });
      return jsonError(409, outcome.code, REFUSED[outcome.code]);
    }
    log.info("shop/redact done", { shop, webhookId, deleted: { shops: outcome.shops } });
    await recordDelivery(webhookId, topic, shop);
    return new Response(null, { status: 200 });
  }, "webhooks/shop/redact");
}

const REFUSED = {
  shop_installed: "The shop has the app installed; its data is not redacted.",
  redact_too_early: "The shop was uninstalled less than 48 hours ago; its data is kept until then.",
} as const;

export async function loader() {
  return methodNotAllowed(["POST"]);
}
