import { sectionFields, type SettingsField } from "~/core/settings/registry";
import { parseSection, settingsFormValues, type SettingsUpdate } from "~/core/settings/settings";
import type { Shop } from "~/core/settings/shop.server";

/**
 * The Deliveries page's form (app/routes/app.deliveries.tsx): the reminder and recovery switches, the
 * courier's failed-attempt tags and the contact the reminder names. Declared and parsed as the registry's
 * "deliveries" section (app/core/settings/registry.ts), so a save writes only these columns. The quiet
 * hours are the shop's one setting, shared with the confirmation ladder (Settings).
 */
export const DELIVERY_SETTINGS_FIELDS = sectionFields("deliveries");
export type DeliverySettingsField = "deliveryReminder" | "deliveryRecovery" | "deliveryFailureTags" | "storeContact";
export type DeliverySettingsValues = Record<DeliverySettingsField, string>;
export type DeliverySettingsErrors = Partial<Record<DeliverySettingsField, string>>;
export type DeliverySettings = Pick<SettingsUpdate, DeliverySettingsField>;

export function deliverySettingsFormValues(shop: Pick<Shop, SettingsField>): DeliverySettingsValues {
  const all = settingsFormValues(shop);
  return Object.fromEntries(DELIVERY_SETTINGS_FIELDS.map((f) => [f, all[f]])) as DeliverySettingsValues;
}

export function parseDeliverySettings(form: FormData): { ok: true; data: DeliverySettings } | { ok: false; errors: DeliverySettingsErrors; values: DeliverySettingsValues } {
  const result = parseSection("deliveries", form);
  return result.ok ? { ok: true, data: result.data } : { ok: false, errors: result.errors, values: result.values as DeliverySettingsValues };
}
