import { z } from "zod";
// The two bodies a shopper's modal sends for every code use zod 4's API, which the zod 3.25 package the app
// depends on ships as `zod/v4`: it parses them in about a sixth of the time (docs/decisions/storefront-interface.md).
import { z as z4 } from "zod/v4";
import { CODE_LENGTH, CODE_PATTERN } from "~/shared/otp-code";
import { PAYMENT_MODES } from "~/shared/payment-modes";

/** "required" when the field is absent, else `message` (a wrong type). */
const missingOr = (message: string) => (issue: { input?: unknown }) => (issue.input === undefined ? "required" : message);

/** Languages as the modal sends them ("fr", "pt-BR"); anything else is ignored rather than refused. */
const locale = z4
  .string()
  .max(35)
  .optional()
  .transform((v) => (v && /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/.test(v) ? v : undefined));

/** The phone is checked for E.164 after parsing, so a bad one gets its own code (invalid_phone). */
const phone = z4.string({ error: missingOr("expected a string") }).max(40, "too long");

/** A token the app issued (proof or remembered device); a malformed one is treated as absent, never refused. */
export const issuedToken = z
  .string()
  .max(200)
  .optional()
  .catch(undefined);
const issuedToken4 = z4.string().max(200).optional().catch(undefined);

/** The shopper may ask for the code by SMS or WhatsApp; absent means the shop's own channel. Anything else is refused. */
const channel = z4
  .enum(["sms", "whatsapp"], { error: 'expected "sms" or "whatsapp"' })
  .nullish()
  .transform((v) => v ?? undefined);

/**
 * The modal's behaviour fields (docs/risk.md, "Behaviour"): counts and milliseconds the shopper's own
 * browser measured. They only ever add a capped nudge to the score, so a malformed set is dropped, never refused.
 */
const count = z4.number().int().min(0).max(1000);
const ms = z4.number().min(0).max(86_400_000);
const sendReadings = { numbersTried: count.optional(), msToRequest: ms.optional(), codesAbandoned: count.optional() };
const sendBehaviour = z4.object(sendReadings).optional().catch(undefined);
// verify-otp carries the code's send readings again with the time to type it: its score sets the proof's offer.
const verifyBehaviour = z4.object({ ...sendReadings, msToType: ms.optional() }).optional().catch(undefined);

export const sendOtpBody = z4.object({ phone, locale, deviceToken: issuedToken4, channel, behaviour: sendBehaviour });

export const verifyOtpBody = z4.object({
  phone,
  otp: z4
    .union([z4.string(), z4.number().int().nonnegative()], { error: missingOr("expected a string of digits") })
    .transform((v) => String(v).trim())
    .refine((v) => CODE_PATTERN.test(v), `expected the ${CODE_LENGTH}-digit code`),
  selectedMode: z4.enum(PAYMENT_MODES).optional(),
  cartToken: z4.string().min(1).max(255).optional(),
  locale,
  behaviour: verifyBehaviour,
});

export type SendOtpBody = z4.output<typeof sendOtpBody>;
export type VerifyOtpBody = z4.output<typeof verifyOtpBody>;
