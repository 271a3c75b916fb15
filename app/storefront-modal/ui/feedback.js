import { CodModal } from "./modal.js";
import { displayPhone } from "../core/phone.js";
import { document, h } from "./dom.js";

/* Which step shows, and what the sheet tells the shopper: status lines, errors and their ways forward. */

CodModal.prototype.showStep = function (step, focus) {
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
  // Paused, the store keeps and remembers nothing of the shopper here: the note would say it does (on the
  // way to checkout after it too).
  els.privacyNote.hidden = step === "paused" || this.paused === true;
  this.step = step;
  if (step === "code") this.startWebOtp();
  else this.stopWebOtp();
  if (step === "phone") {
    this.clearAlert();
    this.setSendLabel();
  }
  if (focus === false) return;
  var target = { phone: els.phone, code: els.code, mode: els.modeForm.querySelector("input:checked") || els.modeForm.querySelector("button"), paused: els.pausedButton }[step];
  if (target) target.focus();
  else els.dialog.focus();
};

CodModal.prototype.showBusy = function (text) {
  if (!this.els) return;
  this.els.busy.querySelector(".codv-busy-text").textContent = text;
  this.clearAlert();
  this.showStep("busy", false);
  this.els.dialog.focus();
};

CodModal.prototype.showAlert = function (message) {
  var els = this.els;
  els.alert.textContent = this.t(message.key, message.values, message.count);
  els.alert.hidden = false;
  els.checkoutLink.hidden = !message.checkout;
  els.newCode.hidden = !message.newCode;
  var modes = this.config.modes;
  // A dead end gets a way forward the shop allows: paying online (no code needed), the code by
  // WhatsApp when texts fail. With neither, the store's own checkout; a wait keeps its countdown.
  els.payOnline.hidden = !message.forward || modes.indexOf("prepaid") === -1;
  els.whatsapp.hidden = !message.whatsapp || !this.config.whatsapp || this.channel === "whatsapp";
  // The code was asked for on WhatsApp (the shopper's choice, or after a failed text): the shop sends texts.
  els.smsInstead.hidden = !message.sms || this.channel !== "whatsapp";
  if (message.forward && els.payOnline.hidden && els.whatsapp.hidden && els.smsInstead.hidden && !message.wait) els.checkoutLink.hidden = false;
  els.status.textContent = "";
};

CodModal.prototype.clearAlert = function () {
  var els = this.els;
  els.alert.hidden = true;
  els.alert.textContent = "";
  els.checkoutLink.hidden = true;
  els.newCode.hidden = true;
  els.payOnline.hidden = true;
  els.whatsapp.hidden = true;
  els.smsInstead.hidden = true;
};

/**
 * The shop cannot verify right now (paused: codes off, no plan, the month's verifications used up; or its
 * daily cap is spent and the order is confirmed after purchase): the shopper is told so (`key`), and `next`
 * (the store's checkout, or create-checkout) runs on their click.
 */
CodModal.prototype.showPaused = function (next, key) {
  this.pausedNext = next;
  this.els.pausedText.textContent = this.t(key);
  this.say("");
  this.clearAlert();
  this.showStep("paused");
};

CodModal.prototype.leavePaused = function () {
  var next = this.pausedNext;
  this.pausedNext = null;
  if (next) next.call(this);
};

CodModal.prototype.say = function (key, values) {
  if (key) this.fill(this.els.status, key, values);
  else this.els.status.textContent = "";
};

/**
 * Puts a translated text into `el`; a {phone} is the shopper's number in full inside a
 * <bdi dir="ltr">, so right-to-left text keeps its "+" in front of the digits.
 */
CodModal.prototype.fill = function (el, key, values) {
  var self = this;
  var vals = {};
  Object.keys(values || {}).forEach(function (k) { if (k !== "phone") vals[k] = values[k]; });
  var parts = this.t(key, vals).split("{phone}");
  el.textContent = "";
  parts.forEach(function (part, i) {
    if (i > 0) el.appendChild(h("bdi", { dir: "ltr", class: "codv-number", text: displayPhone(values.phone, self.dialCodes()) }));
    if (part) el.appendChild(document.createTextNode(part));
  });
};
