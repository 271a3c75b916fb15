import type { Shop } from "~/core/settings/shop.server";
import { codTakenAway, countCodRefused, modeChoice, type ModeChoice } from "~/risk/assess.server";
import { parseApiPhone } from "~/shared/phone";
import { sendVerificationCode, type SendOutcome } from "./otp.server";
import { checkVerificationCode, type VerifyOutcome } from "./verify.server";
import { PROOF_TTL_SECONDS } from "./proof.server";
import type { SendOtpBody, VerifyOtpBody } from "./schemas";

/**
 * The storefront modal's two calls (POST /proxy/send-otp and /proxy/verify-otp) as one domain step each:
 * the number as the shopper typed it, the code flow of otp.server.ts, then what the answer adds about
 * the shopper (docs/risk.md): the modes they may choose and the band in words. A high band that takes
 * cash on delivery away is counted here, once per answer that tells the shopper so.
 */

type Failure<O> = Extract<O, { ok: false }>;
type Success<O> = Extract<O, { ok: true }>;
type InvalidPhone = { ok: false; code: "invalid_phone" };

export type StorefrontSendOutcome = InvalidPhone | Failure<SendOutcome> | (Success<SendOutcome> & { choice: ModeChoice | null });

export async function sendCodeToShopper(shop: Shop, body: SendOtpBody, ip: string | null): Promise<StorefrontSendOutcome> {
  const phone = parseApiPhone(body.phone);
  if (!phone) return { ok: false, code: "invalid_phone" };
  const outcome = await sendVerificationCode({ shop, phone, locale: body.locale, deviceToken: body.deviceToken, channel: body.channel, ip, behaviour: body.behaviour });
  if (!outcome.ok) return outcome;
  const choice = outcome.risk ? modeChoice(shop, outcome.risk) : null;
  // A returning shopper skips the code: this is where a band that refuses or prices takes plain cash on delivery away.
  if (outcome.skipped && outcome.risk && codTakenAway(shop, outcome.risk)) await countCodRefused(shop, outcome.risk);
  return { ...outcome, choice };
}

export type StorefrontVerifyOutcome =
  | InvalidPhone
  | Failure<VerifyOutcome>
  | (Success<VerifyOutcome> & { choice: ModeChoice | null; proofExpiresIn: number });

export async function checkCodeFromShopper(shop: Shop, body: VerifyOtpBody, ip: string | null): Promise<StorefrontVerifyOutcome> {
  const phone = parseApiPhone(body.phone);
  if (!phone) return { ok: false, code: "invalid_phone" };
  const outcome = await checkVerificationCode({ shop, phone, otp: body.otp, selectedMode: body.selectedMode, cartToken: body.cartToken, ip, behaviour: body.behaviour });
  if (!outcome.ok) return outcome;
  const choice = outcome.risk ? modeChoice(shop, outcome.risk) : null;
  if (outcome.risk && codTakenAway(shop, outcome.risk)) await countCodRefused(shop, outcome.risk);
  return { ...outcome, choice, proofExpiresIn: PROOF_TTL_SECONDS };
}
