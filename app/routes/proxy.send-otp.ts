import { authenticateProxy } from "~/http/app-proxy.server";
import { readJsonBody } from "~/http/json-body.server";
import { outcomeAnswer } from "~/http/outcomes.server";
import { jsonAnswer, methodNotAllowed, type JsonAnswer } from "~/http/responses.server";
import { shopperIp } from "~/http/shopper-ip.server";
import { storefrontRoute } from "~/http/storefront.server";
import { sendOtpBody } from "~/otp/schemas";
import { sendCodeToShopper, type StorefrontSendOutcome } from "~/otp/shopper-codes.server";

/** POST /proxy/send-otp { phone, locale?, deviceToken?, channel? }: sends a one-time code (check order in the README). */
export const storefront = storefrontRoute("POST", async (request) => {
  const { shop } = await authenticateProxy(request);
  const body = await readJsonBody(request, sendOtpBody);
  return respond(await sendCodeToShopper(shop, body, shopperIp(request)));
});

export const action = storefront.action;

export async function loader() {
  return methodNotAllowed(["POST"]);
}

function respond(outcome: StorefrontSendOutcome): JsonAnswer {
  if (!outcome.ok) {
    const retryAfter = "retryAfter" in outcome ? outcome.retryAfter : undefined;
    return outcomeAnswer(outcome.code, { extra: { success: false }, retryAfter });
  }
  // Additive (docs/risk.md): the modes this shopper may choose, and the band with its reasons in words.
  const choice = outcome.choice ?? {};
  // A shopper held out by the merchant's experiment gets, byte for byte, the answer of a shop that asks
  // no code (never high band, so every mode stays allowed): nothing on the storefront names the arm (app/experiment).
  if (outcome.skipped === "holdout") return jsonAnswer({ success: true, skipped: true, reason: "otp_disabled" });
  if (outcome.skipped) return jsonAnswer({ success: true, skipped: true, reason: outcome.skipped, ...choice });
  // `channel`: where the code went (WhatsApp, or SMS when WhatsApp was refused at once), for the modal to say.
  return jsonAnswer({ success: true, expiresIn: outcome.expiresIn, resendAfter: outcome.resendAfter, channel: outcome.channel, ...choice });
}
