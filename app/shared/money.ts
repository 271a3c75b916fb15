/**
 * The one rounding rule for money the app computes, shared by the server (app/shared/deposit.ts) and
 * the storefront modal (app/storefront-modal/core/pricing.js bundles this file), so the amounts the modal
 * shows are the amounts the server asks Shopify for, to the smallest unit of the currency.
 * Plain TypeScript with no imports: esbuild strips the types when it bundles the modal.
 */

/** How many decimals a currency's amounts carry (JPY 0, USD 2, KWD 3); 2 when the runtime does not know it. */
export function currencyDigits(currency: string | null | undefined): number {
  if (!currency) return 2;
  try {
    const digits = new Intl.NumberFormat("en", { style: "currency", currency: currency }).resolvedOptions().maximumFractionDigits;
    return typeof digits === "number" ? digits : 2;
  } catch {
    return 2;
  }
}

/** `amount` to the currency's smallest unit (`digits` decimals): to the nearest, or up (`up`). Float noise is dropped first. */
export function roundMoney(amount: number, digits: number, up?: boolean): number {
  const f = Math.pow(10, digits);
  const scaled = Math.round(amount * f * 1e6) / 1e6;
  return (up ? Math.ceil(scaled) : Math.round(scaled)) / f;
}

export type DepositSplit = { subtotal: number; deposit: number; balance: number };

/**
 * The items' subtotal split into the deposit paid at checkout and the balance collected on delivery:
 * a percentage (1 to 99) rounded up to the currency's smallest unit, so the shopper never pays less
 * than configured, or a fixed amount (in the subtotal's currency). Null when no split leaves both parts
 * above zero.
 */
export function depositSplit(depositType: string, depositValue: number, subtotal: number, digits: number): DepositSplit | null {
  if (!(subtotal > 0) || !(depositValue > 0)) return null;
  let deposit: number;
  if (depositType === "fixed") deposit = roundMoney(depositValue, digits);
  else if (depositValue >= 1 && depositValue <= 99) deposit = roundMoney((subtotal * depositValue) / 100, digits, true);
  else return null;
  const whole = roundMoney(subtotal, digits);
  const balance = roundMoney(whole - deposit, digits);
  if (!(deposit > 0) || !(balance > 0)) return null;
  return { subtotal: whole, deposit: deposit, balance: balance };
}
