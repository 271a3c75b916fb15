import { global } from "../global.js";
import { CodModal } from "./modal.js";
import { money, presentmentRate, quote } from "../core/pricing.js";
import { document } from "./dom.js";
import { newBehaviour, noteOpened } from "../core/behaviour.js";

/* The sheet opened over the page and closed again: focus kept inside, fitted above a phone's keyboard. */

CodModal.prototype.open = function () {
  if (!this.els) {
    this.uid = Math.random().toString(36).slice(2, 8);
    this.build();
  }
  var els = this.els;
  var cfg = this.config;
  if (!this.behaviour) this.behaviour = newBehaviour();
  noteOpened(this.behaviour, Date.now());
  if (!this.state.mode || cfg.modes.indexOf(this.state.mode) === -1) this.state.mode = cfg.modes[0];
  var line = this.state.lines[0];
  // In the cart's currency; a fixed amount of the shop's currency converted at the page's rate where Shopify converts it.
  this.quote = quote(this.state.total, this.state.currency, cfg.pricing, presentmentRate(this.state.currency, global.Shopify));
  var what = this.source === "product" && this.state.title ? this.state.title + (line && line.quantity > 1 ? " \u00d7 " + line.quantity : "") : "";
  var items = this.quote ? this.t("amount_items", { amount: money(this.quote.total, this.quote.currency, this.locale) }) : "";
  els.summary.textContent = [what, items].filter(Boolean).join(" \u00b7 ");
  els.summary.hidden = !els.summary.textContent;
  this.returnFocus = document.activeElement;
  els.backdrop.hidden = false;
  document.documentElement.classList.add("codv-open");
  this.clearAlert();
  this.say("");
  // Reopened with a live code: back to it, not to a second SMS.
  var codeLive = this.step === "code" && this.state.codeExpires > Date.now();
  if (this.state.verified) this.renderModes(els.modeModes);
  this.showStep(this.state.verified ? "mode" : codeLive ? "code" : "phone");
  this.fitViewport(true);
};

CodModal.prototype.close = function () {
  if (!this.els || this.els.backdrop.hidden) return;
  this.els.backdrop.hidden = true;
  document.documentElement.classList.remove("codv-open");
  this.fitViewport(false);
  this.stopWebOtp();
  if (this.returnFocus && this.returnFocus.focus) this.returnFocus.focus();
};

/**
 * The sheet fits the visual viewport: a phone's on-screen keyboard shrinks it without resizing the
 * page (iOS, Chrome on Android), and the sheet's footer would sit under the keyboard.
 */
CodModal.prototype.fitViewport = function (on) {
  var vv = global.visualViewport;
  var backdrop = this.els.backdrop;
  if (!vv) return;
  if (!this.onViewport) {
    this.onViewport = function () {
      backdrop.style.top = vv.offsetTop + "px";
      backdrop.style.height = vv.height + "px";
    };
  }
  vv[on ? "addEventListener" : "removeEventListener"]("resize", this.onViewport);
  vv[on ? "addEventListener" : "removeEventListener"]("scroll", this.onViewport);
  if (on) this.onViewport();
};

CodModal.prototype.onKeydown = function (e) {
  if (e.key === "Escape") {
    e.preventDefault();
    this.close();
    return;
  }
  if (e.key !== "Tab") return;
  // Keep focus inside the dialog.
  var focusable = Array.prototype.filter.call(
    this.els.dialog.querySelectorAll("button, input, select, a[href], [tabindex]:not([tabindex='-1'])"),
    function (el) { return !el.disabled && el.offsetParent !== null; },
  );
  if (!focusable.length) return;
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
