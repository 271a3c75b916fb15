import type { ActionFunctionArgs } from "@remix-run/node";
import { authenticateProxy } from "~/http/app-proxy.server";
import { readJsonBody } from "~/http/json-body.server";
import { answer, json, jsonError, methodNotAllowed } from "~/http/responses.server";
import { checkVerificationCode, type VerifyOutcome } from "~/otp/otp.server";
import { normalizePhone } from "~/otp/phone";
import { verifyOtpBody } from "~/otp/schemas";
import { PROOF_TTL_SECONDS } from "~/verification/proof.server";
import { invalidPhone } from "./proxy.send-otp";

/** POST /proxy/verify-otp { phone, otp, selectedMode?, cartToken?, locale? }: checks a one-time code. */
export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const { shop } = await authenticateProxy(request);
    const body = await readJsonBody(request, verifyOtpBody);
    const phone = normalizePhone(body.phone);
    if (!phone) return invalidPhone();
    return respond(
      await checkVerificationCode({ shop, phone, otp: body.otp, selectedMode: body.selectedMode, cartToken: body.cartToken }),
    );
  });
}

export async function loader() {
  return methodNotAllowed(["POST"]);
}

function respond(outcome: VerifyOutcome): Response {
  if (outcome.ok) {
    return json({
      success: true,
      // Evidence for checkout (a cart attribute) and, for this browser only, the returning-customer skip.
      proof: outcome.proof,
      proofExpiresIn: PROOF_TTL_SECONDS,
      ...(outcome.deviceToken ? { deviceToken: outcome.deviceToken } : {}),
    });
  }
  switch (outcome.code) {
    case "invalid_code":
      return jsonError(400, "invalid_code", "That code is not right.", { success: false, attemptsRemaining: outcome.attemptsRemaining });
    case "attempts_exhausted":
      return jsonError(429, "attempts_exhausted", "Too many wrong codes. Request a new code.", { success: false, attemptsRemaining: 0 });
    case "code_expired":
      return jsonError(400, "code_expired", "This code has expired or was already used. Request a new code.", { success: false });
  }
}
