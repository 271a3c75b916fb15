import type { LoaderFunctionArgs } from "@remix-run/node";
import { correctionStatus } from "~/address-correction/address-correction.server";
import { authenticateProxy } from "~/http/app-proxy.server";
import { answer, json, jsonError, methodNotAllowed } from "~/http/responses.server";

/**
 * GET /proxy/api/address-correction.status?token=...: 200 { status: "pending" | "completed" | "expired" },
 * 404 not_found for an unknown token.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return answer(async () => {
    const { shop } = await authenticateProxy(request);
    const token = new URL(request.url).searchParams.get("token");
    if (!token) return jsonError(400, "invalid_request", "Give the token.", { fields: { token: "required" } });
    const found = await correctionStatus(shop, token);
    if (!found) return jsonError(404, "not_found", "No address correction has this token.");
    return json({ ...found, expiresAt: found.expiresAt.toISOString() });
  });
}

/** Read-only: any other method gets the contract's 405. */
export async function action() {
  return methodNotAllowed(["GET"]);
}
