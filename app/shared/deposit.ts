/**
 * The deposit split of a partial checkout on a store without draft-order deposits (pure: no I/O).
 * docs/decisions/partial-deposit-by-discount-and-edit.md says what the order looks like.
 */

/** Prefix of the single-use codes the app creates: orders/create recognises its own codes by it. */
export const DEPOSIT_CODE_PREFIX = "CODV-DEP-";

/** The title of the line the order edit adds: the balance, due in cash on delivery. */
export const BALANCE_LINE_TITLE = "Balance due on delivery (cash)";

/** How many decimals a currency's amounts carry (JPY 0, USD 2, KWD 3); 2 when the runtime does not know it. */
export function currencyDigits(currency: string | null | undefined): number {
  if (!currency) return 2;
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

function round(amount: number, digits: number, up = false): number {
  const f = 10 ** digits;
  const scaled = Math.round(amount * f * 1e6) / 1e6; // drop float noise before rounding up
  return (up ? Math.ceil(scaled) : Math.round(scaled)) / f;
}

export type DepositSplit = { subtotal: number; deposit: number; balance: number };

/**
 * The items' subtotal split into the deposit paid at checkout and the balance collected on delivery:
 * a percentage (1 to 99) rounded up to the currency's smallest unit, so the shopper never pays less
 * than configured, or a fixed amount. Null when no split leaves both parts above zero.
 */
export function depositSplit(depositType: string, depositValue: number, subtotal: number, digits: number): DepositSplit | null {
  if (!(subtotal > 0) || !(depositValue > 0)) return null;
  let deposit: number;
  if (depositType === "fixed") deposit = round(depositValue, digits);
  else if (depositValue >= 1 && depositValue <= 99) deposit = round((subtotal * depositValue) / 100, digits, true);
  else return null;
  const balance = round(subtotal - deposit, digits);
  if (!(deposit > 0) || !(balance > 0)) return null;
  return { subtotal: round(subtotal, digits), deposit, balance };
}

/** The order's discount codes as orders/create carries them: the one the app created for a deposit, if any. */
export function depositCodeOf(codes: { code: string; amount: number }[]): { code: string; amount: number } | null {
  return codes.find((c) => c.code.toUpperCase().startsWith(DEPOSIT_CODE_PREFIX)) ?? null;
}
