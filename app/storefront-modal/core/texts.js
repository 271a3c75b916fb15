/** The shopper's texts (the block hands them over from the theme app extension's locale files). */
export var RTL = ["ar", "he", "fa", "ur"];

/** Text for `key`: plurals as key_<CLDR category> (else key_other), {name} placeholders filled. */
export function translate(strings, locale, key, values, count) {
  var text = strings[key];
  if (count != null) {
    var category = "other";
    try {
      category = new Intl.PluralRules(locale || "en").select(count);
    } catch {
      /* unknown locale: "other" */
    }
    text = strings[key + "_" + category] || strings[key + "_other"] || text;
  }
  if (text == null) return key;
  return String(text).replace(/\{(\w+)\}/g, function (all, name) {
    return values && values[name] != null ? String(values[name]) : all;
  });
}

/** Liquid's t filter HTML-escapes; we render with textContent. */
export function unescapeHtml(text) {
  var named = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };
  return String(text).replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, function (all, ent) {
    if (ent.charAt(0) === "#") {
      var code = ent.charAt(1).toLowerCase() === "x" ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10);
      return isFinite(code) ? String.fromCodePoint(code) : all;
    }
    return named[ent.toLowerCase()] || all;
  });
}

export function isRtl(locale) {
  return RTL.indexOf(String(locale || "").toLowerCase().split("-")[0]) !== -1;
}
