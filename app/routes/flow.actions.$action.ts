import type { ActionFunctionArgs } from "@remix-run/node";
import { FLOW_ACTIONS, runFlowAction, type FlowActionOutcome, type FlowActionPath } from "~/orders/flow-actions.server";
import { authenticateFlowAction } from "~/http/flow-action.server";
import { answer, json, jsonError, methodNotAllowed } from "~/http/responses.server";

/**
 * POST /flow/actions/:action: the runtime URL of the app's Shopify Flow actions (docs/flow.md). Flow
 * counts only a 200 as done; it retries a 429 (after Retry-After) and a 5xx, and marks any other 4xx
 * failed for the merchant to see in the workflow's run.
 */
const REFUSALS: Record<Exclude<FlowActionOutcome, { ok: true }>["code"], { status: number; error: string }> = {
  handle_mismatch: { status: 400, error: "The request's handle is not this action's." },
  app_not_installed: { status: 403, error: "The app is not installed on this shop, or its plan is not active." },
  invalid_order: { status: 400, error: "properties.order_id must be the order's id." },
  order_not_found: { status: 404, error: "The app has no record of this order in this shop (it records the orders placed while it is installed)." },
  order_not_in_shopify: { status: 404, error: "The app recorded this order, but Shopify no longer has it in this shop." },
  no_phone: { status: 422, error: "The order has no phone number the app can use." },
  not_pending: { status: 409, error: "The order has no confirmation waiting for the shopper." },
  recently_sent: { status: 409, error: "The confirmation was sent less than a minute ago." },
  order_not_editable: { status: 409, error: "The order is fulfilled, cancelled or closed; its address can no longer change." },
  rate_limited: { status: 429, error: "Too many address links for this order or number; Flow will try again later." },
  unavailable: { status: 503, error: "Shopify or the SMS provider did not answer; Flow will try again." },
};

export async function action({ request, params }: ActionFunctionArgs) {
  return answer(async () => {
    const path = params.action as FlowActionPath;
    if (!(path in FLOW_ACTIONS)) return jsonError(404, "not_found", "No such Flow action.");
    const verified = await authenticateFlowAction(request);
    const outcome = await runFlowAction(path, verified);
    if (outcome.ok) return json({ status: outcome.status });
    const refusal = REFUSALS[outcome.code];
    const retryAfter = outcome.code === "rate_limited" ? outcome.retryAfter : outcome.code === "unavailable" ? 30 : undefined;
    return jsonError(refusal.status, outcome.code, refusal.error, retryAfter ? { retryAfter } : {}, retryAfter ? { "Retry-After": String(retryAfter) } : undefined);
  }, "flow/actions");
}

export async function loader() {
  return methodNotAllowed(["POST"]);
}
