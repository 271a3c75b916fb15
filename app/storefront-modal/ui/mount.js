import { global } from "../global.js";
import { api } from "../public-api.js";
import { CodModal } from "./modal.js";
import { document } from "./dom.js";
import "./build.js";
import "./sheet.js";
import "./feedback.js";
import "./phone-step.js";
import "./code-step.js";
import "./mode-step.js";
import "./risk.js";

export function mount() {
  /** The modal of a block, made on first use. */
  function modalOf(root) {
    if (!root.codVerify) root.codVerify = new CodModal(root);
    return root.codVerify;
  }
  // The page's small script (cod-modal.js) calls these: prefetch when the shopper reaches for the
  // button, open on click.
  api.prefetch = function (root) { modalOf(root).loadConfig(); };
  api.open = function (root) { modalOf(root).start(); };
  // Back from checkout (bfcache): not stuck on "redirecting".
  global.addEventListener("pageshow", function (e) {
    if (!e.persisted) return;
    Array.prototype.forEach.call(document.querySelectorAll("[data-cod-verify]"), function (root) {
      if (root.codVerify) root.codVerify.close();
    });
  });
}
