import { global } from "../global.js";
import { unescapeHtml } from "../core/texts.js";

/** The page's document; undefined where the core is run without one (its unit tests). */
export var document = global.document;

/** h("button", { class: "x", onclick: fn }, [children]) */
export function h(tag, attrs, children) {
  var el = document.createElement(tag);
  Object.keys(attrs || {}).forEach(function (k) {
    var v = attrs[k];
    if (v == null || v === false) return;
    if (k.slice(0, 2) === "on") el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  });
  (children || []).forEach(function (c) {
    if (c != null) el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  });
  return el;
}

export function readJson(root, selector) {
  var node = root.querySelector(selector);
  try {
    return node ? JSON.parse(node.textContent) : null;
  } catch {
    return null;
  }
}

export function readStrings(root) {
  var out = {};
  var node = root.querySelector("script[data-cod-i18n]");
  try {
    var raw = JSON.parse(node ? node.textContent : "{}");
    Object.keys(raw).forEach(function (k) { out[k] = unescapeHtml(raw[k]); });
  } catch {
    /* a broken block: keys are shown, the flow still works */
  }
  return out;
}

export function flag(iso) {
  return iso.replace(/./g, function (c) { return String.fromCodePoint(127397 + c.charCodeAt(0)); });
}
