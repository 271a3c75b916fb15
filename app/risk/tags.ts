/** The merchant's failure tags (the Risk page) as compared with an order's: trimmed, lower case, each once. */
export function parseTagList(text: string | null | undefined): string[] {
  return [...new Set((text ?? "").split(/[\n,;]+/).map((t) => t.trim().toLowerCase()).filter(Boolean))];
}
