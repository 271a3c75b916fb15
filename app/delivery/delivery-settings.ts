import { z } from "zod";
import type { Shop } from "~/core/settings/shop.server";
import { parseTagList } from "~/risk/tags";

/**
 * The Deliveries page's form (app/routes/app.deliveries.tsx): the reminder and recovery switches, the
 * courier's failed-attempt tags and the contact the reminder names. Its own schema, so it writes only these
 * columns of the shop's row (as the Risk page does). The quiet hours are the shop's one setting, shared
 * with the confirmation ladder (Settings).
 */
export const DELIVERY_SETTINGS_FIELDS = ["deliveryReminder", "deliveryRecovery", "deliveryFailureTags", "storeContact"] as const;
export type DeliverySettingsField = (typeof DELIVERY_SETTINGS_FIELDS)[number];
export type DeliverySettingsValues = Record<DeliverySettingsField, string>;
export type DeliverySettingsErrors = Partial<Record<DeliverySettingsField, string>>;

const schema = z.object({
  deliveryReminder: z.enum(["on", "off"], { message: "Choose on or off." }).transform((v) => v === "on"),
  deliveryRecovery: z.enum(["on", "off"], { message: "Choose on or off." }).transform((v) => v === "on"),
  deliveryFailureTags: z
    .string()
    .max(2000, "Up to 2000 characters.")
    .transform((v) => parseTagList(v).join("\n")),
  // Shown to shoppers in a text: a phone number or an email address, nothing that could carry a link.
  storeContact: z
    .string()
    .trim()
    .max(80, "Up to 80 characters.")
    .refine((v) => v === "" || /^(\+?[\d ()-]{6,20}|[^\s@/]+@[^\s@/]+\.[a-z]{2,})$/i.test(v), "Enter a phone number or an email address.")
    .transform((v) => (v === "" ? null : v)),
});

export type DeliverySettings = z.output<typeof schema>;

export function deliverySettingsFormValues(shop: Pick<Shop, DeliverySettingsField>): DeliverySettingsValues {
  return {
    deliveryReminder: shop.deliveryReminder ? "on" : "off",
    deliveryRecovery: shop.deliveryRecovery ? "on" : "off",
    deliveryFailureTags: shop.deliveryFailureTags,
    storeContact: shop.storeContact ?? "",
  };
}

export function parseDeliverySettings(form: FormData): { ok: true; data: DeliverySettings } | { ok: false; errors: DeliverySettingsErrors; values: DeliverySettingsValues } {
  const values = Object.fromEntries(DELIVERY_SETTINGS_FIELDS.map((f) => [f, String(form.get(f) ?? "")])) as DeliverySettingsValues;
  const parsed = schema.safeParse(values);
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors: DeliverySettingsErrors = {};
  for (const issue of parsed.error.issues) errors[issue.path[0] as DeliverySettingsField] ??= issue.message;
  return { ok: false, errors, values };
}
