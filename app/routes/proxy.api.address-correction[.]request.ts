import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requestAddressCorrection } from "~/address-correction/address-correction.server";
import { normalizePhone } from "~/otp/phone";
import { authenticateProxy } from "~/http/app-proxy.server";
import { readJsonBody } from "~/http/json-body.server";
import { answer, json, jsonError, methodNotAllowed } from "~/http/responses.server";

const body = z
  .object({
    orderId: z.union([z.string().min(1).max(64), z.number().int().positive().safe()]).optional(),
    phone: z.string().max(32).optional(),
    locale: z.string().max(16).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.orderId === undefined && v.phone === undefined) {
      ctx.addIssue({ code: "custom", path: ["orderId"], message: "give orderId or phone" });
    }
  });

/**
 * POST /proxy/api/address-correction.request { orderId } | { phone }: texts the order's phone a
 * single-use link to the address form. 200 { status: "sent" | "already_pending", expiresAt }.
 */
export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const { shop, pathPrefix } = await authenticateProxy(request);
    const input = await readJsonBody(request, body);
    let phone: string | undefined;
    if (input.orderId === undefined && input.phone !== undefined) {
      phone = normalizePhone(input.phone) ?? undefined;
      if (!phone) return jsonError(400, "invalid_phone", "The phone number must be in E.164 form: + and 10 to 15 digits.");
    }
    const outcome = await requestAddressCorrection(
      shop,
      { orderId: input.orderId === undefined ? undefined : String(input.orderId), phone, locale: input.locale },
      { pathPrefix },
    );
    if (outcome.ok) return json({ status: outcome.status, expiresAt: outcome.expiresAt.toISOString() });
    switch (outcome.code) {
      case "rate_limited":
        return jsonError(429, "rate_limited", "Too many correction requests for this order or number; try again later.", { retryAfter: outcome.retryAfter }, { "Retry-After": String(outcome.retryAfter) });
      case "subscription_required":
        return jsonError(402, "subscription_required", "The shop has no active subscription; a plan must be approved in the app.");
      case "order_not_found":
        return jsonError(404, "order_not_found", "No open order matches this order id or phone.");
      case "order_not_editable":
        return jsonError(409, "order_not_editable", "The order is fulfilled, cancelled or closed; its address can no longer change.");
      case "order_has_no_phone":
        return jsonError(422, "order_has_no_phone", "The order has no phone number to send the link to.");
      case "phone_unreachable":
        return jsonError(400, "phone_unreachable", "The SMS provider cannot reach the order's phone number.");
      case "sms_unavailable":
        return jsonError(502, "sms_unavailable", "The SMS provider is unavailable; try again shortly.");
      case "shopify_unavailable":
        return jsonError(502, "shopify_unavailable", "Shopify did not answer; try again shortly.");
    }
  });
}

export async function loader() {
  return methodNotAllowed(["POST"]);
}
