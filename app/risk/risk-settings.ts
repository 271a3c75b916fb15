import { sectionFields, type SettingsField } from "~/core/settings/registry";
import { parseSection, settingsFormValues, type SettingsUpdate } from "~/core/settings/settings";
import type { Shop } from "~/core/settings/shop.server";

/**
 * The Risk page's form (app/routes/app.risk.tsx): the band thresholds and the merchant's rules, which
 * decide before the score (docs/risk.md). Declared and parsed as the registry's "risk" section
 * (app/core/settings/registry.ts), so a save writes only the risk columns of the shop's row.
 */
export const RISK_SETTINGS_FIELDS = sectionFields("risk");
export type RiskSettingsField = Extract<SettingsField, `risk${string}`>;
export type RiskSettingsValues = Record<RiskSettingsField, string>;
export type RiskSettingsErrors = Partial<Record<RiskSettingsField, string>>;
export type RiskSettingsUpdate = Pick<SettingsUpdate, RiskSettingsField>;

export function parseRiskSettings(input: FormData | Record<string, unknown>): { ok: true; data: RiskSettingsUpdate } | { ok: false; errors: RiskSettingsErrors; values: RiskSettingsValues } {
  const result = parseSection("risk", input);
  return result.ok ? { ok: true, data: result.data } : { ok: false, errors: result.errors, values: result.values as RiskSettingsValues };
}

export function riskSettingsFormValues(shop: Pick<Shop, SettingsField>): RiskSettingsValues {
  const all = settingsFormValues(shop);
  return Object.fromEntries(RISK_SETTINGS_FIELDS.map((f) => [f, all[f]])) as RiskSettingsValues;
}
