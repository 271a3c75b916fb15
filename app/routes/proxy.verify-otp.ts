import type { ActionFunctionArgs } from "@remix-run/node";
import { authenticateProxy } from "~/http/app-proxy.server";
import { readJsonBody } from "~/http/json-body.server";
import { outcomeResponse } from "~/http/outcomes.server";
import { answer, json, methodNotAllowed } from "~/http/responses.server";
import { checkVerificationCode, type VerifyOutcome } from "~/otp/otp.server";
import { parseApiPhone } from "~/shared/phone";
import { verifyOtpBody } from "~/otp/schemas";

/** POST /proxy/verify-otp { phone, otp, selectedMode?, cartToken?, locale? }: checks a one-time code. */
export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const { shop } = await authenticateProxy(request);
    const body = await readJsonBody(request, verifyOtpBody);
    const phone = parseApiPhone(body.phone);
    if (!phone) return outcomeResponse("invalid_phone", { extra: { success: false } });
    return respond(
      await checkVerificationCode({ shop, phone, otp: body.otp, selectedMode: body.selectedMode, cartToken: body.cartToken }),
    );
  });
}

export async function loader() {
  return methodNotAllowed(["POST"]);
}

function respond(outcome: VerifyOutcome): Response {
  if (outcome.ok) return json({ success: true });
  const attemptsRemaining = outcome.code === "invalid_code" ? outcome.attemptsRemaining : outcome.code === "attempts_exhausted" ? 0 : undefined;
  return outcomeResponse(outcome.code, { extra: { success: false, ...(attemptsRemaining === undefined ? {} : { attemptsRemaining }) } });
}
