import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { authenticateProxy } from "~/http/app-proxy.server";
import { readJsonBody } from "~/http/json-body.server";
import { outcomeResponse } from "~/http/outcomes.server";
import { answer, json, methodNotAllowed } from "~/http/responses.server";
import { createCheckoutBody } from "~/checkout/checkout-request";
import { createCheckout } from "~/checkout/checkout.server";
import { shopperIp } from "~/http/shopper-ip.server";
import { log } from "~/core/utils/log.server";
import { countCodRefused, publicRisk } from "~/risk/assess.server";
import { allowedModesFor } from "~/risk/score";
import { chosenModes } from "~/shared/payment-modes";

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
    let outcome;
    try {
      outcome = await createCheckout({ shop, accessToken: session.accessToken, body, buyerIp: shopperIp(request) });
    } catch (error) {
      // Even our own failure (the database, a bug) must not stop the sale: the store's checkout takes over.
      log.error("create-checkout failed unexpectedly; answering fallback", { shop: shop.domain, error: String(error) });
      return json({ fallback: true });
    }
    if (outcome.kind === "not_verified") return outcomeResponse("phone_not_verified");
    if (outcome.kind === "phone_blocked") return outcomeResponse("phone_blocked");
    if (outcome.kind === "cod_not_allowed") {
      const allowedModes = allowedModesFor("high", chosenModes(shop.paymentModes));
      await countCodRefused(shop.id, outcome.risk);
      return outcomeResponse("cod_not_allowed", { extra: { allowedModes, risk: publicRisk(outcome.risk) } });
    }
    if (outcome.kind === "fallback") return json({ fallback: true, ...(outcome.proof ? { proof: outcome.proof } : {}) });
    return json({ checkoutUrl: outcome.checkoutUrl });
  });
}

export async function loader(_args: LoaderFunctionArgs) {
  return methodNotAllowed(["POST"]);
}
