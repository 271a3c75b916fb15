import type { Shop } from "~/core/settings/shop.server";
import { clock } from "~/core/utils/clock.server";
import { codTakenAway, countCodRefused, modeChoice, offerFor, type ModeChoice } from "~/risk/assess.server";
import { unusualHourFor } from "~/risk/calibration.server";
import type { BehaviourFacts } from "~/risk/score";
import { parseApiPhone } from "~/shared/phone";
import { sendVerificationCode, type SendOutcome } from "./otp.server";
import { checkVerificationCode, type VerifyOutcome } from "./verify.server";
import { checkProof, PROOF_TTL_SECONDS, withOffer, type Proof } from "./proof.server";
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
  const outcome = await sendVerificationCode({ shop, phone, locale: body.locale, deviceToken: body.deviceToken, channel: body.channel, ip, behaviour: withHour(shop, body.behaviour) });
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
  const behaviour = withHour(shop, body.behaviour);
  const outcome = await checkVerificationCode({ shop, phone, otp: body.otp, selectedMode: body.selectedMode, cartToken: body.cartToken, ip, behaviour });
  if (!outcome.ok) return outcome;
  const choice = outcome.risk ? modeChoice(shop, outcome.risk) : null;
  if (outcome.risk && codTakenAway(shop, outcome.risk)) await countCodRefused(shop, outcome.risk);
  const issued = outcome.risk ? checkProof(shop.domain, outcome.proof) : null;
  return { ...outcome, proof: issued?.ok ? proofWithOffer(shop, outcome, issued.proof) : outcome.proof, choice, proofExpiresIn: PROOF_TTL_SECONDS };
}

/** The modal's readings with the server's own: whether now is an unusual hour for the shop (its time zone). */
function withHour(shop: Shop, modal: BehaviourFacts | undefined): BehaviourFacts {
  return { ...modal, unusualHour: unusualHourFor(shop, clock.now()) };
}

/**
 * The proof carries what the band does (docs/risk.md): refused or priced, the checkout function hides plain
 * COD and create-checkout and orders/create hold the shopper to the deposit it names; confirmed, the order
 * opens the confirmation after purchase. Same phone, mode, selection and expiry as the code flow's.
 */
function proofWithOffer(shop: Shop, outcome: Success<VerifyOutcome>, issued: Proof): string {
  if (!outcome.risk) return outcome.proof;
  const { action, deposit } = offerFor(shop, outcome.risk);
  return withOffer(shop.domain, issued, { action, deposit }).token;
}
