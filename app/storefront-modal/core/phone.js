/** Phone numbers and codes as the shopper types them (any script's digits, national or international). */
export var E164 = /^\+[0-9]{10,15}$/;
export var DIGIT_BLOCKS = [0x0660, 0x06f0, 0x0966, 0x09e6, 0xff10]; // Arabic-Indic, Persian, Devanagari, Bengali, full-width

/** Digits typed in the shopper's own script -> ASCII. */
export function asciiDigits(text) {
  return String(text == null ? "" : text).replace(/[\u0660-\u0669\u06f0-\u06f9\u0966-\u096f\u09e6-\u09ef\uff10-\uff19]/g, function (d) {
    var c = d.charCodeAt(0);
    for (var i = 0; i < DIGIT_BLOCKS.length; i++) if (c >= DIGIT_BLOCKS[i] && c <= DIGIT_BLOCKS[i] + 9) return String(c - DIGIT_BLOCKS[i]);
    return d;
  });
}

/** E.164 or null; national numbers take `dialCode`, a trunk "0" is dropped, "00" means "+". */
export function toE164(raw, dialCode) {
  var s = asciiDigits(raw).trim().replace(/[\s().\-\u00a0\u200e\u200f]/g, "");
  if (!s) return null;
  if (s.indexOf("00") === 0) s = "+" + s.slice(2);
  if (s.charAt(0) !== "+") {
    s = s.replace(/^0+/, "");
    var dial = String(dialCode || "").replace(/\D/g, "");
    if (dial && s.indexOf(dial) === 0 && s.length - dial.length >= 9) s = "+" + s; // typed with country code, no "+"
    else s = "+" + dial + s;
  }
  return E164.test(s) ? s : null;
}

/** The code in a pasted/autofilled text: a run of exactly `length` digits, else the first ones. */
export function extractCode(text, length) {
  var s = asciiDigits(text);
  var exact = s.match(new RegExp("(^|\\D)(\\d{" + length + "})(?!\\d)"));
  if (exact) return exact[2];
  return s.replace(/\D/g, "").slice(0, length);
}

/**
 * The shopper's own number in full, "+91 9876543210", so a typo can be spotted. `dialCodes` are the
 * calling codes the config lists; the longest one the number starts with is set apart.
 */
export function displayPhone(e164, dialCodes) {
  var s = String(e164 || "");
  var dial = (dialCodes || [])
    .filter(function (d) { return d && s.indexOf("+" + d) === 0; })
    .sort(function (a, b) { return b.length - a.length; })[0];
  return dial ? "+" + dial + "\u00a0" + s.slice(1 + dial.length) : s;
}

/** "+91 ••••••3210": the number this browser verified, shown without its middle digits. */
export function maskedPhone(e164, dialCodes) {
  var shown = displayPhone(e164, dialCodes);
  var parts = shown.split("\u00a0");
  var rest = parts.length > 1 ? parts[1] : shown.slice(1);
  var masked = rest.length > 4 ? new Array(rest.length - 3).join("\u2022") + rest.slice(-4) : rest;
  return (parts.length > 1 ? parts[0] + "\u00a0" : "+") + masked;
}

/** The config's country list [{ iso, dial }]: well-formed entries only, each country once. */
export function countryList(list) {
  var seen = {};
  return (Array.isArray(list) ? list : []).filter(function (c) {
    var ok = c && /^[A-Z]{2}$/.test(c.iso) && /^[0-9]{1,4}$/.test(c.dial) && !seen[c.iso];
    if (ok) seen[c.iso] = true;
    return ok;
  });
}
