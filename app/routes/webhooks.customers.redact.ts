import type { ActionFunctionArgs } from "@remix-run/node";
import { answer, methodNotAllowed } from "~/http/responses.server";
import { authenticateWebhook } from "~/http/webhook.server";
import { orderGidsOf, orderIdsIn, redactCustomer } from "~/privacy/privacy.server";
import { recordDelivery } from "~/core/shopify/webhook-deliveries.server";
import { customerPrivacyPayload } from "~/core/shopify/webhook-payloads";
import { log } from "~/core/utils/log.server";

/** customers/redact (mandatory): deletes the customer's verified mark and selections, by phone and by order. Idempotent. */
export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    const raw = await request.clone().text();
    const { shop, topic, webhookId, payload } = await authenticateWebhook(request, "customers/redact");
    // A payload without a readable customer still redacts by the orders.
    const parsed = customerPrivacyPayload.safeParse(payload);
    const customer = parsed.success ? parsed.data.customer : null;
    const customerId = customer?.id === null || customer?.id === undefined ? null : String(customer.id);
    const deleted = await redactCustomer(shop, customer?.phone, orderGidsOf(orderIdsIn(raw, "orders_to_redact")), customerId);
    log.info("customers/redact done", { shop, webhookId, deleted });
    await recordDelivery(webhookId, topic, shop);
    return new Response(null, { status: 200 });
  }, "webhooks/customers/redact");
}

export async function loader() {
  return methodNotAllowed(["POST"]);
}
