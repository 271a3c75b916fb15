import { z } from "zod";
import { SETTINGS_LIMITS as L } from "./limits";
import { SECTIONS, SETTINGS, SETTINGS_FIELDS, sectionFields, shownValue, type SettingsField, type SettingsSectionId } from "./registry";
import type { Shop } from "./shop.server";

export { SETTINGS_FIELDS, type SettingsField } from "./registry";

/**
 * The settings as the pages (Settings, Risk, Deliveries) post them (every value a string) → exactly the columns to write: each
 * section's parser is built from the registry's entries of that section (./registry.ts) plus the few
 * rules that tie one field to another (a fee needs its product, quiet hours need both ends). Nothing
 * else on the shop's row (id, domain, subscription state, install dates) can be set through it.
 */

/** The form's values as the pages show and post them. */
export type SettingsFormValues = Record<SettingsField, string>;
export type SettingsErrors = Partial<Record<SettingsField, string>>;
/** The columns a save writes. */
export type SettingsUpdate = Partial<Pick<Shop, SettingsField>>;

type Fields = Record<string, unknown>;

/** Adds an error to `field` and says the section yields nothing. */
function refuse(ctx: z.RefinementCtx, field: SettingsField, message: string): never {
  ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message });
  return z.NEVER as never;
}

/** A saving, fee or reward beside its type: above 0 and within the type's bound, or 0 when the type is "none". */
function adjusted(ctx: z.RefinementCtx, type: unknown, field: SettingsField, value: unknown, percentageMax: number): number {
  if (type === "none") return 0;
  const n = typeof value === "number" ? value : 0;
  if (n > 0 && n <= (type === "percentage" ? percentageMax : L.depositFixedMax)) return n;
  return refuse(
    ctx,
    field,
    type === "percentage" ? `Enter a percentage above 0 and up to ${percentageMax} (up to two decimals).` : "Enter an amount above 0 in your store's currency (up to two decimals).",
  );
}

/** The rules across fields of one section, run once each field parsed; each returns the columns to write. */
const ACROSS: Partial<Record<SettingsSectionId, (v: Fields, ctx: z.RefinementCtx) => Fields>> = {
  checkout(v, ctx) {
    const out = { ...v };
    out.prepaidDiscountValue = adjusted(ctx, v.prepaidDiscountType, "prepaidDiscountValue", v.prepaidDiscountValue, L.prepaidDiscountPercentageMax);
    out.codFeeValue = adjusted(ctx, v.codFeeType, "codFeeValue", v.codFeeValue, L.codFeePercentageMax);
    if (v.codFeeType !== "none" && !v.codFeeVariantId) refuse(ctx, "codFeeVariantId", "A fee needs the product variant it is charged through.");
    const deposit = typeof v.depositValue === "number" ? v.depositValue : NaN;
    const { min, max } = L.depositPercentage;
    if (v.depositType === "percentage" ? !(deposit >= min && deposit <= max) : !(deposit > 0 && deposit <= L.depositFixedMax)) {
      refuse(ctx, "depositValue", v.depositType === "percentage" ? `Enter a percentage from ${min} to ${max} (up to two decimals).` : "Enter an amount above 0 in your store's currency (up to two decimals).");
    }
    return out;
  },
  "pay-now"(v, ctx) {
    const value = adjusted(ctx, v.prepaidOfferIncentiveType, "prepaidOfferIncentiveValue", v.prepaidOfferIncentiveValue, L.prepaidOfferPercentageMax);
    const cap = typeof v.prepaidOfferIncentiveCap === "number" && v.prepaidOfferIncentiveCap > 0 ? v.prepaidOfferIncentiveCap : null;
    return { ...v, prepaidOfferIncentiveValue: value, prepaidOfferIncentiveCap: v.prepaidOfferIncentiveType === "percentage" ? cap : null };
  },
  risk(v, ctx) {
    if (typeof v.riskHighThreshold === "number" && typeof v.riskMediumThreshold === "number" && v.riskHighThreshold <= v.riskMediumThreshold) {
      refuse(ctx, "riskHighThreshold", "The high band must start above the medium band.");
    }
    if (typeof v.riskDepositMin === "number" && typeof v.riskDepositMax === "number" && v.riskDepositMax < v.riskDepositMin) refuse(ctx, "riskDepositMax", "The largest deposit must not be below the smallest.");
    return v;
  },
  confirmation(v, ctx) {
    if ((v.quietHoursStart === null) !== (v.quietHoursEnd === null)) refuse(ctx, v.quietHoursStart === null ? "quietHoursStart" : "quietHoursEnd", "Enter both times of the quiet hours, or neither.");
    return v;
  },
};

