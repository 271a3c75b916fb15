import { z } from "zod";
import { SETTINGS_LIMITS as L } from "../limits";
import { text } from "./fields";

/** A rung's delay in minutes after the order; empty: the rung is not used (null). */
const rungMinutes = (() => {
  const message = `Enter a whole number of minutes from 0 to ${L.ladderMinutes.max.toLocaleString("en")}, or leave it empty to skip this step.`;
  return text(message)
    .trim()
    .refine((v) => v === "" || (/^\d{1,6}$/.test(v) && Number(v) <= L.ladderMinutes.max), message)
    .transform((v) => (v === "" ? null : Number(v)));
})();

/** A time of day "HH:MM" (24-hour) → the minute of the day; empty: none (null). */
const timeOfDay = (() => {
  const message = "Enter a time such as 21:00, or leave it empty.";
  return text(message)
    .trim()
    .refine((v) => v === "" || /^([01]?\d|2[0-3]):[0-5]\d$/.test(v), message)
    .transform((v) => (v === "" ? null : Number(v.split(":")[0]) * 60 + Number(v.split(":")[1])));
})();

/**
 * The "Confirmation ladder" card: each step's delay after the order (empty: not used; every step empty:
 * the single confirmation message of the WhatsApp card), and the quiet hours (both or neither).
 */
export const ladderSection = z
  .object({
    ladderWhatsappMinutes: rungMinutes,
    ladderSmsMinutes: rungMinutes,
    ladderVoiceMinutes: rungMinutes,
    ladderPersonMinutes: rungMinutes,
    quietHoursStart: timeOfDay,
    quietHoursEnd: timeOfDay,
  })
  .superRefine((v, ctx) => {
    if ((v.quietHoursStart === null) !== (v.quietHoursEnd === null)) {
      ctx.addIssue({ code: "custom", path: [v.quietHoursStart === null ? "quietHoursStart" : "quietHoursEnd"], message: "Enter both times of the quiet hours, or neither." });
    }
  });
