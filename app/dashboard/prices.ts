/**
 * The dashboard's estimate of messaging spend: USD per SMS segment by destination country. The
 * defaults are approximate list prices of Twilio's Programmable Messaging (outbound SMS, late 2026);
 * carriers' fees change them, so the merchant can replace any of them with their own invoice's.
 * "*" is every other country.
 */
export const DEFAULT_SMS_PRICES: Readonly<Record<string, number>> = {
  US: 0.0083,
  CA: 0.0083,
  GB: 0.0524,
  IN: 0.0832,
  AE: 0.0603,
  SA: 0.0784,
  FR: 0.0865,
  ES: 0.0847,
  "*": 0.08,
};

export type SmsPrices = Record<string, number>;

/** Shop.smsPrices (JSON, or null for the defaults) → the table, the defaults filling what it leaves out. */
export function smsPricesOf(stored: string | null | undefined): SmsPrices {
  let own: unknown = null;
  try {
    own = stored ? JSON.parse(stored) : null;
  } catch {
    own = null;
  }
  const prices: SmsPrices = { ...DEFAULT_SMS_PRICES };
  if (own && typeof own === "object") {
    for (const [country, price] of Object.entries(own as Record<string, unknown>)) {
      if ((/^[A-Z]{2}$/.test(country) || country === "*") && typeof price === "number" && Number.isFinite(price) && price >= 0 && price <= 10) prices[country] = price;
    }
  }
  return prices;
}

export function priceFor(prices: SmsPrices, country: string): number {
  return prices[country] ?? prices["*"] ?? 0;
}

/**
 * The price form: one "CC price" a line ("IN 0.0832", "* 0.08"). Returns the table, or the numbers of
 * the lines it could not read (1-based).
 */
export function parsePriceLines(text: string): { ok: true; prices: SmsPrices } | { ok: false; badLines: number[] } {
  const prices: SmsPrices = {};
  const badLines: number[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const trimmed = line.trim();
    if (!trimmed) return;
    const m = /^([A-Za-z]{2}|\*)\s*[:=,]?\s*\$?\s*(\d+(?:\.\d+)?)$/.exec(trimmed);
    const price = m ? Number(m[2]) : NaN;
    if (!m || !(price >= 0 && price <= 10)) badLines.push(i + 1);
    else prices[m[1].toUpperCase()] = price;
  });
  if (badLines.length || Object.keys(prices).length > 250) return { ok: false, badLines: badLines.length ? badLines : [251] };
  return { ok: true, prices };
}

export function priceLines(prices: SmsPrices): string {
  return Object.entries(prices)
    .sort(([a], [b]) => (a === "*" ? 1 : b === "*" ? -1 : a.localeCompare(b)))
    .map(([country, price]) => `${country} ${price}`)
    .join("\n");
}
