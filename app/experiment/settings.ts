import { z } from "zod";
import { wholeNumber } from "~/core/settings/schema/fields";

/**
 * The Settings' "Holdout experiment" page, its own forms (it starts and stops an experiment, it is not a
 * setting): what each of its two buttons posts.
 */

/** The share of shoppers held out, in percent: the merchant's range and the default. */
export const HOLDOUT_SHARE = { min: 5, max: 30, default: 10 } as const;
/** The longest period a merchant may set, in days. */
export const MAX_EXPERIMENT_DAYS = 365;

export type ExperimentStart = { holdoutShare: number; days: number | null };

export const experimentForm = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("experiment-start"),
    holdoutPercent: wholeNumber(HOLDOUT_SHARE.min, HOLDOUT_SHARE.max),
    // Empty: until the merchant stops it.
    days: z.union([z.literal("").transform(() => null), wholeNumber(1, MAX_EXPERIMENT_DAYS)]),
  }),
  z.object({ intent: z.literal("experiment-stop") }),
]);

export type ExperimentForm = z.output<typeof experimentForm>;
export type ExperimentFormErrors = Partial<Record<"holdoutPercent" | "days" | "intent", string>>;

/** The posted card → what to do, or each field's first error. */
export function parseExperimentForm(form: FormData): { ok: true; data: ExperimentForm } | { ok: false; errors: ExperimentFormErrors } {
  const raw = Object.fromEntries(["intent", "holdoutPercent", "days"].map((k) => [k, form.get(k) ?? undefined]));
  const parsed = experimentForm.safeParse(raw);
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors: ExperimentFormErrors = {};
  for (const issue of parsed.error.issues) {
    const field = (issue.path[0] ?? "intent") as keyof ExperimentFormErrors;
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}
