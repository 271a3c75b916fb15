/**
 * The merchant's language in the admin, for the names the dashboard shows. Shopify's admin opens the
 * app with `locale` in the URL (`fr`, `pt-BR`); the app's own navigations do not carry it, so the
 * browser's first Accept-Language stands in, then English.
 */
export function adminLocale(url: URL, acceptLanguage: string | null): string {
  const candidates = [url.searchParams.get("locale"), acceptLanguage?.split(",")[0]?.split(";")[0]];
  for (const candidate of candidates) {
    const tag = candidate?.trim();
    if (!tag || tag === "*" || tag.length > 35) continue;
    try {
      const [canonical] = Intl.getCanonicalLocales(tag);
      if (canonical) return canonical;
    } catch {
      // Not a language tag: try the next.
    }
  }
  return "en";
}

/** "IN" -> "India" (or "Inde" in French); "" or a code the runtime does not know reads as itself or "Unknown". */
export function countryName(code: string, locale: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return "Unknown";
  try {
    return new Intl.DisplayNames([locale, "en"], { type: "region", fallback: "code" }).of(code) ?? code;
  } catch {
    return code;
  }
}
