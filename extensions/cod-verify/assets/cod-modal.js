/* COD Verify: the part of the storefront modal that loads with the page, kept small (Shopify's
   10,000-byte limit for an app block's script). It enables the button; the modal itself
   (assets/cod-modal-ui.js, the block's data-ui-src) is fetched when the shopper reaches for the
   button (hover, focus, touch) and opened on click. Its stylesheet (assets/cod-modal.css, the block's
   data-css-src) comes with it, so no stylesheet holds up the page's first render.
   docs/storefront-modal.md */
(function (global) {
  "use strict";
  var document = global.document;
  if (!document) return;
  var loading = null;
  var styling = null;

  /** The modal's stylesheet, once; a failed load can be tried again. */
  function loadStyles(href) {
    if (!href) return Promise.resolve();
    if (!styling) {
      styling = new Promise(function (resolve, reject) {
        var link = document.createElement("link");
        link.rel = "stylesheet";
        link.href = href;
        link.onload = function () { resolve(); };
        link.onerror = function () {
          styling = null;
          link.remove();
          reject(new Error("modal stylesheet did not load"));
        };
        document.head.appendChild(link);
      });
    }
    return styling;
  }

  /** The modal's script and stylesheet; the modal opens only styled. */
  function loadModal(root) {
    return Promise.all([loadScript(root.dataset.uiSrc), loadStyles(root.dataset.cssSrc)]).then(function (r) { return r[0]; });
  }

  /** The modal's script, once; a failed load can be tried again. */
  function loadScript(src) {
    if (global.CodVerify && global.CodVerify.open) return Promise.resolve(global.CodVerify);
    if (!loading) {
      loading = new Promise(function (resolve, reject) {
        var script = document.createElement("script");
        script.src = src;
        script.async = true;
        script.onload = function () {
          if (global.CodVerify && global.CodVerify.open) resolve(global.CodVerify);
          else reject(new Error("modal script did not start"));
        };
        script.onerror = function () {
          loading = null;
          script.remove();
          reject(new Error("modal script did not load"));
        };
        document.head.appendChild(script);
      });
    }
    return loading;
  }

  /** Without the modal the shopper still buys: the store's own checkout for this product or cart. */
  function ownCheckout(root) {
    var base = String(root.dataset.root || "/").replace(/\/+$/, "");
    var variant = String(root.dataset.variantId || "").replace(/\D/g, "");
    return root.dataset.source !== "cart" && variant ? base + "/cart/" + variant + ":1" : base + "/checkout";
  }

  function bind(root) {
    var button = root.querySelector("[data-cod-open]");
    if (!button || root.codVerifyBound) return;
    root.codVerifyBound = true;
    var warm = function () {
      loadModal(root).then(function (api) { api.prefetch(root); }, function () { /* tried again on click */ });
    };
    button.addEventListener("pointerenter", warm, { once: true });
    button.addEventListener("focus", warm, { once: true });
    button.addEventListener("touchstart", warm, { once: true, passive: true });
    button.addEventListener("click", function (e) {
      e.preventDefault();
      button.setAttribute("aria-busy", "true");
      loadModal(root).then(
        function (api) { api.open(root); },
        function () {
          button.removeAttribute("aria-busy");
          global.location.assign(ownCheckout(root));
        },
      );
    });
    button.disabled = false;
  }

  /**
   * The session's first touch, kept for the order (app/shared/traffic-source.ts reads it): the landing
   * page's UTM parameters and another site's host as `ref`, once per session. A page reached from
   * another page of the store is not a landing: nothing is kept then.
   */
  function rememberTouch() {
    try {
      var store = global.sessionStorage;
      if (store.getItem("codVerifyTouch") !== null) return;
      var query = new URLSearchParams(global.location.search);
      var touch = new URLSearchParams();
      ["utm_source", "utm_medium", "utm_campaign"].forEach(function (k) {
        if (query.get(k)) touch.set(k, query.get(k).slice(0, 100));
      });
      var ref = document.referrer ? new URL(document.referrer).hostname : "";
      if (ref === global.location.hostname && !touch.toString()) return;
      if (ref && ref !== global.location.hostname) touch.set("ref", ref);
      store.setItem("codVerifyTouch", touch.toString());
    } catch { /* no storage: no source */ }
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-cod-verify]"), bind);
  }
  rememberTouch();
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
  // The theme editor re-renders sections in place.
  document.addEventListener("shopify:section:load", init);
})(window);
