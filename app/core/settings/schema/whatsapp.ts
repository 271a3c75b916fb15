import { z } from "zod";
import { SETTINGS_LIMITS as L } from "../limits";
import { onOff, text, wholeNumber } from "./fields";

/**
 * The link domain: a bare host name (no scheme, path or port), lower case, stored as typed or null when
 * empty. It must serve the store (one of its domains), since links are the app proxy's paths on it.
 */
const linkDomain = text("Enter a domain such as shop.example.in, or leave it empty.")
  .trim()
  .transform((v) => v.toLowerCase().replace(/\.$/, ""))
  .refine(
    (v) => v === "" || (v.length <= 253 && /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/.test(v)),
    "Enter the domain alone, such as shop.example.in (no https://, no path).",
  )
  .transform((v) => (v === "" ? null : v));

/** The "WhatsApp" card: confirmation after purchase on WhatsApp, the modal's channel choice, links that must arrive in India. */
export const whatsappSection = z.object({
  whatsappConfirmation: z.enum(["off", "unverified", "all"], { errorMap: () => ({ message: "Choose off, unverified orders or every COD order." }) }),
  whatsappReplyMinutes: wholeNumber(L.whatsappReplyMinutes.min, L.whatsappReplyMinutes.max),
  cancelOnWhatsappCancel: onOff,
  otpChannelChoice: onOff,
  linksOnWhatsapp: onOff,
  linkDomain,
});
