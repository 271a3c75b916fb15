import { normalizePhone } from "./phone";

/**
 * The merchant's lists as typed (one a line, or comma- or semicolon-separated), read the same way by the
 * settings' parsers (app/core/settings) and by what uses the stored lists (risk rules, delivery events).
 */

export function splitList(text: string | null | undefined): string[] {
  return (text ?? "").split(/[\n,;]+/).map((s) => s.trim()).filter(Boolean);
}

/** Order tags as compared with an order's: trimmed, lower case, each once. */
export function parseTagList(text: string | null | undefined): string[] {
  return [...new Set(splitList(text).map((t) => t.toLowerCase()))];
}

/** A postal code as compared: upper case, without spaces or dashes; empty is null. */
export function normalizePostalCode(raw: string | null | undefined): string | null {
  const code = (raw ?? "").toUpperCase().replace(/[\s\-\u00a0]/g, "");
  return code ? code : null;
}

/** Phones normalised to E.164 (others dropped). */
export function parsePhoneList(text: string | null | undefined): string[] {
  return [...new Set(splitList(text).map((p) => normalizePhone(p)).filter((p): p is string => !!p))];
}

/** Postal codes normalised like the order's code, a trailing `*` kept for prefixes. */
export function parsePostalCodeList(text: string | null | undefined): string[] {
  return [
    ...new Set(
      splitList(text)
        .map((c) => {
          const star = c.trim().endsWith("*");
          const code = normalizePostalCode(c.replace(/\*+$/, ""));
          return code ? `${code}${star ? "*" : ""}` : null;
        })
        .filter((c): c is string => !!c),
    ),
  ];
}
