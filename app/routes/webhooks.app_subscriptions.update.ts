import { methodNotAllowed } from "~/http/responses.server";
import { webhookRoute } from "~/http/webhook.server";
import { applySubscriptionNotice } from "~/billing/subscription.server";
import { appSubscriptionPayload } from "~/core/shopify/webhook-payloads";
import { log } from "~/core/utils/log.server";
import { requestEnforcementSync } from "~/enforcement/enforcement-jobs.server";

/**
 * app_subscriptions/update: keeps Shop.subscriptionStatus current, which send-otp's billing gate
 * reads (no call to Shopify on that path). The notice only says "look": the state recorded is the one
 * the header's shop reports when asked (app/billing/subscription.server.ts), so a notice replayed under
 * another shop's header, or an old one, records that shop's true state. Shopify not answering: 503, and
 * Shopify delivers the notice again.
 */
export const webhook = webhookRoute("app_subscriptions/update", async ({ shop, payload }) => {
  const parsed = appSubscriptionPayload.safeParse(payload);
  if (!parsed.success) {
    log.warn("webhook: app_subscriptions/update without a usable app_subscription", { shop });
    return "done";
  }
  const change = await applySubscriptionNotice(shop, parsed.data.app_subscription.admin_graphql_api_id);
  if (!change) return "retry";
  log.info("webhook: subscription read back", { shop, status: change.status, source: change.source, applied: change.applied });
  // Hiding COD follows the plan (no plan, no codes, so COD must not be hidden): a durable job.
  if (change.applied) await requestEnforcementSync(shop, "subscription_updated");
  return "done";
});

export const action = webhook.action;

export async function loader() {
  return methodNotAllowed(["POST"]);
}
