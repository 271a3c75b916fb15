import type { ActionFunctionArgs } from "@remix-run/node";
import { answer, methodNotAllowed } from "~/http/responses.server";
import { authenticateWebhook } from "~/http/webhook.server";
import { redactShop } from "~/privacy/privacy.server";
import { recordDelivery } from "~/shopify/webhook-deliveries.server";
import { log } from "~/utils/log.server";

/** shop/redact (mandatory, 48 h after uninstall): deletes everything the app holds for the shop. Idempotent. */
export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    const { shop, topic, webhookId } = await authenticateWebhook(request);
    const deleted = await redactShop(shop);
    log.info("shop/redact done", { shop, webhookId, deleted });
    await recordDelivery(webhookId, topic, shop);
    return new Response(null, { status: 200 });
  }, "webhooks/shop/redact");
}

export async function loader() {
  return methodNotAllowed(["POST"]);
}
