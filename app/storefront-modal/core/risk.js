/**
 * The risk answers of send-otp, verify-otp and create-checkout (docs/risk.md): `allowedModes` narrows
 * the shop's modes for this shopper (a high band takes cash on delivery away), and the first reason
 * the modal knows becomes one neutral sentence, never the score nor the word "risk".
 */

/**
 * The shop's modes this shopper may choose, in the shop's order; the shop's own when the answer says
 * nothing usable. With a priced deposit, partial is offered even where the shop does not offer it.
 */
export function riskModes(shopModes, allowed, priced) {
  if (!Array.isArray(allowed)) return shopModes.slice();
  var modes = shopModes.filter(function (m) { return allowed.indexOf(m) !== -1; });
  if (priced && allowed.indexOf("partial") !== -1 && modes.indexOf("partial") === -1) modes.push("partial");
  return modes;
}

/** A priced deposit an answer carries (`deposit: { amount, currency }`), or null. */
export function riskDeposit(body) {
  var d = body && body.deposit;
  return d && typeof d.amount === "number" && d.amount > 0 && isFinite(d.amount) ? { amount: d.amount, currency: typeof d.currency === "string" ? d.currency : null } : null;
}

/** The shop's pricing with the priced deposit as a fixed amount of the shop's currency. */
export function pricingWithDeposit(pricing, deposit) {
  var p = pricing && typeof pricing === "object" ? pricing : {};
  var out = {};
  for (var k in p) if (Object.prototype.hasOwnProperty.call(p, k)) out[k] = p[k];
  out.deposit = { type: "fixed", value: deposit.amount };
  if (deposit.currency) out.currency = deposit.currency;
  return out;
}

/** Reason codes (merchant rules first, then score reasons) and the sentence each is told with. */
var NOTE_OF = {
  phone_prepaid_only: "risk_prepaid_only",
  postal_code_denied: "risk_area",
  cod_value_cap: "risk_value",
  velocity_phone: "risk_busy",
  velocity_ip: "risk_busy",
  phone_code_limit: "risk_busy",
  ip_attempt_limit: "risk_busy",
  phone_order_limit: "risk_busy",
  ip_order_limit: "risk_busy",
};

/** The translation key telling why cash on delivery is not offered: the first reason with a sentence of its own, else a general one. */
export function riskNoteKey(risk) {
  var reasons = risk && Array.isArray(risk.reasons) ? risk.reasons : [];
  for (var i = 0; i < reasons.length; i++) {
    var key = reasons[i] && NOTE_OF[reasons[i].code];
    if (key) return key;
  }
  return "risk_generic";
}
