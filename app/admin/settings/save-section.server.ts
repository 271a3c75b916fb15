import { syncPaymentCustomization } from "~/enforcement/payment-customization.server";
import { requestEnforcementSync } from "~/enforcement/enforcement-jobs.server";
import type { SettingsSectionId } from "~/core/settings/registry";
import { parseSection, settingsFormValues, type SettingsErrors, type SettingsFormValues } from "~/core/settings/settings";
import { getShop, updateShop, upsertInstalledShop } from "~/core/settings/shop.server";

/** The sections whose columns the checkout function follows (codes on or off, COD names, hidden while paused). */
const CHECKOUT_FOLLOWS: readonly SettingsSectionId[] = ["codes", "enforcement"];

export type SectionSaved =
  | { status: "invalid"; section: SettingsSectionId; errors: SettingsErrors; values: Partial<SettingsFormValues> }
  | { status: "saved"; section: SettingsSectionId; errors: SettingsErrors; values: SettingsFormValues; savedAt: string };

/** One section's posted form saved (its columns only), the checkout told at once where it follows them; or each refused field's error and what was typed. */
export async function saveSettingsSection(domain: string, section: SettingsSectionId, form: FormData): Promise<SectionSaved> {
  if (!(await getShop(domain))) await upsertInstalledShop(domain);
  const result = parseSection(section, form);
  if (!result.ok) return { status: "invalid", section, errors: result.errors, values: result.values };
  const saved = await updateShop(domain, result.data);
  // A failure to tell Shopify is retried by the durable job; the settings stay saved.
  if (CHECKOUT_FOLLOWS.includes(section) && !(await syncPaymentCustomization(saved)).ok) await requestEnforcementSync(domain, "settings_saved");
  const shop = (await getShop(domain)) ?? saved;
  return { status: "saved", section, errors: {}, values: settingsFormValues(shop), savedAt: shop.updatedAt.toISOString() };
}
