import type { ActionFunctionArgs } from "@remix-run/node";
import { authenticateProxy } from "~/http/app-proxy.server";
import { readJsonBody } from "~/http/json-body.server";
import { outcomeResponse } from "~/http/outcomes.server";
import { answer, json, methodNotAllowed } from "~/http/responses.server";
import { checkVerificationCode, type VerifyOutcome } from "~/otp/otp.server";
import { parseApiPhone } from "~/shared/phone";
import { shopperIp } from "~/http/shopper-ip.server";
import { countCodRefused, publicRisk } from "~/risk/assess.server";
import { allowedModesFor } from "~/risk/score";
import { chosenModes } from "~/shared/payment-modes";
import type { Shop } from "~/core/settings/shop.server";
import { verifyOtpBody } from "~/otp/schemas";
import { PROOF_TTL_SECONDS } from "~/otp/proof.server";

/** POST /proxy/verify-otp { phone, otp, selectedMode?, cartToken?, locale? }: checks a one-time code. */
export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const { shop } = await authenticateProxy(request);
    const body = await readJsonBody(request, verifyOtpBody);
    const phone = parseApiPhone(body.phone);
    if (!phone) return outcomeResponse("invalid_phone", { extra: { success: false } });
    const outcome = await checkVerificationCode({ shop, phone, otp: body.otp, selectedMode: body.selectedMode, cartToken: body.cartToken, ip: shopperIp(request) });
    if (outcome.ok && outcome.risk?.band === "high") await countCodRefused(shop.id, outcome.risk);
    return respond(shop, outcome);
  });
}

export async function loader() {
  return methodNotAllowed(["POST"]);
}

function respond(shop: Pick<Shop, "paymentModes">, outcome: VerifyOutcome): Response {
  if (outcome.ok) {
    return json({
      // Additive (docs/risk.md): the modes this shopper may choose, and the band with its reasons in words.
      ...(outcome.risk ? { allowedModes: allowedModesFor(outcome.risk.band, chosenModes(shop.paymentModes)), risk: publicRisk(outcome.risk) } : {}),
      success: true,
      // Evidence for checkout (a cart attribute) and, for this browser only, the returning-customer skip.
      proof: outcome.proof,
      proofExpiresIn: PROOF_TTL_SECONDS,
      ...(outcome.deviceToken ? { deviceToken: outcome.deviceToken } : {}),
    });
  }
  const attemptsRemaining = outcome.code === "invalid_code" ? outcome.attemptsRemaining : outcome.code === "attempts_exhausted" ? 0 : undefined;
  return outcomeResponse(outcome.code, { extra: { success: false, ...(attemptsRemaining === undefined ? {} : { attemptsRemaining }) } });
}
