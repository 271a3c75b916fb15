/** What each way to pay costs, in the shopper's language and currency. */
import { currencyDigits, depositSplit, roundMoney } from "../../shared/money";

/**
 * The rate Shopify converts the shop's currency into `currency` at, as the theme's page states it
 * (`window.Shopify.currency`: { active, rate }); null when the page names another currency or no usable rate.
 */
export function presentmentRate(currency, shopify) {
  var c = shopify && shopify.currency;
  var rate = c && c.active === currency ? Number(c.rate) : NaN;
  return isFinite(rate) && rate > 0 ? rate : null;
}

/**
 * What each mode costs for items worth `total` in `currency` (the cart's), from the config's pricing
 * (COD fee, prepaid saving, deposit: a percentage, or a fixed amount in the shop's currency `pricing.currency`),
 * every amount rounded to the currency's smallest unit by the server's rule (app/shared/money.ts).
 * In another currency than the shop's: a fixed prepaid saving is a discount code's amount, which Shopify
 * converts at `rate` (the page's, presentmentRate); a fixed COD fee (a product line Shopify prices by its own
 * rounding) and a fixed deposit (which the server cannot split in another currency: it falls back) show no
 * amount (null). Shipping is not known here: these are the items' amounts.
 */
export function quote(total, currency, pricing, rate) {
  if (!(total > 0) || !/^[A-Z]{3}$/.test(String(currency))) return null;
  var p = pricing && typeof pricing === "object" ? pricing : {};
  var digits = currencyDigits(currency);
  var sameCurrency = !p.currency || p.currency === currency;
  var items = roundMoney(total, digits);
  var part = function (adj, converted) {
    if (!adj || !(adj.value > 0)) return 0;
    if (adj.type === "percentage") return roundMoney((items * adj.value) / 100, digits);
    if (adj.type !== "fixed") return null;
    if (sameCurrency) return roundMoney(adj.value, digits);
    return converted && rate > 0 ? roundMoney(adj.value * rate, digits) : null;
  };
  var fee = part(p.codFee, false);
  var saving = part(p.prepaidDiscount, true);
  var split = p.deposit && (p.deposit.type === "percentage" || sameCurrency) ? depositSplit(p.deposit.type, p.deposit.value, items, digits) : null;
  return {
    total: items,
    currency: currency,
    cod: fee === null ? null : { later: roundMoney(items + fee, digits), fee: fee },
    prepaid: saving === null ? null : { now: roundMoney(Math.max(0, items - saving), digits), saving: Math.min(saving, items) },
    partial: split ? { now: split.deposit, later: split.balance } : null,
  };
}

/**
 * 1049 "INR" "hi" -> "₹1,049.00" in the shopper's language, the currency's symbol in every language
 * (narrowSymbol: Spanish's own format writes "1049,00 INR"); plain "1049.00 INR" where Intl cannot.
 */
export function money(amount, currency, locale) {
  try {
    return new Intl.NumberFormat(locale || "en", { style: "currency", currency: currency, currencyDisplay: "narrowSymbol" }).format(amount);
  } catch {
    return amount.toFixed(currencyDigits(currency)) + " " + currency;
  }
}

/** The translation key and values that say what a mode costs, or null. */
export function amountText(mode, q, locale) {
  var m = q && q[mode];
  if (!m) return null;
  var f = function (n) { return money(n, q.currency, locale); };
  if (mode === "cod") return m.fee > 0 ? { key: "amount_cod_fee", values: { amount: f(m.later), fee: f(m.fee) } } : { key: "amount_cod", values: { amount: f(m.later) } };
  if (mode === "prepaid") return m.saving > 0 ? { key: "amount_prepaid_saving", values: { amount: f(m.now), saving: f(m.saving) } } : { key: "amount_prepaid", values: { amount: f(m.now) } };
  return { key: "amount_partial", values: { now: f(m.now), later: f(m.later) } };
}
