/**
 * The allowed-countries setting as a merchant types it: ISO codes ("IN, AE"), English names
 * ("Kenya", "United Arab Emirates") or a few everyday short forms ("UAE", "UK", "USA"), read the
 * same way by the settings form in the browser and by the settings schema on the server.
 */

export type CountryName = { value: string; label: string };

/** Short forms merchants type that are neither an ISO code nor the country's English name. */
const SHORT_FORMS: Record<string, string> = { uae: "AE", uk: "GB", usa: "US", "great britain": "GB", britain: "GB", america: "US", ksa: "SA" };

const key = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

/** Every country in `known` by its English name (from Intl), sorted by name. */
export function countryNames(codes: readonly string[]): CountryName[] {
  const names = new Intl.DisplayNames(["en"], { type: "region" });
  const label = (iso: string) => {
    try {
      return names.of(iso) ?? iso;
    } catch {
      return iso;
    }
  };
  return codes.map((iso) => ({ value: iso, label: label(iso) })).sort((a, b) => a.label.localeCompare(b.label, "en"));
}

export type CountryListReading = { codes: string[]; unknown: string[] };

/**
 * What was typed → the codes it names (each once, in the order typed) and every part that names no
 * country in `known`. Parts are separated by commas, semicolons or line breaks; a part of
 * two-letter words only ("in ae ma") is read as that many codes.
 */
export function readCountryList(raw: string, known: readonly CountryName[]): CountryListReading {
  const byCode = new Set(known.map((c) => c.value));
  const byName = new Map(known.map((c) => [key(c.label), c.value]));
  const one = (word: string): string | null => {
    const k = key(word);
    if (/^[a-z]{2}$/.test(k) && byCode.has(k.toUpperCase())) return k.toUpperCase();
    const code = byName.get(k) ?? SHORT_FORMS[k];
    return code && byCode.has(code) ? code : null;
  };
  const codes: string[] = [];
  const unknown: string[] = [];
  for (const part of raw.split(/[,;\n]+/).map((p) => p.trim()).filter(Boolean)) {
    const whole = one(part);
    if (whole) {
      codes.push(whole);
      continue;
    }
    const words = part.split(/\s+/);
    const each = words.map(one);
    if (words.length > 1 && words.every((w) => /^[A-Za-z]{2}$/.test(w)) && each.every(Boolean)) codes.push(...(each as string[]));
    else unknown.push(part);
  }
  return { codes: [...new Set(codes)], unknown };
}