/** One section's parser: its fields' parsers from the registry, read in full (every field's error at once), then its rules across fields. */
function sectionSchema(section: SettingsSectionId) {
  const shape = Object.fromEntries(sectionFields(section).map((f) => [f, SETTINGS[f].parse]));
  const across = ACROSS[section];
  return z.object(shape).transform((v: Fields, ctx) => (across ? across(v, ctx) : v));
}

const SCHEMAS = Object.fromEntries(SECTIONS.map((s) => [s.id, sectionSchema(s.id)])) as Record<SettingsSectionId, ReturnType<typeof sectionSchema>>;

export type SettingsResult<Data = SettingsUpdate> = { ok: true; data: Data } | { ok: false; errors: SettingsErrors; values: Partial<SettingsFormValues> };

function read(fields: readonly SettingsField[], input: FormData | Record<string, unknown>): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const field of fields) {
    const value = input instanceof FormData ? input.get(field) : input[field];
    raw[field] = value === null ? undefined : value;
  }
  return raw;
}

/** Parses the given sections of a posted form; nothing outside them is read. */
function parseSections(sections: readonly SettingsSectionId[], input: FormData | Record<string, unknown>): SettingsResult {
  const fields = SETTINGS_FIELDS.filter((f) => sections.includes(SETTINGS[f].section));
  const raw = read(fields, input);
  const data: Fields = {};
  const errors: SettingsErrors = {};
  for (const section of sections) {
    const parsed = SCHEMAS[section].safeParse(raw);
    if (parsed.success) Object.assign(data, parsed.data);
    else for (const issue of parsed.error.issues) errors[issue.path[0] as SettingsField] ??= issue.message;
  }
  if (Object.keys(errors).length) {
    // What the merchant typed goes back to the page as is (a file upload or a missing field as empty).
    const values = Object.fromEntries(fields.map((f) => [f, typeof raw[f] === "string" ? raw[f] : ""])) as Partial<SettingsFormValues>;
    return { ok: false, errors, values };
  }
  // Built from the registry's parsers, whose outputs are the columns' types.
  return { ok: true, data: data as SettingsUpdate };
}

/** One section's form (FormData or a plain record) → its columns to write, or each of its fields' first error. */
export function parseSection(section: SettingsSectionId, input: FormData | Record<string, unknown>): SettingsResult {
  return parseSections([section], input);
}

/** Every section at once (a whole shop's settings, as the tests and the docs' examples give them). */
export function parseSettings(input: FormData | Record<string, unknown>): SettingsResult<Pick<Shop, SettingsField>> {
  // Every section read: every column is there.
  return parseSections(
    SECTIONS.map((s) => s.id),
    input,
  ) as SettingsResult<Pick<Shop, SettingsField>>;
}

/** The shop's current settings as the forms show them. */
export function settingsFormValues(shop: Pick<Shop, SettingsField>): SettingsFormValues {
  return Object.fromEntries(SETTINGS_FIELDS.map((f) => [f, shownValue(f, shop)])) as SettingsFormValues;
}

/** A new shop's settings as the forms show them (each column's default, from the registry). */
export const DEFAULT_FORM_VALUES = Object.fromEntries(SETTINGS_FIELDS.map((f) => [f, SETTINGS[f].default])) as SettingsFormValues;
