import { currentEnforcementState, syncPaymentCustomization, type EnforcementState } from "~/enforcement/payment-customization.server";
import { requestEnforcementSync } from "~/enforcement/enforcement-jobs.server";
import { parseSettings, settingsFormValues, type SettingsErrors, type SettingsFormValues } from "~/core/settings/settings";
import { getShop, updateShop, upsertInstalledShop } from "~/core/settings/shop.server";
import { depositPattern } from "~/storefront/offer";
import { PHONE_COUNTRY_NAMES } from "~/core/settings/schema/otp";

/**
 * What the settings page (app/routes/app.settings.tsx) shows: the stored settings and the checkout's enforcement
 * (the route adds other features' figures: the pay-now offer's, the experiment's).
 */
export async function loadSettingsPage(domain: string) {
  const shop = (await getShop(domain)) ?? (await upsertInstalledShop(domain));
  return {
    shopId: shop.id,
    values: settingsFormValues(shop),
    currency: shop.currency,
    // The quiet hours are in it (learnt from Shopify; null until it is known: UTC).
    timezone: shop.timezone,
    enforcement: await currentEnforcementState(shop),
    depositPattern: depositPattern(shop),
    countries: PHONE_COUNTRY_NAMES,
  };
}

export type SettingsSaved =
  | { status: "invalid"; errors: SettingsErrors; values: SettingsFormValues }
  | { status: "saved"; errors: SettingsErrors; values: SettingsFormValues; savedAt: string; enforcement: EnforcementState };

/** The posted form saved, with the checkout told at once; or each refused field's error and what was typed. */
export async function saveSettings(domain: string, form: FormData): Promise<SettingsSaved> {
  if (!(await getShop(domain))) await upsertInstalledShop(domain);
  const result = parseSettings(form);
  if (!result.ok) return { status: "invalid", errors: result.errors, values: result.values };
  // Only the schema's columns: parseSettings yields nothing else.
  const saved = await updateShop(domain, result.data);
  // The checkout function follows the settings at once (COD names, on or off); a failure is shown, the settings stay saved.
  // Shopify not answering: the durable job tries again.
  if (!(await syncPaymentCustomization(saved)).ok) await requestEnforcementSync(domain, "settings_saved");
  const shop = (await getShop(domain)) ?? saved;
  return {
    status: "saved",
    errors: {},
    values: settingsFormValues(shop),
    savedAt: shop.updatedAt.toISOString(),
    enforcement: await currentEnforcementState(shop),
  };
}
