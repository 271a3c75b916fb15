import type { ActionFunctionArgs } from "@remix-run/node";
import { authenticateProxy } from "~/http/app-proxy.server";
import { readJsonBody } from "~/http/json-body.server";
import { answer, json, jsonError, methodNotAllowed } from "~/http/responses.server";
import { sendVerificationCode, type SendOutcome } from "~/otp/otp.server";
import { normalizePhone } from "~/otp/phone";
import { sendOtpBody } from "~/otp/schemas";

/** POST /proxy/send-otp { phone, locale?, deviceToken? }: sends a one-time code (check order in the README). */
export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const { shop } = await authenticateProxy(request);
    const body = await readJsonBody(request, sendOtpBody);
    const phone = normalizePhone(body.phone);
    if (!phone) return invalidPhone();
    return respond(await sendVerificationCode({ shop, phone, locale: body.locale, deviceToken: body.deviceToken }));
  });
}

export async function loader() {
  return methodNotAllowed(["POST"]);
}

export function invalidPhone() {
  return jsonError(400, "invalid_phone", "Enter the phone number in international format: + and 10 to 15 digits.", {
    success: false,
  });
}

function respond(outcome: SendOutcome): Response {
  if (outcome.ok) {
    if (outcome.skipped) return json({ success: true, skipped: true, reason: outcome.skipped });
    return json({ success: true, expiresIn: outcome.expiresIn, resendAfter: outcome.resendAfter });
  }
  const fail = { success: false };
  switch (outcome.code) {
    case "rate_limited":
      return jsonError(
        429,
        "rate_limited",
        "Too many codes were requested for this number. Try again later.",
        { ...fail, retryAfter: outcome.retryAfter },
        { "Retry-After": String(outcome.retryAfter) },
      );
    case "shop_daily_cap":
      return jsonError(
        429,
        "shop_daily_cap",
        "This shop cannot send more verification codes today.",
        { ...fail, retryAfter: outcome.retryAfter },
        { "Retry-After": String(outcome.retryAfter) },
      );
    case "subscription_required":
      return jsonError(402, "subscription_required", "This shop has no active plan; the merchant must approve one in the app.", fail);
    case "country_not_allowed":
      return jsonError(403, "country_not_allowed", "This shop does not send codes to numbers from this country.", fail);
    case "phone_blocked":
      return jsonError(403, "phone_blocked", "This shop does not send codes to this number.", fail);
    case "phone_unreachable":
      return jsonError(400, "phone_unreachable", "This number cannot receive text messages. Check it, or use a mobile number.", fail);
    case "sms_unavailable":
      return jsonError(502, "sms_unavailable", "The code could not be sent right now. Try again in a moment.", fail);
  }
}
