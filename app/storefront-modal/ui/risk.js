import { CodModal } from "./modal.js";
import { global } from "../global.js";
import { pricingWithDeposit, riskDeposit, riskModes, riskNoteKey } from "../core/risk.js";
import { money, presentmentRate, quote } from "../core/pricing.js";

/*
 * What the risk answers change in the sheet (docs/risk.md): the modes offered to this shopper, and
 * when cash on delivery was taken away, one neutral sentence why on the payment step.
 */

/** Narrows the modes to an answer's `allowedModes` (send-otp, verify-otp, create-checkout's 403). */
CodModal.prototype.applyRisk = function (body) {
  var cfg = this.config;
  if (!body || !Array.isArray(body.allowedModes)) return;
  if (!cfg.shopModes) cfg.shopModes = cfg.modes.slice();
  if (!("shopPricing" in cfg)) cfg.shopPricing = cfg.pricing;
  // A priced deposit (docs/risk.md): partial with the server's amount, said on the payment step.
  var deposit = riskDeposit(body);
  this.riskDeposit = deposit;
  cfg.pricing = deposit ? pricingWithDeposit(cfg.shopPricing, deposit) : cfg.shopPricing;
  this.quote = quote(this.state.total, this.state.currency, cfg.pricing, presentmentRate(this.state.currency, global.Shopify));
  cfg.modes = riskModes(cfg.shopModes, body.allowedModes, !!deposit);
  this.riskNote = cfg.shopModes.indexOf("cod") !== -1 && cfg.modes.indexOf("cod") === -1 ? riskNoteKey(body.risk) : null;
  if (deposit && cfg.modes.indexOf("partial") !== -1) this.state.mode = "partial";
  else if (cfg.modes.indexOf(this.state.mode) === -1) this.state.mode = cfg.modes[0] || null;
};

/** Another number: the shop's modes again until its own answers say otherwise. */
CodModal.prototype.resetRisk = function () {
  if (this.config.shopModes) this.config.modes = this.config.shopModes.slice();
  if ("shopPricing" in this.config) this.config.pricing = this.config.shopPricing;
  this.riskNote = null;
  this.riskDeposit = null;
};

/**
 * The payment step when cash on delivery is not offered: `leadKey` first (the number verified, where
 * every band's payment step says it: above the choices), the sentence why, then the ways left. With
 * none left in the modal, the store's own checkout, where the payment function hides it too.
 */
CodModal.prototype.showRiskModes = function (leadKey) {
  var els = this.els;
  var lead = leadKey ? this.t(leadKey) + " " : "";
  var d = this.riskDeposit;
  var next = d && this.config.modes.indexOf("partial") !== -1 ? this.t("risk_deposit", { amount: money(d.amount, d.currency || this.state.currency, this.locale) }) : this.t(this.config.modes.length ? "risk_choose" : "risk_elsewhere");
  els.modeIntro.textContent = lead + this.t(this.riskNote || "risk_generic") + " " + next;
  this.renderModes(els.modeModes);
  this.showStep("mode");
  if (this.config.modes.length) return;
  els.modeButton.hidden = true;
  els.checkoutLink.hidden = false;
  els.checkoutLink.focus();
};
