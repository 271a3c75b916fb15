import { DEFAULT_COD_METHOD_NAMES } from "../../extensions/cod-payment-customization/src/run";

/** The payment methods that count as cash on delivery, one name a line as the settings page takes them. */
export const DEFAULT_COD_METHOD_NAMES_TEXT = DEFAULT_COD_METHOD_NAMES.join("\n");

/** Shop.codMethodNames (one name a line, as the settings page takes them) → the names, each once. */
export function codMethodNameList(text: string | null | undefined): string[] {
  const names = (text ?? "")
    .split(/\r?\n/)
    .map((n) => n.trim().replace(/\s+/g, " "))
    .filter(Boolean);
  return [...new Set(names)];
}
