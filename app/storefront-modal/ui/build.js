import { global } from "../global.js";
import { CodModal } from "./modal.js";
import { extractCode } from "../core/phone.js";
import { isRtl } from "../core/texts.js";
import { document, flag, h } from "./dom.js";

/** The sheet and its three steps (phone, code, payment mode), made once per block on first open. */
CodModal.prototype.build = function () {
  var self = this;
  var t = this.t.bind(this);
  var rtl = isRtl(this.locale);
  this.els = {};
  var els = this.els;

  els.title = h("h2", { class: "codv-title", id: "codv-title-" + this.uid, text: t("title") });
  els.close = h("button", { type: "button", class: "codv-close", "aria-label": t("close"), onclick: function () { self.close(); } }, ["\u00d7"]);
  els.summary = h("p", { class: "codv-summary" });
  els.status = h("p", { class: "codv-status", role: "status", "aria-live": "polite" });
  els.alert = h("div", { class: "codv-alert", role: "alert", hidden: true });

  // Step 1: the phone number.
  var countryId = "codv-country-" + this.uid;
  var phoneId = "codv-phone-" + this.uid;
  els.country = h("select", { id: countryId, class: "codv-select", autocomplete: "tel-country-code" });
  var names = null;
  try { names = new Intl.DisplayNames([this.locale, "en"], { type: "region" }); } catch { names = null; }
  // The config lists the shop's allowed countries first (flagged `allowed`), then the others;
  // each group is sorted by its name in the shopper's language.
  var dial = this.dial;
  var byName = function (a, b) { return a.name.localeCompare(b.name, self.locale); };
  var named = this.config.countries.map(function (c) { return { iso: c.iso, allowed: c.allowed === true, name: (names && names.of(c.iso)) || c.iso }; });
  named.filter(function (c) { return c.allowed; }).sort(byName)
    .concat(named.filter(function (c) { return !c.allowed; }).sort(byName))
    .forEach(function (c) {
      els.country.appendChild(h("option", { value: c.iso, text: flag(c.iso) + " " + c.name + " (+" + dial[c.iso] + ")" }));
    });
  var localeCountry = (this.locale.split("-")[1] || "").toUpperCase();
  var first = els.country.options[0];
  els.country.value = dial[this.defaultCountry] ? this.defaultCountry : dial[localeCountry] ? localeCountry : first ? first.value : "";
  this.remembered = null;
  els.phone = h("input", {
    id: phoneId, class: "codv-input codv-ltr", type: "tel", name: "phone", inputmode: "tel", autocomplete: "tel",
    required: true, dir: "ltr", "aria-describedby": "codv-phone-hint-" + this.uid + " codv-known-" + this.uid,
    oninput: function () { self.forgetRemembered(); },
  });
  els.known = h("p", { class: "codv-hint", id: "codv-known-" + this.uid, text: t("remembered_hint"), hidden: true });
  this.useRemembered();
  var formId = function (step) { return "codv-form-" + step + "-" + self.uid; };
  els.sendButton = h("button", { type: "submit", class: "codv-primary", form: formId("phone") });
  els.phoneForm = h("form", { class: "codv-step", id: formId("phone"), novalidate: true, onsubmit: function (e) { e.preventDefault(); self.sendCode(); } }, [
    h("p", { class: "codv-intro", id: "codv-phone-hint-" + this.uid, text: t(this.config.otpEnabled ? "phone_intro" : "phone_intro_no_otp") }),
    h("div", { class: "codv-field" }, [h("label", { for: countryId, text: t("country_label") }), els.country]),
    h("div", { class: "codv-field" }, [h("label", { for: phoneId, text: t("phone_label") }), els.phone, els.known]),
  ].concat(this.config.otpEnabled && this.config.channelChoice ? [channelChoice(this, h, t)] : []));

  // Step 2: the code alone. Enter verifies it; the payment mode is its own step after it.
  var codeId = "codv-code-" + this.uid;
  els.codeIntro = h("p", { class: "codv-intro" });
  els.code = h("input", {
    id: codeId, class: "codv-input codv-code codv-ltr", type: "text", name: "otp", inputmode: "numeric",
    autocomplete: "one-time-code", pattern: "[0-9]*", dir: "ltr", required: true, spellcheck: "false",
    oninput: function () { self.onCodeInput(); },
    onpaste: function (e) {
      var text = (e.clipboardData || global.clipboardData).getData("text");
      if (!text) return;
      e.preventDefault();
      els.code.value = extractCode(text, self.config.codeLength);
      self.onCodeInput();
    },
  });
  els.changeNumber = h("button", { type: "button", class: "codv-link", text: t("change_number"), onclick: function () { self.showStep("phone"); } });
  els.resend = h("button", { type: "button", class: "codv-link", onclick: function () { self.sendCode(true); } });
  els.codeAmount = h("div", { class: "codv-modes-slot" });
  els.verifyButton = h("button", { type: "submit", class: "codv-primary", form: formId("code"), text: t("confirm") });
  els.codeForm = h("form", { class: "codv-step", id: formId("code"), novalidate: true, onsubmit: function (e) { e.preventDefault(); self.verify(); } }, [
    els.codeIntro,
    h("div", { class: "codv-field" }, [h("label", { for: codeId, text: t("code_label") }), els.code]),
    h("div", { class: "codv-row" }, [els.resend, els.changeNumber]),
    els.codeAmount,
  ]);

  // Step 3 (after the code, or when it was skipped): the payment mode, seen and chosen.
  els.modeIntro = h("p", { class: "codv-intro", id: "codv-mode-intro-" + this.uid });
  els.modeModes = h("div", { class: "codv-modes-slot" });
  els.modeButton = h("button", { type: "submit", class: "codv-primary", form: formId("mode"), text: t("continue_to_checkout") });
  els.modeForm = h("form", { class: "codv-step", id: formId("mode"), novalidate: true, onsubmit: function (e) { e.preventDefault(); self.checkout(); } }, [
    els.modeIntro,
    els.modeModes,
  ]);

  // While the shop cannot verify (paused): said plainly, and the shopper goes on when they choose to.
  els.pausedText = h("p", { class: "codv-intro", text: t("not_needed") });
  els.pausedStep = h("div", { class: "codv-step" }, [els.pausedText]);
  els.pausedButton = h("button", { type: "button", class: "codv-primary", text: t("continue_to_checkout"), onclick: function () { self.leavePaused(); } });

  els.busy = h("div", { class: "codv-step codv-busy" }, [h("span", { class: "codv-spinner", "aria-hidden": "true" }), h("p", { class: "codv-busy-text" })]);

  els.checkoutLink = h("button", { type: "button", class: "codv-link codv-fallback", text: t("checkout_normally"), hidden: true, onclick: function () { self.normalCheckout(); } });
  els.newCode = h("button", { type: "button", class: "codv-secondary", text: t("new_code"), hidden: true, onclick: function () { self.sendCode(true); } });
  // Ways forward when the code cannot come by text: online payment, the code by WhatsApp.
  els.payOnline = h("button", { type: "button", class: "codv-secondary", text: t("pay_online"), hidden: true, onclick: function () { self.payOnline(); } });
  els.whatsapp = h("button", { type: "button", class: "codv-secondary", text: t("send_whatsapp"), hidden: true, onclick: function () { self.sendCode(true, "whatsapp"); } });
  // WhatsApp could not take the code: the same number by text message, where the shop sends texts.
  els.smsInstead = h("button", { type: "button", class: "codv-secondary", text: t("send_sms"), hidden: true, onclick: function () { self.sendCode(true, "sms"); } });

  // The sheet scrolls its body; the footer (the current error, its ways forward and the step's main
  // action) stays in view at any height, the phone's keyboard open included.
  els.dialog = h("div", { class: "codv-dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": els.title.id, dir: rtl ? "rtl" : "ltr", lang: this.locale, tabindex: "-1" }, [
    h("div", { class: "codv-head" }, [els.title, els.close]),
    (els.body = h("div", { class: "codv-body", onfocusin: function (e) { self.showFocusedCard(e.target); } }, [
      els.summary,
      els.phoneForm,
      els.codeForm,
      els.modeForm,
      els.pausedStep,
      els.busy,
      els.status,
      (els.privacyNote = h("p", { class: "codv-note", text: t("privacy_note") })),
    ])),
    h("div", { class: "codv-foot" }, [
      els.alert,
      h("div", { class: "codv-ways" }, [els.newCode, els.whatsapp, els.smsInstead, els.payOnline]),
      els.checkoutLink,
      els.sendButton,
      els.verifyButton,
      els.modeButton,
      els.pausedButton,
    ]),
  ]);
  els.backdrop = h("div", { class: "codv-backdrop", hidden: true, onclick: function (e) { if (e.target === els.backdrop) self.close(); } }, [els.dialog]);
  els.dialog.addEventListener("keydown", function (e) { self.onKeydown(e); });
  // The dialog sits outside the block: carry its colours over.
  var style = global.getComputedStyle(this.root);
  ["--codv-accent", "--codv-accent-text"].forEach(function (name) {
    var value = style.getPropertyValue(name).trim();
    if (value) els.backdrop.style.setProperty(name, value);
  });
  document.body.appendChild(els.backdrop);
};

/**
 * A payment option focused (Tab, the arrows) is shown whole in the body's scroll, not its radio alone: on a
 * short screen the last option's text and amount would stay under the footer.
 */
CodModal.prototype.showFocusedCard = function (target) {
  var card = target && target.closest ? target.closest(".codv-mode") : null;
  if (card && card.scrollIntoView) card.scrollIntoView({ block: "nearest" });
};

/** SMS or WhatsApp for the code, where the shop lets the shopper choose (config.channelChoice). */
function channelChoice(self, h, t) {
  var name = "codv-channel-" + self.uid;
  var option = function (value) {
    var input = h("input", { type: "radio", name: name, value: value });
    if (value === "sms") input.checked = true;
    self.els["channel_" + value] = input;
    return h("label", { class: "codv-choice" }, [input, h("span", { text: t("channel_" + value) })]);
  };
  return h("fieldset", { class: "codv-field codv-channels" }, [h("legend", { text: t("channel_label") }), option("sms"), option("whatsapp")]);
}
