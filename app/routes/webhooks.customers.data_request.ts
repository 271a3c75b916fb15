import { methodNotAllowed } from "~/http/responses.server";
import { webhookRoute } from "~/http/webhook.server";
import { answerDataRequest } from "~/privacy/data-requests.server";
import { orderIdsIn } from "~/privacy/privacy.server";
import { recordDelivery } from "~/core/shopify/webhook-deliveries.server";
import { customerPrivacyPayload } from "~/core/shopify/webhook-payloads";
import { log } from "~/core/utils/log.server";

/**
 * customers/data_request (mandatory): stores a report of what the app holds for the customer's phone and
 * the requested orders, which the merchant reads and downloads on the admin's Data requests page. One
 * report per request, however often Shopify delivers it.
 */
export const webhook = webhookRoute("customers/data_request", async ({ shop, topic, webhookId, payload, rawBody }) => {
  // A payload without a readable customer still reports by the requested orders.
  const parsed = customerPrivacyPayload.safeParse(payload);
  const body = parsed.success ? parsed.data : null;
  const id = body?.data_request?.id;
  const stored = await answerDataRequest(shop, {
    dataRequestId: id === null || id === undefined ? null : String(id),
    webhookId,
    customer: {
      id: body?.customer?.id === null || body?.customer?.id === undefined ? null : String(body.customer.id),
      email: body?.customer?.email ?? null,
      phone: body?.customer?.phone ?? null,
    },
    orderIds: orderIdsIn(rawBody, "orders_requested"),
  });
  log.info("customers/data_request stored", { shop, dataRequestId: id ?? null, webhookId, stored: stored?.stored ?? null, records: stored?.records ?? null });
  await recordDelivery(webhookId, topic, shop);
  return "done";
});

export const action = webhook.action;

export async function loader() {
  return methodNotAllowed(["POST"]);
}
