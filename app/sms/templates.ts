import { originHost } from "~/shared/host";

import { languageOf, type Locale } from "~/shared/locales";

/**
 * The text of a one-time-code SMS, in the shopper's language where we have it. A shop's own template
 * (Shop.smsTemplate) wins over these; in every template `{code}`, `{shop}` and `{minutes}` are replaced.
 * Every code SMS, a merchant's template included, ends with the line `@<shop's domain> #<code>`: the
 * origin-bound format Chrome's WebOTP and Apple's security-code autofill read.
 */
export const CODE_MESSAGES: Record<Locale, string> = {
  en: "{code} is your {shop} verification code. It expires in {minutes} minutes. Do not share it.",
  hi: "{code} आपका {shop} सत्यापन कोड है। यह {minutes} मिनट में समाप्त हो जाएगा। इसे किसी से साझा न करें।",
  ar: "{code} هو رمز التحقق الخاص بك من {shop}. تنتهي صلاحيته خلال {minutes} دقائق. لا تشاركه مع أحد.",
  fr: "{code} est votre code de vérification {shop}. Il expire dans {minutes} minutes. Ne le partagez pas.",
  es: "{code} es tu código de verificación de {shop}. Caduca en {minutes} minutos. No lo compartas.",
};

export type MessageLocale = Locale;

/** "fr-CA", "FR", "fr_ca" → "fr"; unknown or missing languages → null. */
export function messageLocale(locale: string | null | undefined): MessageLocale | null {
  const language = languageOf(locale);
  return Object.hasOwn(CODE_MESSAGES, language) ? (language as MessageLocale) : null;
}

export function renderCodeMessage(input: {
  code: string;
  shopName: string;
  /** The host the storefront is on (the shop's primary domain): the message's last line binds the code to it. */
  domain?: string | null;
  minutes: number;
  /** The shopper's language (from the modal), then the shop's, then English. */
  locales: (string | null | undefined)[];
  template?: string | null;
}): string {
  const own = input.template?.trim() ? stripOriginLine(input.template.trim()) : "";
  const template = own || CODE_MESSAGES[input.locales.map(messageLocale).find((l) => l !== null) ?? "en"];
  // One pass, so a shop name containing "{code}" stays text.
  const values: Record<string, string> = { code: input.code, shop: input.shopName, minutes: String(input.minutes) };
  const text = template.replace(/\{(code|shop|minutes)\}/g, (_, name: string) => values[name]);
  // A merchant template that forgot the code would send a useless message.
  const message = template.includes("{code}") ? text : `${input.code} ${text}`;
  const host = originHost(input.domain);
  return host ? `${message}\n\n@${host} #${input.code}` : message;
}

/** A template's own trailing "@domain #{code}" line goes: the app writes that line itself, last. */
function stripOriginLine(template: string): string {
  return template.replace(/\n*\s*@[^\s#]+\s+#\{code\}\s*$/, "").trim();
}

export { originHost };
