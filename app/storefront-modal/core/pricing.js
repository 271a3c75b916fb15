/** What each way to pay costs, in the shopper's language and currency. */
export function cents(amount) {
  return Math.round(amount * 100) / 100;
}

/**
 * What each mode costs for items worth `total` in `currency`, from the config's pricing (COD fee,
 * prepaid saving, deposit: a percentage, or a fixed amount in the shop's currency). A fixed amount
 * counts only when the shopper pays in the shop's currency; otherwise that mode shows no amount
 * (null). Shipping is not known here: these are the items' amounts.
 */
export function quote(total, currency, pricing) {
  if (!(total > 0) || !/^[A-Z]{3}$/.test(String(currency))) return null;
  var p = pricing && typeof pricing === "object" ? pricing : {};
  var sameCurrency = !p.currency || p.currency === currency;
  var part = function (adj) {
    if (!adj || !(adj.value > 0)) return 0;
    if (adj.type === "percentage") return cents((total * adj.value) / 100);
    return adj.type === "fixed" && sameCurrency ? cents(adj.value) : null;
  };
  var fee = part(p.codFee);
  var saving = part(p.prepaidDiscount);
  var deposit = p.deposit ? part(p.deposit) : null;
  return {
    total: cents(total),
    currency: currency,
    cod: fee === null ? null : { later: cents(total + fee), fee: fee },
    prepaid: saving === null ? null : { now: cents(Math.max(0, total - saving)), saving: Math.min(saving, cents(total)) },
    partial: !deposit ? null : { now: Math.min(deposit, cents(total)), later: cents(Math.max(0, total - deposit)) },
  };
}

/** 1049 "INR" "hi" -> "₹1,049.00" in the shopper's language; plain "1049.00 INR" where Intl cannot. */
export function money(amount, currency, locale) {
  try {
    return new Intl.NumberFormat(locale || "en", { style: "currency", currency: currency }).format(amount);
  } catch {
    return amount.toFixed(2) + " " + currency;
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
