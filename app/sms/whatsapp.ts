import { env } from "~/core/env.server";
import type { WhatsappTemplate } from "./sms.server";

/**
 * The approved WhatsApp template for a one-time code (Twilio Content API): the content SID for the
 * shopper's language from TWILIO_WHATSAPP_CONTENT_SID ("HX..." for every language, or
 * "en:HX...,ar:HX...,*:HX..."), with the code as variable {{1}} (WhatsApp's authentication templates
 * carry the code there and add the copy-code button themselves). Null when none is configured:
 * the code then goes by SMS, since WhatsApp refuses free text outside a 24-hour session.
 */
export function whatsappCodeTemplate(code: string, locales: (string | null | undefined)[], setting = env.TWILIO_WHATSAPP_CONTENT_SID): WhatsappTemplate | null {
  const sid = contentSidFor(setting, locales);
  return sid ? { contentSid: sid, variables: { "1": code } } : null;
}

/**
 * Whether a code can go by WhatsApp at all here: a WhatsApp sender and an approved code template.
 * The modal offers "Get the code on WhatsApp" only then (GET /api/config's `whatsapp`).
 */
export function whatsappCodesAvailable(): boolean {
  return Boolean(env.TWILIO_WHATSAPP_FROM) && contentSidFor(env.TWILIO_WHATSAPP_CONTENT_SID, []) !== null;
}

export function contentSidFor(setting: string | undefined, locales: (string | null | undefined)[]): string | null {
  if (!setting) return null;
  const byLanguage = new Map<string, string>();
  for (const part of setting.split(",")) {
    const [lang, sid] = part.includes(":") ? part.split(":") : ["*", part];
    byLanguage.set(lang.trim().toLowerCase(), sid.trim());
  }
  for (const locale of locales) {
    const language = (locale ?? "").toLowerCase().split(/[-_]/)[0];
    if (language && byLanguage.has(language)) return byLanguage.get(language)!;
  }
  return byLanguage.get("*") ?? byLanguage.get("en") ?? null;
}

/** The quick-reply buttons' ids in the confirmation template (the ButtonPayload Twilio posts back). */
export const CONFIRMATION_BUTTONS = ["confirm", "cancel", "change_address"] as const;
export type ConfirmationButton = (typeof CONFIRMATION_BUTTONS)[number];

/**
 * The approved WhatsApp template that asks a shopper to confirm a cash-on-delivery order
 * (TWILIO_WHATSAPP_CONFIRM_CONTENT_SID, per language): {{1}} the shop, {{2}} the order, {{3}} its summary,
 * and the quick-reply buttons Confirm, Cancel, Change address (ids CONFIRMATION_BUTTONS). Null when
 * none is configured or no WhatsApp sender is: the confirmation then goes as today, by SMS link.
 */
export function whatsappConfirmTemplate(
  values: { shop: string; order: string; summary: string },
  locales: (string | null | undefined)[],
  setting = env.TWILIO_WHATSAPP_CONFIRM_CONTENT_SID,
): WhatsappTemplate | null {
  if (!env.TWILIO_WHATSAPP_FROM) return null;
  const sid = contentSidFor(setting, locales);
  return sid ? { contentSid: sid, variables: { "1": values.shop, "2": values.order, "3": values.summary } } : null;
}

/**
 * The approved WhatsApp template that carries a link (TWILIO_WHATSAPP_LINK_CONTENT_SID): {{1}} the shop,
 * {{2}} the order, {{3}} the link. Null without one (or without a sender): the link goes by SMS.
 */
export function whatsappLinkTemplate(
  values: { shop: string; order: string; link: string },
  locales: (string | null | undefined)[],
  setting = env.TWILIO_WHATSAPP_LINK_CONTENT_SID,
): WhatsappTemplate | null {
  if (!env.TWILIO_WHATSAPP_FROM) return null;
  const sid = contentSidFor(setting, locales);
  return sid ? { contentSid: sid, variables: { "1": values.shop, "2": values.order, "3": values.link } } : null;
}
