import { riskNoteKey } from "./risk.js";

/** The app proxy's answers, as outcomes the modal acts on and the messages it shows for them. */
export function seconds(value, fallback) {
  var n = Number(value);
  return isFinite(n) && n >= 0 ? Math.ceil(n) : fallback;
}

/** 75 -> "1:15"; 9 -> "0:09". */
export function clock(total) {
  var s = Math.max(0, Math.ceil(total));
  var m = Math.floor(s / 60);
  s = s % 60;
  return m + ":" + (s < 10 ? "0" : "") + s;
}

/** Any API answer as one outcome; status 0 = no answer. Unknown shapes are an error, never a crash. */
export function interpret(status, body) {
  var b = body && typeof body === "object" ? body : {};
  if (status === 0) return { kind: "network" };
  if (status >= 200 && status < 300) {
    if (typeof b.checkoutUrl === "string" && /^https?:\/\//.test(b.checkoutUrl)) return { kind: "checkout", url: b.checkoutUrl };
    if (b.fallback === true) return { kind: "fallback" };
    // cap_fallback: the shop's daily cap is spent and it confirms cash-on-delivery orders after purchase instead.
    if (b.success === true && b.skipped) return { kind: "skipped", reason: b.reason === "returning_customer" || b.reason === "cap_fallback" ? b.reason : "otp_disabled" };
    if (b.success === true) return { kind: "ok", resendAfter: seconds(b.resendAfter, null), expiresIn: seconds(b.expiresIn, null), channel: b.channel === "whatsapp" ? "whatsapp" : "sms" };
    return { kind: "error", code: "unexpected" };
  }
  if (status === 402 || b.code === "subscription_required") return { kind: "fallback" };
  switch (b.code) {
    case "rate_limited":
      return { kind: "rate_limited", retryAfter: seconds(b.retryAfter, 60) };
    case "invalid_code":
      return { kind: "invalid_code", attemptsRemaining: seconds(b.attemptsRemaining, null) };
    case "attempts_exhausted":
    case "code_expired":
    case "invalid_phone":
    case "phone_unreachable":
    case "sms_unavailable":
    case "shop_daily_cap":
    case "country_not_allowed":
    case "phone_blocked":
    case "phone_not_verified":
      return { kind: b.code };
    case "already_verified":
      // The right code, already used by another answer of it (a double tap, another tab, a retry): the number is verified.
      return { kind: "already_verified" };
    case "cod_not_allowed":
      // A high-risk shopper (docs/risk.md): the modes left and the reasons come with the refusal.
      return { kind: "cod_not_allowed", allowedModes: Array.isArray(b.allowedModes) ? b.allowedModes : [], risk: b.risk || null };
  }
  if (status === 502 || status === 503 || status === 504) return { kind: "sms_unavailable" };
  return { kind: "error", code: String(b.code || status) };
}

/**
 * A failure's message and way out: newCode, checkout (normal checkout), step "phone", wait
 * (countdown), forward (a dead end for a code by text: paying online is offered where the shop
 * takes it), whatsapp (the text failed: the code by WhatsApp where the shop has it), sms (a code
 * asked for on WhatsApp failed: the code by text message instead).
 */
export function failureMessage(outcome) {
  switch (outcome.kind) {
    case "invalid_phone":
      return { key: "error_invalid_phone", step: "phone" };
    case "phone_unreachable":
      return { key: "error_phone_unreachable", step: "phone", forward: true, whatsapp: true };
    case "country_not_allowed":
      return { key: "error_country_not_allowed", step: "phone", forward: true };
    case "phone_blocked":
      return { key: "error_phone_blocked", step: "phone", forward: true };
    case "phone_not_verified":
      return { key: "error_phone_not_verified", step: "phone" };
    case "rate_limited":
      // Asked for on WhatsApp: the same number by text is offered too (a send like any other: every limit applies).
      return { key: "error_rate_limited", values: { time: clock(outcome.retryAfter) }, wait: outcome.retryAfter, forward: true, sms: true };
    case "sms_unavailable":
    case "shop_daily_cap":
      return { key: "error_sms_unavailable", checkout: true, forward: true, whatsapp: outcome.kind === "sms_unavailable", sms: outcome.kind === "sms_unavailable" };
    case "invalid_code":
      return outcome.attemptsRemaining == null
        ? { key: "error_invalid_code" }
        : { key: "error_attempts_left", count: outcome.attemptsRemaining, values: { count: outcome.attemptsRemaining } };
    case "attempts_exhausted":
      return { key: "error_attempts_exhausted", newCode: true };
    case "code_expired":
      return { key: "error_code_expired", newCode: true };
    case "network":
      return { key: "error_network", checkout: true };
    case "cod_not_allowed":
      return { key: riskNoteKey(outcome.risk), forward: true };
    default:
      return { key: "error_generic", checkout: true };
  }
}
