import { global } from "../global.js";

var REQUEST_TIMEOUT_MS = 20000;

/** POST/GET JSON through the app proxy; resolves to an outcome, never rejects. */
export function call(base, path, body) {
  var controller = typeof AbortController === "function" ? new AbortController() : null;
  var timer = setTimeout(function () { if (controller) controller.abort(); }, REQUEST_TIMEOUT_MS);
  var init = { method: body ? "POST" : "GET", headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (controller) init.signal = controller.signal;
  if (body) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  return global
    .fetch(base + path, init)
    .then(function (res) {
      return res.text().then(function (text) {
        var parsed = null;
        try { parsed = text ? JSON.parse(text) : null; } catch { parsed = null; }
        return { status: res.status, body: parsed };
      });
    })
    .catch(function () { return { status: 0, body: null }; })
    .then(function (r) {
      clearTimeout(timer);
      return r;
    });
}
