import { CodModal } from "./modal.js";
import { riskModes, riskNoteKey } from "../core/risk.js";

/*
 * What the risk answers change in the sheet (docs/risk.md): the modes offered to this shopper, and
 * when cash on delivery was taken away, one neutral sentence why on the payment step.
 */

/** Narrows the modes to an answer's `allowedModes` (send-otp, verify-otp, create-checkout's 403). */
CodModal.prototype.applyRisk = function (body) {
  var cfg = this.config;
  if (!body || !Array.isArray(body.allowedModes)) return;
  if (!cfg.shopModes) cfg.shopModes = cfg.modes.slice();
  cfg.modes = riskModes(cfg.shopModes, body.allowedModes);
  this.riskNote = cfg.shopModes.indexOf("cod") !== -1 && cfg.modes.indexOf("cod") === -1 ? riskNoteKey(body.risk) : null;
  if (cfg.modes.indexOf(this.state.mode) === -1) this.state.mode = cfg.modes[0] || null;
};

/** Another number: the shop's modes again until its own answers say otherwise. */
CodModal.prototype.resetRisk = function () {
  if (this.config.shopModes) this.config.modes = this.config.shopModes.slice();
  this.riskNote = null;
};

/**
 * The payment step when cash on delivery is not offered: `leadKey` first (the number verified, where
 * every band's payment step says it: above the choices), the sentence why, then the ways left. With
 * none left in the modal, the store's own checkout, where the payment function hides it too.
 */
CodModal.prototype.showRiskModes = function (leadKey) {
  var els = this.els;
  var lead = leadKey ? this.t(leadKey) + " " : "";
  els.modeIntro.textContent = lead + this.t(this.riskNote || "risk_generic") + " " + this.t(this.config.modes.length ? "risk_choose" : "risk_elsewhere");
  this.renderModes(els.modeModes);
  this.showStep("mode");
  if (this.config.modes.length) return;
  els.modeButton.hidden = true;
  els.checkoutLink.hidden = false;
  els.checkoutLink.focus();
};
