import { global } from "../global.js";
import { api } from "../public-api.js";
import { allowedModes, normalCheckoutUrl, PROOF_ATTRIBUTE } from "../core/modes.js";
import { countryList } from "../core/phone.js";
import { seconds } from "../core/outcomes.js";
import { translate } from "../core/texts.js";
import { document, readJson, readStrings } from "./dom.js";
import { call } from "./proxy-api.js";
import { firstTouch } from "./touch.js";
import { SOURCE_ATTRIBUTE } from "../../shared/traffic-source";

/** One modal per block on the page. */
export function CodModal(root) {
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

CodModal.prototype.t = function (key, values, count) {
  return translate(this.strings, this.locale, key, values, count);
};

CodModal.prototype.loadConfig = function () {
  var self = this;
  if (!this.configPromise) {
    this.configPromise = call(this.base, "/api/config").then(function (r) {
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
          channelChoice: r.body.channelChoice === true,
        };
        self.dial = {};
        self.config.countries.forEach(function (c) { self.dial[c.iso] = c.dial; });
        return self.config;
      }
      self.configPromise = null; // try again on the next click
      return null;
    });
  }
  return this.configPromise;
};

/** The lines being bought: the product form's current variant and quantity, or the cart's items. */
CodModal.prototype.readLines = function () {
  var self = this;
  if (this.source === "cart") {
    return global
      .fetch(this.shopRoot.replace(/\/+$/, "") + "/cart.js", { headers: { Accept: "application/json" } })
      .then(function (res) { return res.json(); })
      .then(function (cart) {
        self.state.cartToken = cart.token || null;
        self.state.total = Number(cart.total_price) / 100;
        self.state.currency = cart.currency || null;
        return (cart.items || []).map(function (i) { return { variantId: String(i.variant_id), quantity: i.quantity }; });
      })
      .catch(function () { return []; });
  }
  var section = this.root.closest("section, [id^='shopify-section'], main") || document;
  var form = section.querySelector('form[action*="/cart/add"]') || document.querySelector('form[action*="/cart/add"]');
  var idField = form && form.querySelector('[name="id"]');
  var qtyField = (form && form.querySelector('[name="quantity"]')) || document.querySelector('[name="quantity"][form]');
  var variantId = (idField && idField.value) || this.root.dataset.variantId;
  var quantity = Math.max(1, Math.floor(Number(qtyField && qtyField.value) || 1));
  var prices = readJson(this.root, "script[data-cod-prices]");
  var index = prices && Array.isArray(prices.ids) ? prices.ids.map(String).indexOf(String(variantId)) : -1;
  var unit = index !== -1 && Array.isArray(prices.prices) ? Number(prices.prices[index]) / 100 : NaN;
  this.state.total = isFinite(unit) ? unit * quantity : null;
  this.state.currency = prices && prices.currency ? String(prices.currency) : null;
  return Promise.resolve(variantId ? [{ variantId: String(variantId), quantity: quantity }] : []);
};

CodModal.prototype.normalCheckout = function () {
  var self = this;
  this.showBusy(this.t("redirecting"));
  // The checkout's payment customization reads the proof from the cart's attributes.
  var proof = this.state.proof;
  var attributes = {};
  if (proof) attributes[PROOF_ATTRIBUTE] = proof;
  // Where the shopper came from, on the same cart (private attribute): the order's record reads it.
  var touch = firstTouch();
  if (touch !== null) attributes[SOURCE_ATTRIBUTE] = touch;
  var write = Object.keys(attributes).length ? call(this.shopRoot.replace(/\/+$/, ""), "/cart/update.js", { attributes: attributes }) : Promise.resolve();
  write.then(function () {
    api.navigate(normalCheckoutUrl(self.shopRoot, self.state.lines, proof, touch));
  });
};

CodModal.prototype.start = function () {
  var self = this;
  if (this.busy) return;
  this.busy = true;
  if (this.button) this.button.setAttribute("aria-busy", "true");
  Promise.all([this.loadConfig(), this.readLines()]).then(function (r) {
    self.busy = false;
    if (self.button) self.button.removeAttribute("aria-busy");
    self.state.lines = r[1];
    // No config or nothing to buy: the store's own checkout.
    if (!r[0] || !r[1].length) return self.normalCheckout();
    self.open();
  });
};

CodModal.prototype.dialCodes = function () {
  var dial = this.dial || {};
  return Object.keys(dial).map(function (iso) { return dial[iso]; });
};

/** tick(secondsLeft) now and every second, done() at zero. */
CodModal.prototype.countdown = function (name, total, tick, done) {
  var self = this;
  clearInterval(this.timers[name]);
  var end = Date.now() + total * 1000;
  var step = function () {
    var left = Math.ceil((end - Date.now()) / 1000);
    if (left <= 0) {
      clearInterval(self.timers[name]);
      delete self.timers[name];
      done();
    } else tick(left);
  };
  this.timers[name] = setInterval(step, 1000);
  step();
};
