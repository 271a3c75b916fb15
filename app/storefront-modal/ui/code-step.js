import { global } from "../global.js";
import { CodModal } from "./modal.js";
import { extractCode } from "../core/phone.js";
import { clock, failureMessage, interpret } from "../core/outcomes.js";
import { amountText } from "../core/pricing.js";
import { device, rememberedPhone } from "./device.js";
import { h } from "./dom.js";
import { call } from "./proxy-api.js";
import { noteTyped, verifyFields } from "../core/behaviour.js";

/** One way to pay: nothing to choose, but the shopper still sees what it costs (on the code step). */
CodModal.prototype.renderAmount = function (slot) {
  var modes = this.config.modes;
  slot.textContent = "";
  var only = modes.length < 2 ? amountText(modes[0], this.quote, this.locale) : null;
  if (only) slot.appendChild(h("p", { class: "codv-amount codv-amount-only", text: this.t(only.key, only.values) }));
};

CodModal.prototype.startResendTimer = function (total) {
  var self = this;
  var resend = this.els.resend;
  this.countdown(
    "resend",
    total,
    function (left) {
      resend.disabled = true;
      resend.textContent = self.t("resend_in", { time: clock(left) });
    },
    function () {
      resend.disabled = false;
      resend.textContent = self.t("resend");
    },
  );
};

CodModal.prototype.onCodeInput = function () {
  var code = this.els.code;
  var clean = extractCode(code.value, this.config.codeLength);
  if (clean !== code.value) code.value = clean;
  code.removeAttribute("aria-invalid");
  if (clean) this.els.alert.hidden = true;
  // With one mode there is nothing left to choose: a complete code goes straight to checkout.
  if (clean.length === this.config.codeLength && this.config.modes.length < 2) this.verify();
};

CodModal.prototype.verify = function () {
  var self = this;
  var els = this.els;
  if (this.busy) return;
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
  // The mode is named only when there is no choice: with several, it is chosen on the next step.
  var body = { phone: this.state.phone, otp: otp };
  if (this.config.modes.length < 2) body.selectedMode = this.config.modes[0];
  if (this.state.cartToken) body.cartToken = this.state.cartToken;
  if (this.behaviour) body.behaviour = verifyFields(this.behaviour, Date.now());
  call(this.base, "/verify-otp", body).then(function (r) {
    self.busy = false;
    els.verifyButton.disabled = false;
    var outcome = interpret(r.status, r.body);
    if (outcome.kind === "ok") {
      if (self.behaviour) noteTyped(self.behaviour);
      self.state.verified = true;
      self.state.proof = r.body.proof || null;
      device(self.state.phone, r.body.deviceToken);
      if (r.body.deviceToken) rememberedPhone(self.state.phone);
      self.stopWebOtp();
      self.applyRisk(r.body);
      // "Number verified." heads the payment step for every band, above the choices.
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
      // Another answer of this right code verified the number first: it is verified, never "attempts exhausted".
      // There is no second proof; create-checkout asks again should cash on delivery need one.
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
    if (message.step === "phone") self.showStep("phone");
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

/**
 * WebOTP (Chrome on Android): the SMS ends "@<shop's domain> #<code>", the browser offers the code,
 * and the modal fills it in and verifies it (the mode is chosen after). The request is aborted when
 * the code step ends (verified, another step, the modal closed).
 */
CodModal.prototype.startWebOtp = function () {
  var self = this;
  this.stopWebOtp();
  if (!("OTPCredential" in global) || !global.navigator.credentials || typeof AbortController !== "function") return;
  var controller = new AbortController();
  this.webOtp = controller;
  global.navigator.credentials
    .get({ otp: { transport: ["sms"] }, signal: controller.signal })
    .then(function (credential) {
      if (controller.signal.aborted || !credential || !credential.code || self.step !== "code") return;
      var code = extractCode(credential.code, self.config.codeLength);
      if (code.length !== self.config.codeLength) return;
      self.els.code.value = code;
      self.els.code.removeAttribute("aria-invalid");
      self.verify();
    })
    .catch(function () { /* dismissed, aborted or unsupported: the shopper types the code */ });
};

CodModal.prototype.stopWebOtp = function () {
  if (this.webOtp) this.webOtp.abort();
  this.webOtp = null;
};
