import { z } from "zod";
import { CODE_LENGTH, CODE_PATTERN } from "~/shared/otp-code";
import { PAYMENT_MODES } from "~/shared/payment-modes";

/** Languages as the modal sends them ("fr", "pt-BR"); anything else is ignored rather than refused. */
const locale = z
  .string()
  .max(35)
  .optional()
  .transform((v) => (v && /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/.test(v) ? v : undefined));

/** The phone is checked for E.164 after parsing, so a bad one gets its own code (invalid_phone). */
const phone = z.string({ required_error: "required", invalid_type_error: "expected a string" }).max(40, "too long");

/** A token the app issued (proof or remembered device); a malformed one is treated as absent, never refused. */
export const issuedToken = z
  .string()
  .max(200)
  .optional()
  .catch(undefined);

/** The shopper may ask for the code by SMS or WhatsApp; absent means the shop's own channel. Anything else is refused. */
const channel = z.enum(["sms", "whatsapp"], { invalid_type_error: "expected \"sms\" or \"whatsapp\"" })
  .nullish()
  .transform((v) => v ?? undefined);

export const sendOtpBody = z.object({ phone, locale, deviceToken: issuedToken, channel });

export const verifyOtpBody = z.object({
  phone,
  otp: z
    .union([z.string(), z.number().int().nonnegative()], {
      required_error: "required",
      invalid_type_error: "expected a string of digits",
    })
    .transform((v) => String(v).trim())
    .refine((v) => CODE_PATTERN.test(v), `expected the ${CODE_LENGTH}-digit code`),
  selectedMode: z.enum(PAYMENT_MODES).optional(),
  cartToken: z.string().min(1).max(255).optional(),
  locale,
});
