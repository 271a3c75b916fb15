import type { ActionFunctionArgs } from "@remix-run/node";
import { authenticateProxy } from "~/http/app-proxy.server";
import { readJsonBody } from "~/http/json-body.server";
import { outcomeResponse } from "~/http/outcomes.server";
import { answer, json, methodNotAllowed } from "~/http/responses.server";
import { sendVerificationCode, type SendOutcome } from "~/otp/otp.server";
import { parseApiPhone } from "~/shared/phone";
import { shopperIp } from "~/http/shopper-ip.server";
import { countCodRefused, publicRisk } from "~/risk/assess.server";
import { allowedModesFor } from "~/risk/score";
import { chosenModes } from "~/shared/payment-modes";
import type { Shop } from "~/core/settings/shop.server";
import { sendOtpBody } from "~/otp/schemas";

/** POST /proxy/send-otp { phone, locale?, deviceToken?, channel? }: sends a one-time code (check order in the README). */
export async function action({ request }: ActionFunctionArgs) {
  return answer(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"]);
    const { shop } = await authenticateProxy(request);
    const body = await readJsonBody(request, sendOtpBody);
    const phone = parseApiPhone(body.phone);
    if (!phone) return outcomeResponse("invalid_phone", { extra: { success: false } });
    const outcome = await sendVerificationCode({ shop, phone, locale: body.locale, deviceToken: body.deviceToken, channel: body.channel, ip: shopperIp(request) });
    // A returning shopper skips the code: this is where a high band takes cash on delivery away.
    if (outcome.ok && outcome.skipped && outcome.risk?.band === "high") await countCodRefused(shop.id, outcome.risk);
    return respond(shop, outcome);
  });
}

export async function loader() {
  return methodNotAllowed(["POST"]);
}

function respond(shop: Pick<Shop, "paymentModes">, outcome: SendOutcome): Response {
  if (outcome.ok) {
    // Additive (docs/risk.md): the modes this shopper may choose, and the band with its reasons in words.
    const risk = outcome.risk ? { allowedModes: allowedModesFor(outcome.risk.band, chosenModes(shop.paymentModes)), risk: publicRisk(outcome.risk) } : {};
    // A shopper held out by the merchant's experiment gets, byte for byte, the answer of a shop that asks
    // no code (never high band, so every mode stays allowed): nothing on the storefront names the arm (app/experiment).
    if (outcome.skipped === "holdout") return json({ success: true, skipped: true, reason: "otp_disabled" });
    if (outcome.skipped) return json({ success: true, skipped: true, reason: outcome.skipped, ...risk });
    // `channel`: where the code went (WhatsApp, or SMS when WhatsApp was refused at once), for the modal to say.
    return json({ success: true, expiresIn: outcome.expiresIn, resendAfter: outcome.resendAfter, channel: outcome.channel, ...risk });
  }
  const retryAfter = "retryAfter" in outcome ? outcome.retryAfter : undefined;
  return outcomeResponse(outcome.code, { extra: { success: false }, retryAfter });
}
