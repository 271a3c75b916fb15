import { methodNotAllowed } from "~/http/responses.server";
import { webhookRoute } from "~/http/webhook.server";
import { redactShop, scheduleShopRedact } from "~/privacy/privacy.server";
import { recordDelivery } from "~/core/shopify/webhook-deliveries.server";
import { log } from "~/core/utils/log.server";

/**
 * shop/redact (mandatory, 48 h after uninstall): deletes everything the app holds for the shop. Every
 * signed delivery is answered 200, as Shopify's compliance checks expect. A shop that is installed (or
 * came back) keeps everything: the delivery is logged and does nothing. A shop uninstalled less than 48 h
 * ago keeps its data until then: the deletion is scheduled as a job for that moment (which deletes nothing
 * if the shop reinstalls first). Idempotent.
 */
export const webhook = webhookRoute("shop/redact", async ({ shop, topic, webhookId }) => {
  const outcome = await redactShop(shop);
  if (outcome.ok) {
    log.info("shop/redact done", { shop, webhookId, deleted: { shops: outcome.shops } });
  } else if (outcome.code === "redact_too_early") {
    await scheduleShopRedact(shop, outcome.dueAt);
    log.warn("shop/redact before its 48 hours: the deletion is scheduled", { shop, webhookId, dueAt: outcome.dueAt.toISOString() });
  } else {
    log.warn("shop/redact for an installed shop: nothing deleted", { shop, webhookId });
  }
  await recordDelivery(webhookId, topic, shop);
  return "done";
});

export const action = webhook.action;

export async function loader() {
  return methodNotAllowed(["POST"]);
}
