import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requestCorrectionFromStorefront } from "~/address-correction/address-correction.server";
import { authenticateProxy } from "~/http/app-proxy.server";
import { readJsonBody } from "~/http/json-body.server";
import { outcomeResponse } from "~/http/outcomes.server";
import { answer, json, methodNotAllowed } from "~/http/responses.server";

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
    const outcome = await requestCorrectionFromStorefront(shop, input, pathPrefix);
    if (outcome.ok) return json({ status: outcome.status, expiresAt: outcome.expiresAt.toISOString() });
    const retryAfter = outcome.code === "rate_limited" ? outcome.retryAfter : undefined;
    return outcomeResponse(outcome.code, { retryAfter, wording: "correction" });
  });
}

export async function loader() {
  return methodNotAllowed(["POST"]);
}
