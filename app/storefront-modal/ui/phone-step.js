import { CodModal } from "./modal.js";
import { maskedPhone, toE164 } from "../core/phone.js";
import { clock, failureMessage, interpret } from "../core/outcomes.js";
import { device, rememberedPhone } from "./device.js";
import { call } from "./proxy-api.js";
import { newBehaviour, noteSent, sendFields } from "../core/behaviour.js";

/** The number this browser verified, in the field masked, with its country selected. */
CodModal.prototype.useRemembered = function () {
  var phone = rememberedPhone();
  if (!phone) return;
  var dial = this.dial;
  var iso = Object.keys(dial)
    .filter(function (c) { return phone.indexOf("+" + dial[c]) === 0; })
    .sort(function (a, b) { return dial[b].length - dial[a].length; })[0];
  if (iso && this.els.country.value !== iso && dial[this.els.country.value] !== dial[iso]) this.els.country.value = iso;
  this.remembered = { phone: phone, masked: maskedPhone(phone, this.dialCodes()) };
  this.els.phone.value = this.remembered.masked;
  this.els.known.hidden = false;
};

/** Typing in the field means another number: the masked one goes. */
CodModal.prototype.forgetRemembered = function () {
  var els = this.els;
  if (!this.remembered || els.phone.value === this.remembered.masked) return;
  els.phone.value = els.phone.value.indexOf(this.remembered.masked) === 0 ? els.phone.value.slice(this.remembered.masked.length) : els.phone.value.indexOf("\u2022") === -1 ? els.phone.value : "";
  this.remembered = null;
  els.known.hidden = true;
};

CodModal.prototype.setSendLabel = function () {
  if (this.timers.send) return;
  this.els.sendButton.disabled = false;
  this.els.sendButton.textContent = this.t(this.config.otpEnabled ? "send_code" : "continue");
};

CodModal.prototype.blockSending = function (total) {
  var self = this;
  var send = this.els.sendButton;
  var resend = this.els.resend;
  this.countdown(
    "send",
    total,
    function (left) {
      send.disabled = true;
      resend.disabled = true;
      send.textContent = self.t("send_code") + " (" + clock(left) + ")";
      resend.textContent = self.t("resend_in", { time: clock(left) });
    },
    function () {
      self.setSendLabel();
      resend.disabled = false;
      resend.textContent = self.t("resend");
    },
  );
};

CodModal.prototype.sendCode = function (again, channel) {
  var self = this;
  var els = this.els;
  // A wait keeps resends and the send button back; the code by another channel is asked all the same (the
  // server applies every limit to it, and answers with the wait again where one still holds).
  if (this.busy || (this.timers.send && !channel)) return;
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
  var body = { phone: phone };
  // WhatsApp once asked for stays the channel of this number's resends.
  if (!again) {
    this.channel = els.channel_whatsapp && els.channel_whatsapp.checked ? "whatsapp" : els.channel_sms ? "sms" : null;
    this.resetRisk();
  }
  if (channel) this.channel = channel;
  if (this.channel) body.channel = this.channel;
  body.deviceToken = device(phone) || undefined;
  var smsLocale = (this.locale || this.config.locale || "").split("-")[0];
  if (smsLocale) body.locale = smsLocale;
  if (!this.behaviour) this.behaviour = newBehaviour();
  var readings = sendFields(this.behaviour, phone, Date.now());
  body.behaviour = readings;
  call(this.base, "/send-otp", body).then(function (r) {
    self.busy = false;
    button.disabled = false;
    var outcome = interpret(r.status, r.body);
    self.applyRisk(r.body);
    if (outcome.kind === "ok") {
      self.paused = false;
      if (self.timers.send) {
        // Sent on another channel during a wait: the wait is over for this code.
        clearInterval(self.timers.send);
        delete self.timers.send;
        els.resend.disabled = false;
      }
      noteSent(self.behaviour, phone, Date.now(), readings);
      self.state.verified = false;
      self.state.proof = null;
      self.state.codeExpires = Date.now() + (outcome.expiresIn || 600) * 1000;
      // Where the code went: WhatsApp, or a text (also when WhatsApp was refused and SMS took over).
      // Asked for on WhatsApp but sent as a text (WhatsApp refused it, e.g. at its send limit): said so, and
      // the resends go by text too.
      var fellBack = self.channel === "whatsapp" && outcome.channel === "sms";
      if (fellBack) self.channel = "sms";
      self.fill(els.codeIntro, outcome.channel === "whatsapp" ? "code_intro_whatsapp" : fellBack ? "code_intro_sms_fallback" : "code_intro", { length: self.config.codeLength, phone: phone });
      els.code.value = "";
      els.code.disabled = false;
      els.code.setAttribute("maxlength", String(self.config.codeLength));
      els.verifyButton.disabled = false;
      self.renderAmount(els.codeAmount);
      self.showStep("code");
      self.clearAlert();
      self.say(again ? "code_resent" : "code_sent", { phone: phone });
      self.startResendTimer(outcome.resendAfter != null ? outcome.resendAfter : self.config.resendAfter);
    } else if (outcome.kind === "skipped") {
      self.state.verified = true;
      self.say("");
      var welcome = outcome.reason === "returning_customer";
      // The shop's daily cap is spent: no code, and a cash-on-delivery order is confirmed after purchase.
      var capped = outcome.reason === "cap_fallback";
      if (self.riskNote) return self.showRiskModes(welcome ? "welcome_back" : null);
      // The shop asked for codes when the sheet opened and asks none now (paused): said, not skipped past.
      var notNeeded = !welcome && !capped && self.config.otpEnabled;
      if (notNeeded) self.paused = true;
      if (self.config.modes.length < 2) return notNeeded || capped ? self.showPaused(self.checkout, capped ? "cap_fallback" : "not_needed") : self.checkout();
      self.showModes(welcome ? "welcome_back" : capped ? "cap_fallback_choose" : notNeeded ? "not_needed_choose" : "choose_mode");
    } else if (outcome.kind === "fallback") {
      // The app cannot verify for this shop now (402): the store's own checkout, once the shopper knows why.
      self.paused = true;
      self.showPaused(self.normalCheckout, "not_needed");
    } else {
      self.say("");
      var message = failureMessage(outcome);
      if (message.step === "phone" && self.step !== "phone") self.showStep("phone");
      self.showAlert(message);
      if (message.wait) self.blockSending(message.wait);
      if (message.step === "phone") {
        els.phone.setAttribute("aria-invalid", "true");
        els.phone.focus();
      }
    }
  });
};
