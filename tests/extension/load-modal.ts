import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { ROOT } from "../setup/databases";

export const EXTENSION = path.join(ROOT, "extensions", "cod-verify");

export type ModalCore = {
  asciiDigits(text: string): string;
  toE164(raw: string, dialCode?: string): string | null;
  extractCode(text: string, length: number): string;
  allowedModes(modes: unknown): string[];
  numericVariantId(id: unknown): string | null;
  normalCheckoutUrl(root: string, lines: { variantId: string; quantity: number }[], proof?: string | null, source?: string | null): string;
  clock(seconds: number): string;
  interpret(status: number, body: unknown): { kind: string; [k: string]: unknown };
  failureMessage(outcome: { kind: string; [k: string]: unknown }): {
    key: string;
    values?: Record<string, unknown>;
    count?: number;
    step?: string;
    checkout?: boolean;
    newCode?: boolean;
    forward?: boolean;
    whatsapp?: boolean;
    sms?: boolean;
    wait?: number;
  };
  translate(strings: Record<string, string>, locale: string, key: string, values?: Record<string, unknown>, count?: number): string;
  unescapeHtml(text: string): string;
  isRtl(locale: string): boolean;
  maskedPhone(e164: string, dialCodes: string[]): string;
  displayPhone(e164: string, dialCodes: string[]): string;
  countryList(list: unknown): { iso: string; dial: string; allowed?: boolean }[];
  quote(total: number | null, currency: string | null, pricing: unknown, rate?: number | null): Record<string, unknown> | null;
  presentmentRate(currency: string, shopify: unknown): number | null;
  money(amount: number, currency: string, locale: string): string;
  amountText(mode: string, quote: unknown, locale: string): { key: string; values: Record<string, string> } | null;
  riskModes(shopModes: string[], allowed: unknown, priced?: boolean): string[];
  newBehaviour(): object;
  noteOpened(b: object, now: number): void;
  noteSent(b: object, phone: string, now: number, fields?: Record<string, number>): void;
  noteTyped(b: object): void;
  sendFields(b: object, phone: string, now: number): Record<string, number>;
  verifyFields(b: object, now: number): Record<string, number>;
  riskDeposit(body: unknown): { amount: number; currency: string | null } | null;
  pricingWithDeposit(pricing: unknown, deposit: { amount: number; currency: string | null }): Record<string, unknown>;
  riskNoteKey(risk: unknown): string;
};

/** The shipped assets/cod-modal-ui.js, run as a classic script in a sandbox with no document: only its pure core. */
export function loadModalCore(): ModalCore {
  const source = fs.readFileSync(path.join(EXTENSION, "assets", "cod-modal-ui.js"), "utf8");
  const sandbox: Record<string, unknown> = { Intl };
  sandbox.window = sandbox;
  vm.runInNewContext(source, sandbox, { filename: "cod-modal-ui.js" });
  return (sandbox.CodVerify as { core: ModalCore }).core;
}

export function readLocale(file: string): Record<string, string> {
  return JSON.parse(fs.readFileSync(path.join(EXTENSION, "locales", file), "utf8")).cod_verify;
}

/** The storefront locale files (the shopper's texts); the theme editor's are the *.schema.json ones. */
export function localeFiles(): string[] {
  return fs.readdirSync(path.join(EXTENSION, "locales")).filter((f) => f.endsWith(".json") && !f.endsWith(".schema.json"));
}

export function schemaLocaleFiles(): string[] {
  return fs.readdirSync(path.join(EXTENSION, "locales")).filter((f) => f.endsWith(".schema.json"));
}
