import type { ActionFunctionArgs } from "@remix-run/node";
import { answer, methodNotAllowed } from "~/http/responses.server";
import { authenticateWebhook } from "~/http/webhook.server";
import { recordSubscriptionUpdate } from "~/billing/subscription.server";
import { appSubscriptionPayload } from "~/core/shopify/webhook-payloads";
import { log } from "~/core/utils/log.server";
import { requestEnforcementSync } from "~/enforcement/enforcement-jobs.server";

/**
 * app_subscriptions/update: keeps Shop.subscriptionStatus current, which send-otp's billing gate
 * reads (no call to Shopify on that path). Replays are harmless: the same state is written again.
 */
export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    const { shop, payload } = await authenticateWebhook(request, "app_subscriptions/update");
    const parsed = appSubscriptionPayload.safeParse(payload);
    if (!parsed.success) {
      log.warn("webhook: app_subscriptions/update without a usable app_subscription", { shop });
      return new Response(null, { status: 200 });
    }
    const { admin_graphql_api_id: id, name, status } = parsed.data.app_subscription;
    const applied = await recordSubscriptionUpdate(shop, { id, name, status });
    log.info("webhook: subscription updated", { shop, status, applied });
    // Hiding COD follows the plan (no plan, no codes, so COD must not be hidden): a durable job.
    if (applied) await requestEnforcementSync(shop, "subscription_updated");
    return new Response(null, { status: 200 });
  }, "webhooks/app_subscriptions/update");
}

export async function loader() {
  return methodNotAllowed(["POST"]);
}
