import { z } from "zod";
import { env } from "~/core/env.server";
import { shopDomainPattern } from "~/http/app-proxy.server";
import { describeIssues, MAX_JSON_BODY_BYTES } from "~/http/json-body.server";
import { jsonError, methodNotAllowed } from "~/http/responses.server";
import { parseWellFormed, verifyWebhookHmac } from "~/http/webhook.server";

/**
 * The door of Shopify Flow's action requests (POST to an action's runtime_url). Flow signs each one as it
 * signs webhooks: `X-Shopify-Hmac-Sha256`, the base64 HMAC-SHA256 of the raw body under the app's client
 * secret (shopify.dev "Create Flow action endpoints", "Verifying requests"; `@shopify/shopify-api`'s
 * `flow.validate` checks the same header the same way). Checked here with the webhooks' own verifier
 * rather than `authenticate.flow`, which answers every refusal as an empty 400 and loads a session the
 * actions do not use: each refusal is a JSON error (405, 413, 401 `invalid_hmac`, 400 `invalid_request`).
 */
const actionBody = z.object({
  shop_id: z.union([z.string().max(30), z.number()]).optional(),
  shopify_domain: z.string().max(255),
  action_run_id: z.string().min(1).max(200),
  action_definition_id: z.string().max(200).optional(),
  handle: z.string().min(1).max(30),
  properties: z.record(z.unknown()).default({}),
});

export type FlowActionRequest = { shop: string; actionRunId: string; handle: string; properties: Record<string, unknown> };

export async function authenticateFlowAction(request: Request): Promise<FlowActionRequest> {
  if (request.method !== "POST") throw methodNotAllowed(["POST"]);
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_JSON_BODY_BYTES) throw tooLarge();
  const raw = await request.text();
  if (Buffer.byteLength(raw) > MAX_JSON_BODY_BYTES) throw tooLarge();
  const hmac = request.headers.get("x-shopify-hmac-sha256");
  if (!raw.length || !hmac || !verifyWebhookHmac(raw, hmac, env.SHOPIFY_API_SECRET)) {
    throw jsonError(401, "invalid_hmac", "The request's X-Shopify-Hmac-Sha256 is missing or wrong.");
  }
  let body: unknown;
  try {
    body = parseWellFormed(raw);
  } catch {
    throw jsonError(400, "invalid_request", "The body is not valid JSON.", { fields: { body: "malformed JSON" } });
  }
  const parsed = actionBody.safeParse(body);
  if (!parsed.success) throw jsonError(400, "invalid_request", "Some fields are missing or invalid.", { fields: describeIssues(parsed.error) });
  if (!shopDomainPattern().test(parsed.data.shopify_domain)) throw jsonError(400, "invalid_request", "shopify_domain is not a shop domain.", { fields: { shopify_domain: "not a shop domain" } });
  return { shop: parsed.data.shopify_domain, actionRunId: parsed.data.action_run_id, handle: parsed.data.handle, properties: parsed.data.properties };
}

function tooLarge() {
  return jsonError(413, "payload_too_large", `The body is larger than ${MAX_JSON_BODY_BYTES} bytes.`);
}
