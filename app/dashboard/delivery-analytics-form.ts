import { z } from "zod";

/**
 * The delivery analytics page's one setting: what a failed COD parcel costs the merchant (shop currency;
 * empty: not set, money is then not shown), and the period the page reads (`?days=`).
 */
const message = "Enter what one failed parcel costs you (up to two decimals), or leave it empty.";
export const codFailureCostForm = z.object({
  codFailureCost: z
    .string({ required_error: message, invalid_type_error: message })
    .trim()
    .transform((v) => v.replace(/^(\d+),(\d+)$/, "$1.$2"))
    .refine((v) => v === "" || (/^\d{1,9}(\.\d{1,2})?$/.test(v) && Number(v) <= 1_000_000), message)
    .transform((v) => (v === "" ? null : Number(v))),
});

/** `?days=` as one of the page's periods (90 by default). */
export function periodOf(url: URL, periods: readonly number[]): number {
  const asked = Number(url.searchParams.get("days"));
  return periods.includes(asked) ? asked : 90;
}
