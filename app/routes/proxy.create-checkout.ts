import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { authenticateProxy } from "~/http/app-proxy.server";
import { readJsonBody } from "~/http/json-body.server";
import { outcomeResponse } from "~/http/outcomes.server";
import { answer, json, methodNotAllowed } from "~/http/responses.server";
import { shopperIp } from "~/http/shopper-ip.server";
import { createCheckoutBody } from "~/checkout/checkout-request";
import { checkoutForShopper, type ShopperCheckoutOutcome } from "~/checkout/shopper-checkout.server";

/**
 * POST /proxy/create-checkout { variantId | lines[], quantity?, selectedMode, phone, productTitle?, cartToken?, proof?, deviceToken? }
 * 200 { checkoutUrl } | 200 { fallback: true, proof? } | 400 invalid_request | 403 phone_not_verified | 403 phone_blocked
 * | 403 cod_not_allowed { allowedModes, risk: { band, reasons } } (a high-risk shopper: docs/risk.md).
 */
export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const { shop, session } = await authenticateProxy(request);
    const body = await readJsonBody(request, createCheckoutBody);
    return respond(await checkoutForShopper({ shop, accessToken: session.accessToken, body, buyerIp: shopperIp(request) }));
  });
}

export async function loader(_args: LoaderFunctionArgs) {
  return methodNotAllowed(["POST"]);
}

function respond(outcome: ShopperCheckoutOutcome): Response {
  switch (outcome.kind) {
    case "not_verified":
      return outcomeResponse("phone_not_verified");
    case "phone_blocked":
      return outcomeResponse("phone_blocked");
    case "cod_not_allowed":
      return outcomeResponse("cod_not_allowed", { extra: outcome.choice });
    case "fallback":
      return json({ fallback: true, ...(outcome.proof ? { proof: outcome.proof } : {}) });
    case "checkout":
      return json({ checkoutUrl: outcome.checkoutUrl });
  }
}
