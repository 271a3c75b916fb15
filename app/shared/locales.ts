/**
 * The languages the app writes in (one-time-code SMS, the address-correction page and its SMS, the
 * merchant's language setting), each once, with its name and writing direction.
 */
export const LANGUAGES = [
  { code: "en", label: "English", dir: "ltr" },
  { code: "hi", label: "Hindi", dir: "ltr" },
  { code: "ar", label: "Arabic", dir: "rtl" },
  { code: "fr", label: "French", dir: "ltr" },
  { code: "es", label: "Spanish", dir: "ltr" },
] as const;

export type Locale = (typeof LANGUAGES)[number]["code"];

export const LOCALES = LANGUAGES.map((l) => l.code) as [Locale, ...Locale[]];

/** Languages written right to left: ours, and those a storefront may be in (the modal keeps the same list). */
const RIGHT_TO_LEFT = new Set<string>(["ar", "he", "fa", "ur"]);

/** "fr-CA", "FR", "fr_ca" → "fr": the language part of a locale, lower case. */
export function languageOf(locale: string | null | undefined): string {
  return (locale ?? "").trim().toLowerCase().split(/[-_]/)[0];
}

/** The first candidate we write in, else English. */
export function pickLocale(...candidates: (string | null | undefined)[]): Locale {
  for (const c of candidates) {
    const language = languageOf(c);
    if (language && (LOCALES as readonly string[]).includes(language)) return language as Locale;
  }
  return "en";
}

/** A text's `{name}` placeholders replaced by the values given (an unknown name stays as it is). */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => values[k] ?? m);
}

/** One message in each language we write in, with `{name}` placeholders. */
export type LocalizedText = Record<Locale, string>;

/** A table's entry for the first of `locales` we write in, else English's. */
export function inLanguage<T>(table: Record<Locale, T>, locales: (string | null | undefined)[]): T {
  return table[pickLocale(...locales)];
}

/** The message in the first of `locales` we write in (else English), its placeholders filled. */
export function localizedText(table: LocalizedText, locales: (string | null | undefined)[], values: Record<string, string>): string {
  return fill(inLanguage(table, locales), values);
}

/** Writing direction of any locale (ours or a storefront's). */
export function directionOf(locale: string | null | undefined): "rtl" | "ltr" {
  return RIGHT_TO_LEFT.has(languageOf(locale)) ? "rtl" : "ltr";
}
