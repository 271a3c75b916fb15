import { methodNotAllowed } from "~/http/responses.server";
import { webhookRoute } from "~/http/webhook.server";
import { orderGidsOf, orderIdsIn, redactCustomer } from "~/privacy/privacy.server";
import { recordDelivery } from "~/core/shopify/webhook-deliveries.server";
import { customerPrivacyPayload } from "~/core/shopify/webhook-payloads";
import { log } from "~/core/utils/log.server";

/** customers/redact (mandatory): deletes the customer's verified mark and selections, by phone and by order. Idempotent. */
export const webhook = webhookRoute("customers/redact", async ({ shop, topic, webhookId, payload, rawBody }) => {
  // A payload without a readable customer still redacts by the orders.
  const parsed = customerPrivacyPayload.safeParse(payload);
  const customer = parsed.success ? parsed.data.customer : null;
  const customerId = customer?.id === null || customer?.id === undefined ? null : String(customer.id);
  const deleted = await redactCustomer(shop, customer?.phone, orderGidsOf(orderIdsIn(rawBody, "orders_to_redact")), customerId);
  log.info("customers/redact done", { shop, webhookId, deleted });
  await recordDelivery(webhookId, topic, shop);
  return "done";
});

export const action = webhook.action;

export async function loader() {
  return methodNotAllowed(["POST"]);
}
