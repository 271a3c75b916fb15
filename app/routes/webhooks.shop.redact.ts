import type { ActionFunctionArgs } from "@remix-run/node";
import { authenticate } from "~/shopify/app.server";
import { redactShop } from "~/privacy/privacy.server";
import { recordDelivery } from "~/shopify/webhook-deliveries.server";
import { log } from "~/utils/log.server";

/** shop/redact (mandatory, 48 h after uninstall): deletes everything the app holds for the shop. Idempotent. */
export async function action({ request }: ActionFunctionArgs) {
  const { shop, topic, webhookId } = await authenticate.webhook(request);
  const deleted = await redactShop(shop);
  log.info("shop/redact done", { shop, webhookId, deleted });
  await recordDelivery(webhookId, topic, shop);
  return new Response(null, { status: 200 });
}
