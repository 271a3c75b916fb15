/* Built by `npm run build:modal` from app/storefront-modal/ (docs/storefront-modal.md): edit those, not this file. */
"use strict";
(() => {
  // app/storefront-modal/global.js
  var global = typeof window !== "undefined" ? window : globalThis;

  // app/shared/traffic-source.ts
  var SOURCE_ATTRIBUTE = "_cod_source";
  var TOUCH_STORAGE_KEY = "codVerifyTouch";
  var MAX = 60;
  function clean(raw) {
    if (!raw)
      return null;
    const v = String(raw).toLowerCase().replace(/[^a-z0-9._\-+ ]+/g, "").replace(/\s+/g, " ").trim().slice(0, MAX).trim();
    return v || null;
  }
  function host(raw) {
    if (!raw)
      return null;
    const text = String(raw).trim();
    let name = null;
    try {
      name = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`).hostname;
    } catch {
      return null;
    }
    const h2 = clean(name.replace(/^www\./, ""));
    return h2 && /^[a-z0-9.-]+\.[a-z]{2,}$/.test(h2) ? h2 : null;
  }
  function fromParams(params, referrer) {
    const utmSource = clean(params.get("utm_source"));
    const ref = host(referrer ?? params.get("ref"));
    const medium = clean(params.get("utm_medium"));
    const campaign = clean(params.get("utm_campaign"));
    return { source: utmSource ?? ref ?? "direct", medium, campaign, referrer: ref };
  }
  function parseTrafficSource(raw) {
    if (raw == null || raw.length > 1e3)
      return null;
    let params;
    try {
      params = new URLSearchParams(raw);
    } catch {
      return null;
    }
    return fromParams(params, null);
  }
  function formatTrafficSource(t) {
    const params = new URLSearchParams();
    if (t.source !== "direct" && t.source !== t.referrer)
      params.set("utm_source", t.source);
    if (t.medium)
      params.set("utm_medium", t.medium);
    if (t.campaign)
      params.set("utm_campaign", t.campaign);
    if (t.referrer)
      params.set("ref", t.referrer);
    return params.toString();
  }

  // app/storefront-modal/core/modes.js
  var MODES = ["cod", "prepaid", "partial"];
  function allowedModes(modes) {
    var list = Array.isArray(modes) ? MODES.filter(function(m) {
      return modes.indexOf(m) !== -1;
    }) : [];
    return list.length ? list : ["cod"];
  }
  function numericVariantId(id) {
    var m = String(id == null ? "" : id).match(/(\d+)\s*$/);
    return m ? m[1] : null;
  }
  var PROOF_ATTRIBUTE = "_cod_proof";
  function normalCheckoutUrl(root, lines, proof, source) {
    var base = String(root || "/").replace(/\/+$/, "");
    var parts = [];
    (lines || []).forEach(function(l) {
      var id = numericVariantId(l.variantId);
      if (id)
        parts.push(id + ":" + Math.max(1, Math.min(999, Math.floor(Number(l.quantity) || 1))));
    });
    if (!parts.length)
      return base + "/checkout";
    var params = [];
    if (proof)
      params.push(encodeURIComponent("attributes[" + PROOF_ATTRIBUTE + "]") + "=" + encodeURIComponent(proof));
    if (source != null)
      params.push(encodeURIComponent("attributes[" + SOURCE_ATTRIBUTE + "]") + "=" + encodeURIComponent(source));
    return base + "/cart/" + parts.join(",") + (params.length ? "?" + params.join("&") : "");
  }

  // app/storefront-modal/core/risk.js
  function riskModes(shopModes, allowed, priced) {
    if (!Array.isArray(allowed))
      return shopModes.slice();
    var modes = shopModes.filter(function(m) {
      return allowed.indexOf(m) !== -1;
    });
    if (priced && allowed.indexOf("partial") !== -1 && modes.indexOf("partial") === -1)
      modes.push("partial");
    return modes;
  }
  function riskDeposit(body) {
    var d = body && body.deposit;
    return d && typeof d.amount === "number" && d.amount > 0 && isFinite(d.amount) ? { amount: d.amount, currency: typeof d.currency === "string" ? d.currency : null } : null;
  }
  function pricingWithDeposit(pricing, deposit) {
    var p = pricing && typeof pricing === "object" ? pricing : {};
    var out = {};
    for (var k in p)
      if (Object.prototype.hasOwnProperty.call(p, k))
        out[k] = p[k];
    out.deposit = { type: "fixed", value: deposit.amount };
    if (deposit.currency)
      out.currency = deposit.currency;
    return out;
  }
  var NOTE_OF = {
    phone_prepaid_only: "risk_prepaid_only",
    postal_code_denied: "risk_area",
    cod_value_cap: "risk_value",
    velocity_phone: "risk_busy",
    velocity_ip: "risk_busy",
    phone_code_limit: "risk_busy",
    ip_attempt_limit: "risk_busy",
    phone_order_limit: "risk_busy",
    ip_order_limit: "risk_busy"
  };
  function riskNoteKey(risk) {
    var reasons = risk && Array.isArray(risk.reasons) ? risk.reasons : [];
    for (var i = 0; i < reasons.length; i++) {
      var key = reasons[i] && NOTE_OF[reasons[i].code];
      if (key)
        return key;
    }
    return "risk_generic";
  }

  // app/storefront-modal/core/outcomes.js
  function seconds(value, fallback) {
    var n = Number(value);
    return isFinite(n) && n >= 0 ? Math.ceil(n) : fallback;
  }
  function clock(total) {
    var s = Math.max(0, Math.ceil(total));
    var m = Math.floor(s / 60);
    s = s % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }
  function interpret(status, body) {
    var b = body && typeof body === "object" ? body : {};
    if (status === 0)
      return { kind: "network" };
    if (status >= 200 && status < 300) {
      if (typeof b.checkoutUrl === "string" && /^https?:\/\//.test(b.checkoutUrl))
        return { kind: "checkout", url: b.checkoutUrl };
      if (b.fallback === true)
        return { kind: "fallback" };
      if (b.success === true && b.skipped)
        return { kind: "skipped", reason: b.reason === "returning_customer" || b.reason === "cap_fallback" ? b.reason : "otp_disabled" };
      if (b.success === true)
        return { kind: "ok", resendAfter: seconds(b.resendAfter, null), expiresIn: seconds(b.expiresIn, null), channel: b.channel === "whatsapp" ? "whatsapp" : "sms" };
      return { kind: "error", code: "unexpected" };
    }
    if (status === 402 || b.code === "subscription_required")
      return { kind: "fallback" };
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
        return { kind: "already_verified" };
      case "cod_not_allowed":
        return { kind: "cod_not_allowed", allowedModes: Array.isArray(b.allowedModes) ? b.allowedModes : [], risk: b.risk || null };
    }
    if (status === 502 || status === 503 || status === 504)
      return { kind: "sms_unavailable" };
    return { kind: "error", code: String(b.code || status) };
  }
  function failureMessage(outcome) {
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
        return { key: "error_rate_limited", values: { time: clock(outcome.retryAfter) }, wait: outcome.retryAfter, forward: true, sms: true };
      case "sms_unavailable":
      case "shop_daily_cap":
        return { key: "error_sms_unavailable", checkout: true, forward: true, whatsapp: outcome.kind === "sms_unavailable", sms: outcome.kind === "sms_unavailable" };
      case "invalid_code":
        return outcome.attemptsRemaining == null ? { key: "error_invalid_code" } : { key: "error_attempts_left", count: outcome.attemptsRemaining, values: { count: outcome.attemptsRemaining } };
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

  // app/storefront-modal/core/phone.js
  var E164 = /^\+[0-9]{10,15}$/;
  var DIGIT_BLOCKS = [1632, 1776, 2406, 2534, 65296];
  function asciiDigits(text) {
    return String(text == null ? "" : text).replace(/[\u0660-\u0669\u06f0-\u06f9\u0966-\u096f\u09e6-\u09ef\uff10-\uff19]/g, function(d) {
      var c = d.charCodeAt(0);
      for (var i = 0; i < DIGIT_BLOCKS.length; i++)
        if (c >= DIGIT_BLOCKS[i] && c <= DIGIT_BLOCKS[i] + 9)
          return String(c - DIGIT_BLOCKS[i]);
      return d;
    });
  }
  function toE164(raw, dialCode) {
    var s = asciiDigits(raw).trim().replace(/[\s().\-\u00a0\u200e\u200f]/g, "");
    if (!s)
      return null;
    if (s.indexOf("00") === 0)
      s = "+" + s.slice(2);
    if (s.charAt(0) !== "+") {
      s = s.replace(/^0+/, "");
      var dial = String(dialCode || "").replace(/\D/g, "");
      if (dial && s.indexOf(dial) === 0 && s.length - dial.length >= 9)
        s = "+" + s;
      else
        s = "+" + dial + s;
    }
    return E164.test(s) ? s : null;
  }
  function extractCode(text, length) {
    var s = asciiDigits(text);
    var exact = s.match(new RegExp("(^|\\D)(\\d{" + length + "})(?!\\d)"));
    if (exact)
      return exact[2];
    return s.replace(/\D/g, "").slice(0, length);
  }
  function displayPhone(e164, dialCodes) {
    var s = String(e164 || "");
    var dial = (dialCodes || []).filter(function(d) {
      return d && s.indexOf("+" + d) === 0;
    }).sort(function(a, b) {
      return b.length - a.length;
    })[0];
    return dial ? "+" + dial + "\xA0" + s.slice(1 + dial.length) : s;
  }
  function maskedPhone(e164, dialCodes) {
    var shown = displayPhone(e164, dialCodes);
    var parts = shown.split("\xA0");
    var rest = parts.length > 1 ? parts[1] : shown.slice(1);
    var masked = rest.length > 4 ? new Array(rest.length - 3).join("\u2022") + rest.slice(-4) : rest;
    return (parts.length > 1 ? parts[0] + "\xA0" : "+") + masked;
  }
  function countryList(list) {
    var seen = {};
    return (Array.isArray(list) ? list : []).filter(function(c) {
      var ok = c && /^[A-Z]{2}$/.test(c.iso) && /^[0-9]{1,4}$/.test(c.dial) && !seen[c.iso];
      if (ok)
        seen[c.iso] = true;
      return ok;
    });
  }

  // app/shared/money.ts
  function currencyDigits(currency) {
    if (!currency)
      return 2;
    try {
      const digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits;
      return typeof digits === "number" ? digits : 2;
    } catch {
      return 2;
    }
  }
  function roundMoney(amount, digits, up) {
    const f = Math.pow(10, digits);
    const scaled = Math.round(amount * f * 1e6) / 1e6;
    return (up ? Math.ceil(scaled) : Math.round(scaled)) / f;
  }
  function depositSplit(depositType, depositValue, subtotal, digits) {
    if (!(subtotal > 0) || !(depositValue > 0))
      return null;
    let deposit;
    if (depositType === "fixed")
      deposit = roundMoney(depositValue, digits);
    else if (depositValue >= 1 && depositValue <= 99)
      deposit = roundMoney(subtotal * depositValue / 100, digits, true);
    else
      return null;
    const whole = roundMoney(subtotal, digits);
    const balance = roundMoney(whole - deposit, digits);
    if (!(deposit > 0) || !(balance > 0))
      return null;
    return { subtotal: whole, deposit, balance };
  }

  // app/storefront-modal/core/pricing.js
  function presentmentRate(currency, shopify) {
    var c = shopify && shopify.currency;
    var rate = c && c.active === currency ? Number(c.rate) : NaN;
    return isFinite(rate) && rate > 0 ? rate : null;
  }
  function quote(total, currency, pricing, rate) {
    if (!(total > 0) || !/^[A-Z]{3}$/.test(String(currency)))
      return null;
    var p = pricing && typeof pricing === "object" ? pricing : {};
    var digits = currencyDigits(currency);
    var sameCurrency = !p.currency || p.currency === currency;
    var items = roundMoney(total, digits);
    var part = function(adj, converted) {
      if (!adj || !(adj.value > 0))
        return 0;
      if (adj.type === "percentage")
        return roundMoney(items * adj.value / 100, digits);
      if (adj.type !== "fixed")
        return null;
      if (sameCurrency)
        return roundMoney(adj.value, digits);
      return converted && rate > 0 ? roundMoney(adj.value * rate, digits) : null;
    };
    var fee = part(p.codFee, false);
    var saving = part(p.prepaidDiscount, true);
    var split = p.deposit && (p.deposit.type === "percentage" || sameCurrency) ? depositSplit(p.deposit.type, p.deposit.value, items, digits) : null;
    return {
      total: items,
      currency,
      cod: fee === null ? null : { later: roundMoney(items + fee, digits), fee },
      prepaid: saving === null ? null : { now: roundMoney(Math.max(0, items - saving), digits), saving: Math.min(saving, items) },
      partial: split ? { now: split.deposit, later: split.balance } : null
    };
  }
  function money(amount, currency, locale) {
    try {
      return new Intl.NumberFormat(locale || "en", { style: "currency", currency, currencyDisplay: "narrowSymbol" }).format(amount);
    } catch {
      return amount.toFixed(currencyDigits(currency)) + " " + currency;
    }
  }
  function amountText(mode, q, locale) {
    var m = q && q[mode];
    if (!m)
      return null;
    var f = function(n) {
      return money(n, q.currency, locale);
    };
    if (mode === "cod")
      return m.fee > 0 ? { key: "amount_cod_fee", values: { amount: f(m.later), fee: f(m.fee) } } : { key: "amount_cod", values: { amount: f(m.later) } };
    if (mode === "prepaid")
      return m.saving > 0 ? { key: "amount_prepaid_saving", values: { amount: f(m.now), saving: f(m.saving) } } : { key: "amount_prepaid", values: { amount: f(m.now) } };
    return { key: "amount_partial", values: { now: f(m.now), later: f(m.later) } };
  }

  // app/storefront-modal/core/behaviour.js
  function newBehaviour() {
    return { openedAt: null, numbers: [], codesSent: 0, codesTyped: 0, sentAt: null, sent: null };
  }
  function noteOpened(b, now) {
    if (b.openedAt === null)
      b.openedAt = now;
  }
  function sendFields(b, phone, now) {
    var fields = {
      numbersTried: b.numbers.filter(function(p) {
        return p !== phone;
      }).length,
      codesAbandoned: Math.max(0, b.codesSent - b.codesTyped)
    };
    if (b.openedAt !== null)
      fields.msToRequest = Math.max(0, Math.round(now - b.openedAt));
    return fields;
  }
  function noteSent(b, phone, now, fields) {
    if (b.numbers.indexOf(phone) === -1)
      b.numbers.push(phone);
    b.codesSent += 1;
    b.sentAt = now;
    b.sent = fields || null;
  }
  function verifyFields(b, now) {
    if (b.sentAt === null)
      return {};
    var fields = {};
    if (b.sent)
      for (var k in b.sent)
        fields[k] = b.sent[k];
    fields.msToType = Math.max(0, Math.round(now - b.sentAt));
    return fields;
  }
  function noteTyped(b) {
    b.codesTyped = b.codesSent;
  }

  // app/storefront-modal/core/texts.js
  var RTL = ["ar", "he", "fa", "ur"];
  function translate(strings, locale, key, values, count) {
    var text = strings[key];
    if (count != null) {
      var category = "other";
      try {
        category = new Intl.PluralRules(locale || "en").select(count);
      } catch {
      }
      text = strings[key + "_" + category] || strings[key + "_other"] || text;
    }
    if (text == null)
      return key;
    return String(text).replace(/\{(\w+)\}/g, function(all, name) {
      return values && values[name] != null ? String(values[name]) : all;
    });
  }
  function unescapeHtml(text) {
    var named = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\xA0" };
    return String(text).replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, function(all, ent) {
      if (ent.charAt(0) === "#") {
        var code = ent.charAt(1).toLowerCase() === "x" ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10);
        return isFinite(code) ? String.fromCodePoint(code) : all;
      }
      return named[ent.toLowerCase()] || all;
    });
  }
  function isRtl(locale) {
    return RTL.indexOf(String(locale || "").toLowerCase().split("-")[0]) !== -1;
  }

  // app/storefront-modal/core/index.js
  var core = {
    asciiDigits,
    toE164,
    extractCode,
    allowedModes,
    numericVariantId,
    normalCheckoutUrl,
    clock,
    interpret,
    failureMessage,
    translate,
    unescapeHtml,
    isRtl,
    displayPhone,
    maskedPhone,
    countryList,
    quote,
    presentmentRate,
    money,
    amountText,
    MODES,
    riskModes,
    riskNoteKey,
    riskDeposit,
    pricingWithDeposit,
    newBehaviour,
    noteOpened,
    noteSent,
    noteTyped,
    sendFields,
    verifyFields
  };

  // app/storefront-modal/public-api.js
  var api = { core, navigate: function(url) {
    global.location.assign(url);
  } };

  // app/storefront-modal/ui/dom.js
  var document = global.document;
  function h(tag, attrs, children) {
    var el = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function(k) {
      var v = attrs[k];
      if (v == null || v === false)
        return;
      if (k.slice(0, 2) === "on")
        el.addEventListener(k.slice(2), v);
      else if (k === "text")
        el.textContent = v;
      else
        el.setAttribute(k, v === true ? "" : v);
    });
    (children || []).forEach(function(c) {
      if (c != null)
        el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return el;
  }
  function readJson(root, selector) {
    var node = root.querySelector(selector);
    try {
      return node ? JSON.parse(node.textContent) : null;
    } catch {
      return null;
    }
  }
  function readStrings(root) {
    var out = {};
    var node = root.querySelector("script[data-cod-i18n]");
    try {
      var raw = JSON.parse(node ? node.textContent : "{}");
      Object.keys(raw).forEach(function(k) {
        out[k] = unescapeHtml(raw[k]);
      });
    } catch {
    }
    return out;
  }
  function flag(iso) {
    return iso.replace(/./g, function(c) {
      return String.fromCodePoint(127397 + c.charCodeAt(0));
    });
  }

  // app/storefront-modal/ui/proxy-api.js
  var REQUEST_TIMEOUT_MS = 2e4;
  function call(base, path, body) {
    var controller = typeof AbortController === "function" ? new AbortController() : null;
    var timer = setTimeout(function() {
      if (controller)
        controller.abort();
    }, REQUEST_TIMEOUT_MS);
    var init = { method: body ? "POST" : "GET", headers: { Accept: "application/json" }, credentials: "same-origin" };
    if (controller)
      init.signal = controller.signal;
    if (body) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return global.fetch(base + path, init).then(function(res) {
      return res.text().then(function(text) {
        var parsed = null;
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch {
          parsed = null;
        }
        return { status: res.status, body: parsed };
      });
    }).catch(function() {
      return { status: 0, body: null };
    }).then(function(r) {
      clearTimeout(timer);
      return r;
    });
  }

  // app/storefront-modal/ui/touch.js
  function firstTouch() {
    try {
      var raw = global.sessionStorage.getItem(TOUCH_STORAGE_KEY);
      var parsed = raw === null ? null : parseTrafficSource(raw);
      return parsed ? formatTrafficSource(parsed) : null;
    } catch {
      return null;
    }
  }

  // app/storefront-modal/ui/modal.js
  function CodModal(root) {
    var data = root.dataset;
    this.root = root;
    this.base = (data.basePath || "/apps/cod").replace(/\/+$/, "");
    this.shopRoot = data.root || "/";
    this.locale = data.locale || document.documentElement.lang || "en";
    this.strings = readStrings(root);
    this.source = data.source === "cart" ? "cart" : "product";
    this.defaultCountry = String(data.defaultCountry || "").toUpperCase();
    this.config = null;
    this.configPromise = null;
    this.timers = {};
    this.busy = false;
    this.state = { phone: null, mode: null, lines: [], cartToken: null, proof: null, title: data.productTitle || "" };
    this.button = root.querySelector("[data-cod-open]");
  }
  CodModal.prototype.t = function(key, values, count) {
    return translate(this.strings, this.locale, key, values, count);
  };
  CodModal.prototype.loadConfig = function() {
    var self = this;
    if (!this.configPromise) {
      this.configPromise = call(this.base, "/api/config").then(function(r) {
        if (r.status === 200 && r.body && typeof r.body === "object") {
          self.config = {
            otpEnabled: r.body.otpEnabled !== false,
            codeLength: seconds(r.body.codeLength, 6) || 6,
            resendAfter: seconds(r.body.resendAfter, 30),
            modes: allowedModes(r.body.modes),
            locale: r.body.locale || null,
            countries: countryList(r.body.countries),
            pricing: r.body.pricing && typeof r.body.pricing === "object" ? r.body.pricing : null,
            whatsapp: r.body.whatsapp === true,
            channelChoice: r.body.channelChoice === true
          };
          self.dial = {};
          self.config.countries.forEach(function(c) {
            self.dial[c.iso] = c.dial;
          });
          return self.config;
        }
        self.configPromise = null;
        return null;
      });
    }
    return this.configPromise;
  };
  CodModal.prototype.readLines = function() {
    var self = this;
    if (this.source === "cart") {
      return global.fetch(this.shopRoot.replace(/\/+$/, "") + "/cart.js", { headers: { Accept: "application/json" } }).then(function(res) {
        return res.json();
      }).then(function(cart) {
        self.state.cartToken = cart.token || null;
        self.state.total = Number(cart.total_price) / 100;
        self.state.currency = cart.currency || null;
        return (cart.items || []).map(function(i) {
          return { variantId: String(i.variant_id), quantity: i.quantity };
        });
      }).catch(function() {
        return [];
      });
    }
    var section = this.root.closest("section, [id^='shopify-section'], main") || document;
    var form = section.querySelector('form[action*="/cart/add"]') || document.querySelector('form[action*="/cart/add"]');
    var idField = form && form.querySelector('[name="id"]');
    var qtyField = form && form.querySelector('[name="quantity"]') || document.querySelector('[name="quantity"][form]');
    var variantId = idField && idField.value || this.root.dataset.variantId;
    var quantity = Math.max(1, Math.floor(Number(qtyField && qtyField.value) || 1));
    var prices = readJson(this.root, "script[data-cod-prices]");
    var index = prices && Array.isArray(prices.ids) ? prices.ids.map(String).indexOf(String(variantId)) : -1;
    var unit = index !== -1 && Array.isArray(prices.prices) ? Number(prices.prices[index]) / 100 : NaN;
    this.state.total = isFinite(unit) ? unit * quantity : null;
    this.state.currency = prices && prices.currency ? String(prices.currency) : null;
    return Promise.resolve(variantId ? [{ variantId: String(variantId), quantity }] : []);
  };
  CodModal.prototype.normalCheckout = function() {
    var self = this;
    this.showBusy(this.t("redirecting"));
    var proof = this.state.proof;
    var attributes = {};
    if (proof)
      attributes[PROOF_ATTRIBUTE] = proof;
    var touch = firstTouch();
    if (touch !== null)
      attributes[SOURCE_ATTRIBUTE] = touch;
    var write = Object.keys(attributes).length ? call(this.shopRoot.replace(/\/+$/, ""), "/cart/update.js", { attributes }) : Promise.resolve();
    write.then(function() {
      api.navigate(normalCheckoutUrl(self.shopRoot, self.state.lines, proof, touch));
    });
  };
  CodModal.prototype.start = function() {
    var self = this;
    if (this.busy)
      return;
    this.busy = true;
    if (this.button)
      this.button.setAttribute("aria-busy", "true");
    Promise.all([this.loadConfig(), this.readLines()]).then(function(r) {
      self.busy = false;
      if (self.button)
        self.button.removeAttribute("aria-busy");
      self.state.lines = r[1];
      if (!r[0] || !r[1].length)
        return self.normalCheckout();
      self.open();
    });
  };
  CodModal.prototype.dialCodes = function() {
    var dial = this.dial || {};
    return Object.keys(dial).map(function(iso) {
      return dial[iso];
    });
  };
  CodModal.prototype.countdown = function(name, total, tick, done) {
    var self = this;
    clearInterval(this.timers[name]);
    var end = Date.now() + total * 1e3;
    var step = function() {
      var left = Math.ceil((end - Date.now()) / 1e3);
      if (left <= 0) {
        clearInterval(self.timers[name]);
        delete self.timers[name];
        done();
      } else
        tick(left);
    };
    this.timers[name] = setInterval(step, 1e3);
    step();
  };

  // app/storefront-modal/ui/build.js
  CodModal.prototype.build = function() {
    var self = this;
    var t = this.t.bind(this);
    var rtl = isRtl(this.locale);
    this.els = {};
    var els = this.els;
    els.title = h("h2", { class: "codv-title", id: "codv-title-" + this.uid, text: t("title") });
    els.close = h("button", { type: "button", class: "codv-close", "aria-label": t("close"), onclick: function() {
      self.close();
    } }, ["\xD7"]);
    els.summary = h("p", { class: "codv-summary" });
    els.status = h("p", { class: "codv-status", role: "status", "aria-live": "polite" });
    els.alert = h("div", { class: "codv-alert", role: "alert", hidden: true });
    var countryId = "codv-country-" + this.uid;
    var phoneId = "codv-phone-" + this.uid;
    els.country = h("select", { id: countryId, class: "codv-select", autocomplete: "tel-country-code" });
    var names = null;
    try {
      names = new Intl.DisplayNames([this.locale, "en"], { type: "region" });
    } catch {
      names = null;
    }
    var dial = this.dial;
    var byName = function(a, b) {
      return a.name.localeCompare(b.name, self.locale);
    };
    var named = this.config.countries.map(function(c) {
      return { iso: c.iso, allowed: c.allowed === true, name: names && names.of(c.iso) || c.iso };
    });
    named.filter(function(c) {
      return c.allowed;
    }).sort(byName).concat(named.filter(function(c) {
      return !c.allowed;
    }).sort(byName)).forEach(function(c) {
      els.country.appendChild(h("option", { value: c.iso, text: flag(c.iso) + " " + c.name + " (+" + dial[c.iso] + ")" }));
    });
    var localeCountry = (this.locale.split("-")[1] || "").toUpperCase();
    var first = els.country.options[0];
    els.country.value = dial[this.defaultCountry] ? this.defaultCountry : dial[localeCountry] ? localeCountry : first ? first.value : "";
    this.remembered = null;
    els.phone = h("input", {
      id: phoneId,
      class: "codv-input codv-ltr",
      type: "tel",
      name: "phone",
      inputmode: "tel",
      autocomplete: "tel",
      required: true,
      dir: "ltr",
      "aria-describedby": "codv-phone-hint-" + this.uid + " codv-known-" + this.uid,
      oninput: function() {
        self.forgetRemembered();
      }
    });
    els.known = h("p", { class: "codv-hint", id: "codv-known-" + this.uid, text: t("remembered_hint"), hidden: true });
    this.useRemembered();
    var formId = function(step) {
      return "codv-form-" + step + "-" + self.uid;
    };
    els.sendButton = h("button", { type: "submit", class: "codv-primary", form: formId("phone") });
    els.phoneForm = h("form", { class: "codv-step", id: formId("phone"), novalidate: true, onsubmit: function(e) {
      e.preventDefault();
      self.sendCode();
    } }, [
      h("p", { class: "codv-intro", id: "codv-phone-hint-" + this.uid, text: t(this.config.otpEnabled ? "phone_intro" : "phone_intro_no_otp") }),
      h("div", { class: "codv-field" }, [h("label", { for: countryId, text: t("country_label") }), els.country]),
      h("div", { class: "codv-field" }, [h("label", { for: phoneId, text: t("phone_label") }), els.phone, els.known])
    ].concat(this.config.otpEnabled && this.config.channelChoice ? [channelChoice(this, h, t)] : []));
    var codeId = "codv-code-" + this.uid;
    els.codeIntro = h("p", { class: "codv-intro" });
    els.code = h("input", {
      id: codeId,
      class: "codv-input codv-code codv-ltr",
      type: "text",
      name: "otp",
      inputmode: "numeric",
      autocomplete: "one-time-code",
      pattern: "[0-9]*",
      dir: "ltr",
      required: true,
      spellcheck: "false",
      oninput: function() {
        self.onCodeInput();
      },
      onpaste: function(e) {
        var text = (e.clipboardData || global.clipboardData).getData("text");
        if (!text)
          return;
        e.preventDefault();
        els.code.value = extractCode(text, self.config.codeLength);
        self.onCodeInput();
      }
    });
    els.changeNumber = h("button", { type: "button", class: "codv-link", text: t("change_number"), onclick: function() {
      self.showStep("phone");
    } });
    els.resend = h("button", { type: "button", class: "codv-link", onclick: function() {
      self.sendCode(true);
    } });
    els.codeAmount = h("div", { class: "codv-modes-slot" });
    els.verifyButton = h("button", { type: "submit", class: "codv-primary", form: formId("code"), text: t("confirm") });
    els.codeForm = h("form", { class: "codv-step", id: formId("code"), novalidate: true, onsubmit: function(e) {
      e.preventDefault();
      self.verify();
    } }, [
      els.codeIntro,
      h("div", { class: "codv-field" }, [h("label", { for: codeId, text: t("code_label") }), els.code]),
      h("div", { class: "codv-row" }, [els.resend, els.changeNumber]),
      els.codeAmount
    ]);
    els.modeIntro = h("p", { class: "codv-intro", id: "codv-mode-intro-" + this.uid });
    els.modeModes = h("div", { class: "codv-modes-slot" });
    els.modeButton = h("button", { type: "submit", class: "codv-primary", form: formId("mode"), text: t("continue_to_checkout") });
    els.modeForm = h("form", { class: "codv-step", id: formId("mode"), novalidate: true, onsubmit: function(e) {
      e.preventDefault();
      self.checkout();
    } }, [
      els.modeIntro,
      els.modeModes
    ]);
    els.pausedText = h("p", { class: "codv-intro", text: t("not_needed") });
    els.pausedStep = h("div", { class: "codv-step" }, [els.pausedText]);
    els.pausedButton = h("button", { type: "button", class: "codv-primary", text: t("continue_to_checkout"), onclick: function() {
      self.leavePaused();
    } });
    els.busy = h("div", { class: "codv-step codv-busy" }, [h("span", { class: "codv-spinner", "aria-hidden": "true" }), h("p", { class: "codv-busy-text" })]);
    els.checkoutLink = h("button", { type: "button", class: "codv-link codv-fallback", text: t("checkout_normally"), hidden: true, onclick: function() {
      self.normalCheckout();
    } });
    els.newCode = h("button", { type: "button", class: "codv-secondary", text: t("new_code"), hidden: true, onclick: function() {
      self.sendCode(true);
    } });
    els.payOnline = h("button", { type: "button", class: "codv-secondary", text: t("pay_online"), hidden: true, onclick: function() {
      self.payOnline();
    } });
    els.whatsapp = h("button", { type: "button", class: "codv-secondary", text: t("send_whatsapp"), hidden: true, onclick: function() {
      self.sendCode(true, "whatsapp");
    } });
    els.smsInstead = h("button", { type: "button", class: "codv-secondary", text: t("send_sms"), hidden: true, onclick: function() {
      self.sendCode(true, "sms");
    } });
    els.dialog = h("div", { class: "codv-dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": els.title.id, dir: rtl ? "rtl" : "ltr", lang: this.locale, tabindex: "-1" }, [
      h("div", { class: "codv-head" }, [els.title, els.close]),
      els.body = h("div", { class: "codv-body", onfocusin: function(e) {
        self.showFocusedCard(e.target);
      } }, [
        els.summary,
        els.phoneForm,
        els.codeForm,
        els.modeForm,
        els.pausedStep,
        els.busy,
        els.status,
        els.privacyNote = h("p", { class: "codv-note", text: t("privacy_note") })
      ]),
      h("div", { class: "codv-foot" }, [
        els.alert,
        h("div", { class: "codv-ways" }, [els.newCode, els.whatsapp, els.smsInstead, els.payOnline]),
        els.checkoutLink,
        els.sendButton,
        els.verifyButton,
        els.modeButton,
        els.pausedButton
      ])
    ]);
    els.backdrop = h("div", { class: "codv-backdrop", hidden: true, onclick: function(e) {
      if (e.target === els.backdrop)
        self.close();
    } }, [els.dialog]);
    els.dialog.addEventListener("keydown", function(e) {
      self.onKeydown(e);
    });
    var style = global.getComputedStyle(this.root);
    ["--codv-accent", "--codv-accent-text"].forEach(function(name) {
      var value = style.getPropertyValue(name).trim();
      if (value)
        els.backdrop.style.setProperty(name, value);
    });
    document.body.appendChild(els.backdrop);
  };
  CodModal.prototype.showFocusedCard = function(target) {
    var card = target && target.closest ? target.closest(".codv-mode") : null;
    if (card && card.scrollIntoView)
      card.scrollIntoView({ block: "nearest" });
  };
  function channelChoice(self, h2, t) {
    var name = "codv-channel-" + self.uid;
    var option = function(value) {
      var input = h2("input", { type: "radio", name, value });
      if (value === "sms")
        input.checked = true;
      self.els["channel_" + value] = input;
      return h2("label", { class: "codv-choice" }, [input, h2("span", { text: t("channel_" + value) })]);
    };
    return h2("fieldset", { class: "codv-field codv-channels" }, [h2("legend", { text: t("channel_label") }), option("sms"), option("whatsapp")]);
  }

  // app/storefront-modal/ui/sheet.js
  CodModal.prototype.open = function() {
    if (!this.els) {
      this.uid = Math.random().toString(36).slice(2, 8);
      this.build();
    }
    var els = this.els;
    var cfg = this.config;
    if (!this.behaviour)
      this.behaviour = newBehaviour();
    noteOpened(this.behaviour, Date.now());
    if (!this.state.mode || cfg.modes.indexOf(this.state.mode) === -1)
      this.state.mode = cfg.modes[0];
    var line = this.state.lines[0];
    this.quote = quote(this.state.total, this.state.currency, cfg.pricing, presentmentRate(this.state.currency, global.Shopify));
    var what = this.source === "product" && this.state.title ? this.state.title + (line && line.quantity > 1 ? " \xD7 " + line.quantity : "") : "";
    var items = this.quote ? this.t("amount_items", { amount: money(this.quote.total, this.quote.currency, this.locale) }) : "";
    els.summary.textContent = [what, items].filter(Boolean).join(" \xB7 ");
    els.summary.hidden = !els.summary.textContent;
    this.returnFocus = document.activeElement;
    els.backdrop.hidden = false;
    document.documentElement.classList.add("codv-open");
    this.clearAlert();
    this.say("");
    var codeLive = this.step === "code" && this.state.codeExpires > Date.now();
    if (this.state.verified)
      this.renderModes(els.modeModes);
    this.showStep(this.state.verified ? "mode" : codeLive ? "code" : "phone");
    this.fitViewport(true);
  };
  CodModal.prototype.close = function() {
    if (!this.els || this.els.backdrop.hidden)
      return;
    this.els.backdrop.hidden = true;
    document.documentElement.classList.remove("codv-open");
    this.fitViewport(false);
    this.stopWebOtp();
    if (this.returnFocus && this.returnFocus.focus)
      this.returnFocus.focus();
  };
  CodModal.prototype.fitViewport = function(on) {
    var vv = global.visualViewport;
    var backdrop = this.els.backdrop;
    if (!vv)
      return;
    if (!this.onViewport) {
      this.onViewport = function() {
        backdrop.style.top = vv.offsetTop + "px";
        backdrop.style.height = vv.height + "px";
      };
    }
    vv[on ? "addEventListener" : "removeEventListener"]("resize", this.onViewport);
    vv[on ? "addEventListener" : "removeEventListener"]("scroll", this.onViewport);
    if (on)
      this.onViewport();
  };
  CodModal.prototype.onKeydown = function(e) {
    if (e.key === "Escape") {
      e.preventDefault();
      this.close();
      return;
    }
    if (e.key !== "Tab")
      return;
    var focusable = Array.prototype.filter.call(
      this.els.dialog.querySelectorAll("button, input, select, a[href], [tabindex]:not([tabindex='-1'])"),
      function(el) {
        return !el.disabled && el.offsetParent !== null;
      }
    );
    if (!focusable.length)
      return;
    var first = focusable[0];
    var last = focusable[focusable.length - 1];
    if (e.shiftKey && (document.activeElement === first || document.activeElement === this.els.dialog)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  // app/storefront-modal/ui/feedback.js
  CodModal.prototype.showStep = function(step, focus) {
    var els = this.els;
    els.phoneForm.hidden = step !== "phone";
    els.codeForm.hidden = step !== "code";
    els.modeForm.hidden = step !== "mode";
    els.busy.hidden = step !== "busy";
    els.sendButton.hidden = step !== "phone";
    els.verifyButton.hidden = step !== "code";
    els.modeButton.hidden = step !== "mode";
    els.pausedStep.hidden = step !== "paused";
    els.pausedButton.hidden = step !== "paused";
    els.privacyNote.hidden = step === "paused" || this.paused === true;
    this.step = step;
    if (step === "code")
      this.startWebOtp();
    else
      this.stopWebOtp();
    if (step === "phone") {
      this.clearAlert();
      this.setSendLabel();
    }
    if (focus === false)
      return;
    var target = { phone: els.phone, code: els.code, mode: els.modeForm.querySelector("input:checked") || els.modeForm.querySelector("button"), paused: els.pausedButton }[step];
    if (target)
      target.focus();
    else
      els.dialog.focus();
  };
  CodModal.prototype.showBusy = function(text) {
    if (!this.els)
      return;
    this.els.busy.querySelector(".codv-busy-text").textContent = text;
    this.clearAlert();
    this.showStep("busy", false);
    this.els.dialog.focus();
  };
  CodModal.prototype.showAlert = function(message) {
    var els = this.els;
    els.alert.textContent = this.t(message.key, message.values, message.count);
    els.alert.hidden = false;
    els.checkoutLink.hidden = !message.checkout;
    els.newCode.hidden = !message.newCode;
    var modes = this.config.modes;
    els.payOnline.hidden = !message.forward || modes.indexOf("prepaid") === -1;
    els.whatsapp.hidden = !message.whatsapp || !this.config.whatsapp || this.channel === "whatsapp";
    els.smsInstead.hidden = !message.sms || this.channel !== "whatsapp";
    if (message.forward && els.payOnline.hidden && els.whatsapp.hidden && els.smsInstead.hidden && !message.wait)
      els.checkoutLink.hidden = false;
    els.status.textContent = "";
  };
  CodModal.prototype.clearAlert = function() {
    var els = this.els;
    els.alert.hidden = true;
    els.alert.textContent = "";
    els.checkoutLink.hidden = true;
    els.newCode.hidden = true;
    els.payOnline.hidden = true;
    els.whatsapp.hidden = true;
    els.smsInstead.hidden = true;
  };
  CodModal.prototype.showPaused = function(next, key) {
    this.pausedNext = next;
    this.els.pausedText.textContent = this.t(key);
    this.say("");
    this.clearAlert();
    this.showStep("paused");
  };
  CodModal.prototype.leavePaused = function() {
    var next = this.pausedNext;
    this.pausedNext = null;
    if (next)
      next.call(this);
  };
  CodModal.prototype.say = function(key, values) {
    if (key)
      this.fill(this.els.status, key, values);
    else
      this.els.status.textContent = "";
  };
  CodModal.prototype.fill = function(el, key, values) {
    var self = this;
    var vals = {};
    Object.keys(values || {}).forEach(function(k) {
      if (k !== "phone")
        vals[k] = values[k];
    });
    var parts = this.t(key, vals).split("{phone}");
    el.textContent = "";
    parts.forEach(function(part, i) {
      if (i > 0)
        el.appendChild(h("bdi", { dir: "ltr", class: "codv-number", text: displayPhone(values.phone, self.dialCodes()) }));
      if (part)
        el.appendChild(document.createTextNode(part));
    });
  };

  // app/storefront-modal/ui/device.js
  function device(phone, token) {
    try {
      if (token)
        global.localStorage.setItem("codv:" + phone, token);
      return global.localStorage.getItem("codv:" + phone);
    } catch {
      return null;
    }
  }
  function rememberedPhone(phone) {
    try {
      if (phone)
        global.localStorage.setItem("codv:last", phone);
      var last = global.localStorage.getItem("codv:last");
      return last && E164.test(last) && device(last) ? last : null;
    } catch {
      return null;
    }
  }

  // app/storefront-modal/ui/phone-step.js
  CodModal.prototype.useRemembered = function() {
    var phone = rememberedPhone();
    if (!phone)
      return;
    var dial = this.dial;
    var iso = Object.keys(dial).filter(function(c) {
      return phone.indexOf("+" + dial[c]) === 0;
    }).sort(function(a, b) {
      return dial[b].length - dial[a].length;
    })[0];
    if (iso && this.els.country.value !== iso && dial[this.els.country.value] !== dial[iso])
      this.els.country.value = iso;
    this.remembered = { phone, masked: maskedPhone(phone, this.dialCodes()) };
    this.els.phone.value = this.remembered.masked;
    this.els.known.hidden = false;
  };
  CodModal.prototype.forgetRemembered = function() {
    var els = this.els;
    if (!this.remembered || els.phone.value === this.remembered.masked)
      return;
    els.phone.value = els.phone.value.indexOf(this.remembered.masked) === 0 ? els.phone.value.slice(this.remembered.masked.length) : els.phone.value.indexOf("\u2022") === -1 ? els.phone.value : "";
    this.remembered = null;
    els.known.hidden = true;
  };
  CodModal.prototype.setSendLabel = function() {
    if (this.timers.send)
      return;
    this.els.sendButton.disabled = false;
    this.els.sendButton.textContent = this.t(this.config.otpEnabled ? "send_code" : "continue");
  };
  CodModal.prototype.blockSending = function(total) {
    var self = this;
    var send = this.els.sendButton;
    var resend = this.els.resend;
    this.countdown(
      "send",
      total,
      function(left) {
        send.disabled = true;
        resend.disabled = true;
        send.textContent = self.t("send_code") + " (" + clock(left) + ")";
        resend.textContent = self.t("resend_in", { time: clock(left) });
      },
      function() {
        self.setSendLabel();
        resend.disabled = false;
        resend.textContent = self.t("resend");
      }
    );
  };
  CodModal.prototype.sendCode = function(again, channel) {
    var self = this;
    var els = this.els;
    if (this.busy || this.timers.send && !channel)
      return;
    var phone = again && this.state.phone ? this.state.phone : this.remembered && els.phone.value === this.remembered.masked ? this.remembered.phone : toE164(els.phone.value, this.dial[els.country.value]);
    if (!phone) {
      this.showAlert({ key: "error_invalid_phone" });
      els.phone.setAttribute("aria-invalid", "true");
      els.phone.focus();
      return;
    }
    els.phone.removeAttribute("aria-invalid");
    this.state.phone = phone;
    this.busy = true;
    this.clearAlert();
    this.say("sending");
    var button = channel === "whatsapp" ? els.whatsapp : channel === "sms" ? els.smsInstead : again ? els.resend : els.sendButton;
    button.disabled = true;
    var body = { phone };
    if (!again) {
      this.channel = els.channel_whatsapp && els.channel_whatsapp.checked ? "whatsapp" : els.channel_sms ? "sms" : null;
      this.resetRisk();
    }
    if (channel)
      this.channel = channel;
    if (this.channel)
      body.channel = this.channel;
    body.deviceToken = device(phone) || void 0;
    var smsLocale = (this.locale || this.config.locale || "").split("-")[0];
    if (smsLocale)
      body.locale = smsLocale;
    if (!this.behaviour)
      this.behaviour = newBehaviour();
    var readings = sendFields(this.behaviour, phone, Date.now());
    body.behaviour = readings;
    call(this.base, "/send-otp", body).then(function(r) {
      self.busy = false;
      button.disabled = false;
      var outcome = interpret(r.status, r.body);
      self.applyRisk(r.body);
      if (outcome.kind === "ok") {
        self.paused = false;
        if (self.timers.send) {
          clearInterval(self.timers.send);
          delete self.timers.send;
          els.resend.disabled = false;
        }
        noteSent(self.behaviour, phone, Date.now(), readings);
        self.state.verified = false;
        self.state.proof = null;
        self.state.codeExpires = Date.now() + (outcome.expiresIn || 600) * 1e3;
        var fellBack = self.channel === "whatsapp" && outcome.channel === "sms";
        if (fellBack)
          self.channel = "sms";
        self.fill(els.codeIntro, outcome.channel === "whatsapp" ? "code_intro_whatsapp" : fellBack ? "code_intro_sms_fallback" : "code_intro", { length: self.config.codeLength, phone });
        els.code.value = "";
        els.code.disabled = false;
        els.code.setAttribute("maxlength", String(self.config.codeLength));
        els.verifyButton.disabled = false;
        self.renderAmount(els.codeAmount);
        self.showStep("code");
        self.clearAlert();
        self.say(again ? "code_resent" : "code_sent", { phone });
        self.startResendTimer(outcome.resendAfter != null ? outcome.resendAfter : self.config.resendAfter);
      } else if (outcome.kind === "skipped") {
        self.state.verified = true;
        self.say("");
        var welcome = outcome.reason === "returning_customer";
        var capped = outcome.reason === "cap_fallback";
        if (self.riskNote)
          return self.showRiskModes(welcome ? "welcome_back" : null);
        var notNeeded = !welcome && !capped && self.config.otpEnabled;
        if (notNeeded)
          self.paused = true;
        if (self.config.modes.length < 2)
          return notNeeded || capped ? self.showPaused(self.checkout, capped ? "cap_fallback" : "not_needed") : self.checkout();
        self.showModes(welcome ? "welcome_back" : capped ? "cap_fallback_choose" : notNeeded ? "not_needed_choose" : "choose_mode");
      } else if (outcome.kind === "fallback") {
        self.paused = true;
        self.showPaused(self.normalCheckout, "not_needed");
      } else {
        self.say("");
        var message = failureMessage(outcome);
        if (message.step === "phone" && self.step !== "phone")
          self.showStep("phone");
        self.showAlert(message);
        if (message.wait)
          self.blockSending(message.wait);
        if (message.step === "phone") {
          els.phone.setAttribute("aria-invalid", "true");
          els.phone.focus();
        }
      }
    });
  };

  // app/storefront-modal/ui/code-step.js
  CodModal.prototype.renderAmount = function(slot) {
    var modes = this.config.modes;
    slot.textContent = "";
    var only = modes.length < 2 ? amountText(modes[0], this.quote, this.locale) : null;
    if (only)
      slot.appendChild(h("p", { class: "codv-amount codv-amount-only", text: this.t(only.key, only.values) }));
  };
  CodModal.prototype.startResendTimer = function(total) {
    var self = this;
    var resend = this.els.resend;
    this.countdown(
      "resend",
      total,
      function(left) {
        resend.disabled = true;
        resend.textContent = self.t("resend_in", { time: clock(left) });
      },
      function() {
        resend.disabled = false;
        resend.textContent = self.t("resend");
      }
    );
  };
  CodModal.prototype.onCodeInput = function() {
    var code = this.els.code;
    var clean2 = extractCode(code.value, this.config.codeLength);
    if (clean2 !== code.value)
      code.value = clean2;
    code.removeAttribute("aria-invalid");
    if (clean2)
      this.els.alert.hidden = true;
    if (clean2.length === this.config.codeLength && this.config.modes.length < 2)
      this.verify();
  };
  CodModal.prototype.verify = function() {
    var self = this;
    var els = this.els;
    if (this.busy)
      return;
    var otp = extractCode(els.code.value, this.config.codeLength);
    if (otp.length !== this.config.codeLength) {
      this.showAlert({ key: "error_code_incomplete", values: { length: this.config.codeLength } });
      els.code.focus();
      return;
    }
    this.busy = true;
    els.verifyButton.disabled = true;
    this.clearAlert();
    this.say("verifying");
    var body = { phone: this.state.phone, otp };
    if (this.config.modes.length < 2)
      body.selectedMode = this.config.modes[0];
    if (this.state.cartToken)
      body.cartToken = this.state.cartToken;
    if (this.behaviour)
      body.behaviour = verifyFields(this.behaviour, Date.now());
    call(this.base, "/verify-otp", body).then(function(r) {
      self.busy = false;
      els.verifyButton.disabled = false;
      var outcome = interpret(r.status, r.body);
      if (outcome.kind === "ok") {
        if (self.behaviour)
          noteTyped(self.behaviour);
        self.state.verified = true;
        self.state.proof = r.body.proof || null;
        device(self.state.phone, r.body.deviceToken);
        if (r.body.deviceToken)
          rememberedPhone(self.state.phone);
        self.stopWebOtp();
        self.applyRisk(r.body);
        if (self.riskNote) {
          self.say("");
          return self.showRiskModes("verified");
        }
        if (self.config.modes.length < 2) {
          self.say("verified");
          return self.checkout();
        }
        self.say("");
        return self.showModes("verified");
      }
      if (outcome.kind === "already_verified") {
        self.state.verified = true;
        self.stopWebOtp();
        if (self.riskNote) {
          self.say("");
          return self.showRiskModes("already_verified");
        }
        if (self.config.modes.length < 2) {
          self.say("already_verified");
          return self.checkout();
        }
        self.say("");
        return self.showModes("already_verified");
      }
      self.say("");
      var message = failureMessage(outcome);
      if (message.step === "phone")
        self.showStep("phone");
      self.showAlert(message);
      if (message.newCode) {
        els.code.disabled = true;
        els.verifyButton.disabled = true;
        els.newCode.focus();
      } else if (outcome.kind === "invalid_code") {
        els.code.value = "";
        els.code.setAttribute("aria-invalid", "true");
        els.code.focus();
      }
    });
  };
  CodModal.prototype.startWebOtp = function() {
    var self = this;
    this.stopWebOtp();
    if (!("OTPCredential" in global) || !global.navigator.credentials || typeof AbortController !== "function")
      return;
    var controller = new AbortController();
    this.webOtp = controller;
    global.navigator.credentials.get({ otp: { transport: ["sms"] }, signal: controller.signal }).then(function(credential) {
      if (controller.signal.aborted || !credential || !credential.code || self.step !== "code")
        return;
      var code = extractCode(credential.code, self.config.codeLength);
      if (code.length !== self.config.codeLength)
        return;
      self.els.code.value = code;
      self.els.code.removeAttribute("aria-invalid");
      self.verify();
    }).catch(function() {
    });
  };
  CodModal.prototype.stopWebOtp = function() {
    if (this.webOtp)
      this.webOtp.abort();
    this.webOtp = null;
  };

  // app/storefront-modal/ui/mode-step.js
  CodModal.prototype.renderModes = function(slot) {
    var self = this;
    var modes = this.config.modes;
    slot.textContent = "";
    if (modes.length < 2)
      return this.renderAmount(slot);
    var name = "codv-mode-" + this.uid;
    var fieldset = h("fieldset", { class: "codv-modes", "aria-describedby": this.els.modeIntro.id }, [h("legend", { text: this.t("mode_legend") })]);
    modes.forEach(function(mode) {
      var input = h("input", { type: "radio", name, value: mode, onchange: function() {
        self.state.mode = mode;
      } });
      input.checked = self.state.mode === mode;
      fieldset.appendChild(
        h("label", { class: "codv-mode" }, [
          input,
          h("span", { class: "codv-mode-text" }, [
            h("strong", { text: self.t("mode_" + mode) }),
            h("small", { text: self.t("mode_" + mode + "_hint") }),
            function() {
              var a = amountText(mode, self.quote, self.locale);
              return a ? h("span", { class: "codv-amount", text: self.t(a.key, a.values) }) : null;
            }()
          ])
        ])
      );
    });
    slot.appendChild(fieldset);
  };
  CodModal.prototype.checkout = function() {
    var self = this;
    if (this.busy)
      return;
    if (!this.state.mode)
      return this.showRiskModes();
    this.busy = true;
    var lines = this.state.lines;
    var body = { selectedMode: this.state.mode, phone: this.state.phone };
    body.proof = this.state.proof || void 0;
    body.deviceToken = device(this.state.phone) || void 0;
    var touch = firstTouch();
    if (touch !== null)
      body.source = touch;
    if (this.source === "product" && lines.length === 1) {
      body.variantId = lines[0].variantId;
      body.quantity = lines[0].quantity;
      if (this.state.title)
        body.productTitle = this.state.title;
    } else {
      body.lines = lines;
      if (this.state.cartToken)
        body.cartToken = this.state.cartToken;
    }
    this.showBusy(this.t("redirecting"));
    call(this.base, "/create-checkout", body).then(function(r) {
      self.busy = false;
      var outcome = interpret(r.status, r.body);
      if (outcome.kind === "checkout")
        return api.navigate(outcome.url);
      if (outcome.kind === "fallback") {
        self.state.proof = r.body && r.body.proof || self.state.proof;
        return self.normalCheckout();
      }
      if (outcome.kind === "cod_not_allowed") {
        self.applyRisk({ allowedModes: outcome.allowedModes, risk: outcome.risk });
        self.riskNote = self.riskNote || failureMessage(outcome).key;
        return self.showRiskModes();
      }
      var message = failureMessage(outcome);
      if (outcome.kind === "phone_not_verified")
        self.state.verified = false;
      if (message.step !== "phone" && self.state.verified)
        self.showModes(null);
      else
        self.showStep("phone");
      self.showAlert(message);
    });
  };
  CodModal.prototype.showModes = function(introKey) {
    if (introKey)
      this.els.modeIntro.textContent = this.t(introKey);
    this.renderModes(this.els.modeModes);
    this.showStep("mode");
  };
  CodModal.prototype.payOnline = function() {
    if (this.config.modes.indexOf("prepaid") === -1)
      return;
    this.state.mode = "prepaid";
    this.checkout();
  };

  // app/storefront-modal/ui/risk.js
  CodModal.prototype.applyRisk = function(body) {
    var cfg = this.config;
    if (!body || !Array.isArray(body.allowedModes))
      return;
    if (!cfg.shopModes)
      cfg.shopModes = cfg.modes.slice();
    if (!("shopPricing" in cfg))
      cfg.shopPricing = cfg.pricing;
    var deposit = riskDeposit(body);
    this.riskDeposit = deposit;
    cfg.pricing = deposit ? pricingWithDeposit(cfg.shopPricing, deposit) : cfg.shopPricing;
    this.quote = quote(this.state.total, this.state.currency, cfg.pricing, presentmentRate(this.state.currency, global.Shopify));
    cfg.modes = riskModes(cfg.shopModes, body.allowedModes, !!deposit);
    this.riskNote = cfg.shopModes.indexOf("cod") !== -1 && cfg.modes.indexOf("cod") === -1 ? riskNoteKey(body.risk) : null;
    if (deposit && cfg.modes.indexOf("partial") !== -1)
      this.state.mode = "partial";
    else if (cfg.modes.indexOf(this.state.mode) === -1)
      this.state.mode = cfg.modes[0] || null;
  };
  CodModal.prototype.resetRisk = function() {
    if (this.config.shopModes)
      this.config.modes = this.config.shopModes.slice();
    if ("shopPricing" in this.config)
      this.config.pricing = this.config.shopPricing;
    this.riskNote = null;
    this.riskDeposit = null;
  };
  CodModal.prototype.showRiskModes = function(leadKey) {
    var els = this.els;
    var lead = leadKey ? this.t(leadKey) + " " : "";
    var d = this.riskDeposit;
    var next = d && this.config.modes.indexOf("partial") !== -1 ? this.t("risk_deposit", { amount: money(d.amount, d.currency || this.state.currency, this.locale) }) : this.t(this.config.modes.length ? "risk_choose" : "risk_elsewhere");
    els.modeIntro.textContent = lead + this.t(this.riskNote || "risk_generic") + " " + next;
    this.renderModes(els.modeModes);
    this.showStep("mode");
    if (this.config.modes.length)
      return;
    els.modeButton.hidden = true;
    els.checkoutLink.hidden = false;
    els.checkoutLink.focus();
  };

  // app/storefront-modal/ui/mount.js
  function mount() {
    function modalOf(root) {
      if (!root.codVerify)
        root.codVerify = new CodModal(root);
      return root.codVerify;
    }
    api.prefetch = function(root) {
      modalOf(root).loadConfig();
    };
    api.open = function(root) {
      modalOf(root).start();
    };
    global.addEventListener("pageshow", function(e) {
      if (!e.persisted)
        return;
      Array.prototype.forEach.call(document.querySelectorAll("[data-cod-verify]"), function(root) {
        if (root.codVerify)
          root.codVerify.close();
      });
    });
  }

  // app/storefront-modal/main.js
  global.CodVerify = api;
  if (global.document)
    mount();
})();
