/**
 * The deposit split of a partial checkout on a store without draft-order deposits (pure: no I/O).
 * docs/decisions/partial-deposit-by-discount-and-edit.md says what the order looks like.
 */

/** Prefix of the single-use codes the app creates: orders/create recognises its own codes by it. */
export const DEPOSIT_CODE_PREFIX = "CODV-DEP-";

/** The title of the line the order edit adds: the balance, due in cash on delivery. */
export const BALANCE_LINE_TITLE = "Balance due on delivery (cash)";

// The split and its rounding are the modal's too: one rule, in app/shared/money.ts.
export { currencyDigits, depositSplit, roundMoney, type DepositSplit } from "~/shared/money";

/** The order's discount codes as orders/create carries them: the one the app created for a deposit, if any. */
export function depositCodeOf(codes: { code: string; amount: number }[]): { code: string; amount: number } | null {
  return codes.find((c) => c.code.toUpperCase().startsWith(DEPOSIT_CODE_PREFIX)) ?? null;
}
