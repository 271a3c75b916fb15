import type { ActionFunctionArgs } from "@remix-run/node";
import { answer, methodNotAllowed } from "~/http/responses.server";
import { authenticateWebhook } from "~/http/webhook.server";
import { customerDataReport, orderGidsOf, orderIdsIn } from "~/privacy/privacy.server";
import { recordDelivery } from "~/shopify/webhook-deliveries.server";
import { customerPrivacyPayload } from "~/shopify/webhook-payloads";
import { log } from "~/utils/log.server";

/**
 * customers/data_request (mandatory): reports what the app holds for the customer's phone and the
 * requested orders, as one structured log line (phones masked) for the merchant to forward.
 */
export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    const raw = await request.clone().text();
    const { shop, topic, webhookId, payload } = await authenticateWebhook(request, "customers/data_request");
    // A payload without a readable customer still reports by the requested orders.
    const parsed = customerPrivacyPayload.safeParse(payload);
    const body = parsed.success ? parsed.data : null;
    const report = await customerDataReport(shop, body?.customer?.phone, orderGidsOf(orderIdsIn(raw, "orders_requested")));
    log.info("customers/data_request report", {
      shop,
      dataRequestId: body?.data_request?.id ?? null,
      webhookId,
      records: {
        verifiedMarks: report.verifiedMarks.length,
        selections: report.selections.length,
        pendingCodes: report.pendingCodes.length,
        blocklistEntries: report.blocklistEntries.length,
        messages: report.messages.length,
        addressCorrections: report.addressCorrections.length,
        orderConfirmations: report.orderConfirmations.length,
      },
      report: JSON.stringify(report).replace(/\+\d{6,15}/g, (p) => `${p.slice(0, 5)}•••${p.slice(-4)}`),
    });
    await recordDelivery(webhookId, topic, shop);
    return new Response(null, { status: 200 });
  }, "webhooks/customers/data_request");
}

export async function loader() {
  return methodNotAllowed(["POST"]);
}
