import { InvalidShopError } from "@shopify/shopify-api";
import { authenticate } from "~/shopify/app.server";
import { jsonError, methodNotAllowed } from "~/http/responses.server";

export type WebhookContext = Awaited<ReturnType<typeof authenticate.webhook>> & { payload: Record<string, unknown> };

/**
 * `authenticate.webhook` with every refusal as a JSON error (the library throws empty responses and,
 * for a correctly signed delivery it cannot use, plain errors):
 *   405 `method_not_allowed` (with Allow) for anything but POST;
 *   401 `invalid_hmac` for a missing or wrong HMAC;
 *   400 `invalid_request` for missing Shopify headers, a shop header that is not a shop domain, or a
 *     body that is not a JSON object: a retry cannot fix those, and nothing is stored for them.
 * Database failures pass through to the route's `answer`, which turns them into 503 (Shopify retries).
 */
export async function authenticateWebhook(request: Request): Promise<WebhookContext> {
  if (request.method !== "POST") throw methodNotAllowed(["POST"]);
  let context: Awaited<ReturnType<typeof authenticate.webhook>>;
  try {
    context = await authenticate.webhook(request);
  } catch (thrown) {
    if (thrown instanceof Response) {
      if (thrown.status === 401) throw jsonError(401, "invalid_hmac", "The webhook's HMAC is missing or wrong.");
      if (thrown.status === 405) throw methodNotAllowed(["POST"]);
      if (thrown.status < 500) throw badDelivery("The webhook is missing Shopify's headers.");
      throw thrown;
    }
    if (thrown instanceof InvalidShopError || (thrown as Error)?.name === "InvalidShopError") {
      throw badDelivery("The webhook's shop header is not a shop domain.");
    }
    if (thrown instanceof SyntaxError) throw badDelivery("The webhook's body is not JSON.");
    throw thrown;
  }
  const { payload } = context;
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) {
    throw badDelivery("The webhook's body must be a JSON object.");
  }
  return context as WebhookContext;
}

function badDelivery(message: string) {
  return jsonError(400, "invalid_request", message);
}
