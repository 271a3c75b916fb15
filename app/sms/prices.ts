import { z } from "zod";

/** A channel a text goes out on (a call has no per-message price here). */
export type PricedChannel = "sms" | "whatsapp";

const prices = z.record(z.union([z.string().regex(/^[A-Z]{2}$/), z.literal("*")]), z.number().nonnegative().max(10));

/**
 * The operator's price table (`scripts/message-prices.json`, or `--prices FILE`): the price of one
 * message in `currency`, by destination country ("*" any other). SMS per segment; WhatsApp by Meta's
 * template category (codes are authentication templates; confirmations and links are utility), the
 * provider's own per-message fee included.
 */
export const priceTableSchema = z
  .object({
    currency: z.string().regex(/^[A-Z]{3}$/),
    asOf: z.string().min(1),
    sms: prices,
    whatsapp: z.object({ authentication: prices, utility: prices }).strict(),
  })
  .passthrough();
export type PriceTable = z.infer<typeof priceTableSchema>;

/** The price table from a file's text, or every problem in it (path and message), never a guess. */
export function parsePriceTable(text: string): { ok: true; table: PriceTable } | { ok: false; problems: string[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [`not JSON: ${(error as Error).message}`] };
  }
  const parsed = priceTableSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((i) => `${i.path.join(".") || "(top)"}: ${i.message}`) };
  return { ok: true, table: parsed.data };
}

/** One message's price: null when the table has neither its country nor "*" (reported, never counted as free). */
export function priceOf(table: PriceTable, channel: PricedChannel, purpose: string, country: string | null): number | null {
  const row = channel === "sms" ? table.sms : purpose === "otp" ? table.whatsapp.authentication : table.whatsapp.utility;
  return (country ? row[country] : undefined) ?? row["*"] ?? null;
}

