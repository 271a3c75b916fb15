import { authenticateProxy } from "~/http/app-proxy.server";
import { readJsonBody } from "~/http/json-body.server";
import { outcomeAnswer } from "~/http/outcomes.server";
import { jsonAnswer, methodNotAllowed, type JsonAnswer } from "~/http/responses.server";
import { shopperIp } from "~/http/shopper-ip.server";
import { storefrontRoute } from "~/http/storefront.server";
import { verifyOtpBody } from "~/otp/schemas";
import { checkCodeFromShopper, type StorefrontVerifyOutcome } from "~/otp/shopper-codes.server";

/** POST /proxy/verify-otp { phone, otp, selectedMode?, cartToken?, locale? }: checks a one-time code. */
export const storefront = storefrontRoute("POST", async (request) => {
  const { shop } = await authenticateProxy(request);
  const body = await readJsonBody(request, verifyOtpBody);
  return respond(await checkCodeFromShopper(shop, body, shopperIp(request)));
});

export const action = storefront.action;

export async function loader() {
  return methodNotAllowed(["POST"]);
}

function respond(outcome: StorefrontVerifyOutcome): JsonAnswer {
  if (outcome.ok) {
    return jsonAnswer({
      // Additive (docs/risk.md): the modes this shopper may choose, and the band with its reasons in words.
      ...(outcome.choice ?? {}),
      success: true,
      // Evidence for checkout (a cart attribute) and, for this browser only, the returning-customer skip.
      proof: outcome.proof,
      proofExpiresIn: outcome.proofExpiresIn,
      ...(outcome.deviceToken ? { deviceToken: outcome.deviceToken } : {}),
    });
  }
  const attemptsRemaining = outcome.code === "invalid_code" ? outcome.attemptsRemaining : outcome.code === "attempts_exhausted" ? 0 : undefined;
  return outcomeAnswer(outcome.code, { extra: { success: false, ...(attemptsRemaining === undefined ? {} : { attemptsRemaining }) } });
}
