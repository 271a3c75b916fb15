import { z } from "zod";
import type { Shop } from "~/core/settings/shop.server";
import { parseTagList } from "./tags";
import { parsePhoneList, parsePostalCodeList } from "./score";
import { parseSourceList } from "~/shared/traffic-source";

/**
 * The Risk page's form (app/routes/app.risk.tsx): the band thresholds and the merchant's rules, which
 * decide before the score (docs/risk.md). Its own small schema, apart from the settings page's, so it
 * writes only the risk columns of the shop's row.
 */
export const RISK_SETTINGS_FIELDS = [
  "riskMediumThreshold",
  "riskHighThreshold",
  "riskDeniedPostalCodes",
  "riskPrepaidPhones",
  "riskCodValueCap",
  "riskPhoneCodeLimit",
  "riskIpAttemptLimit",
  "riskPhoneOrderLimit",
  "riskIpOrderLimit",
  "riskFailureTags",
  "riskPrepaidSources",
] as const;
export type RiskSettingsField = (typeof RISK_SETTINGS_FIELDS)[number];
export type RiskSettingsValues = Record<RiskSettingsField, string>;
export type RiskSettingsErrors = Partial<Record<RiskSettingsField, string>>;

/** Up to this many entries a list (a paste of a spreadsheet column fits). */
export const RISK_LIST_MAX = 2000;

const text = (message: string) => z.string({ required_error: message, invalid_type_error: message });

function threshold(message: string) {
  return text(message).trim().refine((v) => /^\d{1,3}$/.test(v) && Number(v) >= 1 && Number(v) <= 100, message).transform(Number);
}

/** A list as the merchant pastes it; every entry must read as one (a typo is shown, never dropped). */
function list(parse: (t: string) => string[], what: string) {
  return text(`Enter ${what}, one a line, or leave it empty.`).transform((raw, ctx) => {
    const entries = raw.split(/[\n,;]+/).map((s) => s.trim()).filter(Boolean);
    const unreadable = entries.filter((e) => parse(e).length === 0);
    if (unreadable.length || entries.length > RISK_LIST_MAX) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: unreadable.length ? `Not ${what}: ${unreadable.slice(0, 5).join(", ")}.` : `Up to ${RISK_LIST_MAX} entries.`,
      });
      return z.NEVER;
    }
    return parse(raw).join("\n");
  });
}

/** A velocity limit in 24 hours: a whole number from 1 to 10,000, or empty for none. */
function limit() {
  const message = "Enter a whole number from 1 to 10000, or leave it empty for no limit.";
  return text(message)
    .trim()
    .refine((v) => v === "" || (/^\d{1,5}$/.test(v) && Number(v) >= 1 && Number(v) <= 10_000), message)
    .transform((v) => (v === "" ? null : Number(v)));
}

const schema = z
  .object({
    riskMediumThreshold: threshold("Enter a score from 1 to 100."),
    riskHighThreshold: threshold("Enter a score from 1 to 100."),
    riskDeniedPostalCodes: list(parsePostalCodeList, "postal codes (a prefix ends with *)"),
    riskPrepaidPhones: list(parsePhoneList, "phone numbers in international form (+ and country code)"),
    riskCodValueCap: text("Enter an amount or leave it empty.")
      .trim()
      .transform((v) => v.replace(/^(\d+),(\d+)$/, "$1.$2"))
      .refine((v) => v === "" || (/^\d{1,9}(\.\d{1,2})?$/.test(v) && Number(v) > 0), "Enter an amount above 0 (up to two decimals), or leave it empty for no cap.")
      .transform((v) => (v === "" ? null : Number(v))),
    riskPhoneCodeLimit: limit(),
    riskIpAttemptLimit: limit(),
    riskPhoneOrderLimit: limit(),
    riskIpOrderLimit: limit(),
    riskFailureTags: text("Enter tags, one a line, or leave it empty.").transform((raw, ctx) => {
      const tags = parseTagList(raw);
      if (tags.length > 50 || tags.some((t) => t.length > 40)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Up to 50 tags of up to 40 characters." });
        return z.NEVER;
      }
      // As typed (case kept, for the merchant's eye), one a line; compared without case.
      const kept = new Map<string, string>();
      for (const t of raw.split(/[\n,;]+/).map((x) => x.trim()).filter(Boolean)) if (!kept.has(t.toLowerCase())) kept.set(t.toLowerCase(), t);
      return [...kept.values()].join("\n");
    }),
  })
  .and(
    z.object({
      // Traffic sources whose shoppers pay in advance: "facebook", or "facebook/cpc" for one medium of it.
      riskPrepaidSources: text("Enter sources, one a line, or leave it empty.").transform((raw, ctx) => {
        const entries = raw.split(/[\n,;]+/).map((e) => e.trim()).filter(Boolean);
        const unreadable = entries.filter((e) => parseSourceList(e).length === 0);
        if (unreadable.length || entries.length > 200) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: unreadable.length ? `Not a source: ${unreadable.slice(0, 5).join(", ")}.` : "Up to 200 sources." });
          return z.NEVER;
        }
        return parseSourceList(raw).join("\n");
      }),
    }),
  )
  .superRefine((s, ctx) => {
    if (s.riskHighThreshold <= s.riskMediumThreshold) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["riskHighThreshold"], message: "The high band must start above the medium band." });
    }
  });

export type RiskSettingsUpdate = z.output<typeof schema>;

export function parseRiskSettings(input: FormData | Record<string, unknown>):
  | { ok: true; data: RiskSettingsUpdate }
  | { ok: false; errors: RiskSettingsErrors; values: RiskSettingsValues } {
  const raw: Record<string, unknown> = {};
  for (const field of RISK_SETTINGS_FIELDS) raw[field] = (input instanceof FormData ? input.get(field) : input[field]) ?? undefined;
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors: RiskSettingsErrors = {};
  for (const issue of parsed.error.issues) errors[issue.path[0] as RiskSettingsField] ??= issue.message;
  const values = Object.fromEntries(RISK_SETTINGS_FIELDS.map((f) => [f, typeof raw[f] === "string" ? raw[f] : ""])) as RiskSettingsValues;
  return { ok: false, errors, values };
}

export function riskSettingsFormValues(shop: Pick<Shop, RiskSettingsField>): RiskSettingsValues {
  return {
    riskMediumThreshold: String(shop.riskMediumThreshold),
    riskHighThreshold: String(shop.riskHighThreshold),
    riskDeniedPostalCodes: shop.riskDeniedPostalCodes,
    riskPrepaidPhones: shop.riskPrepaidPhones,
    riskCodValueCap: shop.riskCodValueCap === null ? "" : String(shop.riskCodValueCap),
    riskPhoneCodeLimit: shop.riskPhoneCodeLimit === null ? "" : String(shop.riskPhoneCodeLimit),
    riskIpAttemptLimit: shop.riskIpAttemptLimit === null ? "" : String(shop.riskIpAttemptLimit),
    riskPhoneOrderLimit: shop.riskPhoneOrderLimit === null ? "" : String(shop.riskPhoneOrderLimit),
    riskIpOrderLimit: shop.riskIpOrderLimit === null ? "" : String(shop.riskIpOrderLimit),
    // One a line, as the field asks, whatever separators the stored list has (the default is "RTO, returned, refused").
    riskFailureTags: shop.riskFailureTags
      .split(/[\n,;]+/)
      .map((t) => t.trim())
      .filter(Boolean)
      .join("\n"),
    riskPrepaidSources: shop.riskPrepaidSources,
  };
}
