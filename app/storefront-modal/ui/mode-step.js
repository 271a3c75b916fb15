import { api } from "../public-api.js";
import { CodModal } from "./modal.js";
import { failureMessage, interpret } from "../core/outcomes.js";
import { amountText } from "../core/pricing.js";
import { device } from "./device.js";
import { h } from "./dom.js";
import { call } from "./proxy-api.js";
import { firstTouch } from "./touch.js";

/** The payment-mode radio cards of the mode step. */
CodModal.prototype.renderModes = function (slot) {
  var self = this;
  var modes = this.config.modes;
  slot.textContent = "";
  if (modes.length < 2) return this.renderAmount(slot);
  var name = "codv-mode-" + this.uid;
  var fieldset = h("fieldset", { class: "codv-modes", "aria-describedby": this.els.modeIntro.id }, [h("legend", { text: this.t("mode_legend") })]);
  modes.forEach(function (mode) {
    var input = h("input", { type: "radio", name: name, value: mode, onchange: function () { self.state.mode = mode; } });
    input.checked = self.state.mode === mode;
    fieldset.appendChild(
      h("label", { class: "codv-mode" }, [
        input,
        h("span", { class: "codv-mode-text" }, [
          h("strong", { text: self.t("mode_" + mode) }),
          h("small", { text: self.t("mode_" + mode + "_hint") }),
          (function () {
            var a = amountText(mode, self.quote, self.locale);
            return a ? h("span", { class: "codv-amount", text: self.t(a.key, a.values) }) : null;
          })(),
        ]),
      ]),
    );
  });
  slot.appendChild(fieldset);
};

CodModal.prototype.checkout = function () {
  var self = this;
  if (this.busy) return;
  if (!this.state.mode) return this.showRiskModes(); // nothing left to choose in the modal
  this.busy = true;
  var lines = this.state.lines;
  var body = { selectedMode: this.state.mode, phone: this.state.phone };
  body.proof = this.state.proof || undefined;
  body.deviceToken = device(this.state.phone) || undefined;
  // Where the shopper came from (the session's first touch), for the order's record and the merchant's source rules.
  var touch = firstTouch();
  if (touch !== null) body.source = touch;
  if (this.source === "product" && lines.length === 1) {
    body.variantId = lines[0].variantId;
    body.quantity = lines[0].quantity;
    if (this.state.title) body.productTitle = this.state.title;
  } else {
    body.lines = lines;
    if (this.state.cartToken) body.cartToken = this.state.cartToken;
  }
  this.showBusy(this.t("redirecting"));
  call(this.base, "/create-checkout", body).then(function (r) {
    self.busy = false;
    var outcome = interpret(r.status, r.body);
    if (outcome.kind === "checkout") return api.navigate(outcome.url);
    if (outcome.kind === "fallback") {
      self.state.proof = (r.body && r.body.proof) || self.state.proof;
      return self.normalCheckout();
    }
    if (outcome.kind === "cod_not_allowed") {
      // Cash on delivery refused at the last step: the ways left, and why, instead of an error.
      self.applyRisk({ allowedModes: outcome.allowedModes, risk: outcome.risk });
      self.riskNote = self.riskNote || failureMessage(outcome).key;
      return self.showRiskModes();
    }
    var message = failureMessage(outcome);
    if (outcome.kind === "phone_not_verified") self.state.verified = false;
    if (message.step !== "phone" && self.state.verified) self.showModes(null);
    else self.showStep("phone");
    self.showAlert(message);
  });
};

/** The payment-mode step, introduced by `introKey` (null keeps the current intro). */
CodModal.prototype.showModes = function (introKey) {
  if (introKey) this.els.modeIntro.textContent = this.t(introKey);
  this.renderModes(this.els.modeModes);
  this.showStep("mode");
};

/** A way forward without a code: the shop's online payment (prepaid needs no proven phone). */
CodModal.prototype.payOnline = function () {
  if (this.config.modes.indexOf("prepaid") === -1) return;
  this.state.mode = "prepaid";
  this.checkout();
};
