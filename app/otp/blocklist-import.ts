import { normalizePhone } from "~/shared/phone";

import { BLOCKLIST_IMPORT_MAX_LINES, BLOCKLIST_REASON_MAX } from "./blocklist-limits";

export type BlocklistImportLine = { line: number; phone: string; reason: string | null };
export type BlocklistImportProblem = { line: number; text: string };

export type ParsedBlocklistImport =
  | { ok: true; entries: BlocklistImportLine[]; invalid: BlocklistImportProblem[]; duplicates: number }
  | { ok: false; code: "too_many_lines"; lines: number }
  | { ok: false; code: "empty" };

/**
 * A pasted or uploaded list of numbers: one a line, optionally followed by a reason after a comma,
 * semicolon or tab ("+91 98123 45678, chargebacks"), as a spreadsheet exports it. Blank lines and a
 * header line ("phone", "number") are passed over; a line whose number is not international (`+` or
 * `00` and 10 to 15 digits) is reported by its line number and the rest are kept. A number listed twice
 * counts once (the first reason given wins).
 */
export function parseBlocklistImport(text: string, defaultReason: string | null = null): ParsedBlocklistImport {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  if (lines.length > BLOCKLIST_IMPORT_MAX_LINES) return { ok: false, code: "too_many_lines", lines: lines.length };
  const entries: BlocklistImportLine[] = [];
  const invalid: BlocklistImportProblem[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  lines.forEach((raw, i) => {
    const trimmed = raw.trim();
    if (!trimmed) return;
    const [first, ...rest] = trimmed.split(/[,;\t]/);
    const cell = first.trim().replace(/^"|"$/g, "");
    if (i === 0 && /^(phone|phone number|number|numbers|mobile)$/i.test(cell)) return;
    const phone = normalizePhone(cell);
    if (!phone) {
      invalid.push({ line: i + 1, text: trimmed.slice(0, 60) });
      return;
    }
    if (seen.has(phone)) {
      duplicates += 1;
      return;
    }
    seen.add(phone);
    const reason = rest.join(",").trim().replace(/^"|"$/g, "").slice(0, BLOCKLIST_REASON_MAX) || defaultReason;
    entries.push({ line: i + 1, phone, reason });
  });
  if (!entries.length && !invalid.length) return { ok: false, code: "empty" };
  return { ok: true, entries, invalid, duplicates };
}
