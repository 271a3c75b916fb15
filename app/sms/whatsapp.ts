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
