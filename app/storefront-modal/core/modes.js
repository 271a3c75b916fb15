import { SOURCE_ATTRIBUTE } from "../../shared/traffic-source";
/** The ways to pay the modal offers, and the store's own checkout it falls back to. */
export var MODES = ["cod", "prepaid", "partial"];

/** The modes to offer: the shop's allowed ones, in our order; COD when the config says nothing usable. */
export function allowedModes(modes) {
  var list = Array.isArray(modes) ? MODES.filter(function (m) { return modes.indexOf(m) !== -1; }) : [];
  return list.length ? list : ["cod"];
}

export function numericVariantId(id) {
  var m = String(id == null ? "" : id).match(/(\d+)\s*$/);
  return m ? m[1] : null;
}

/** The cart attribute the checkout's payment customization reads the verification proof from. */
export var PROOF_ATTRIBUTE = "_cod_proof";

/**
 * The store's own checkout: a cart permalink /cart/<variant>:<qty>,... A permalink builds a new cart,
 * so the proof rides on it as a cart attribute (?attributes[_cod_proof]=...) as well as on the theme's
 * cart, and so does where the shopper came from (`source`, the session's first touch).
 */
export function normalCheckoutUrl(root, lines, proof, source) {
  var base = String(root || "/").replace(/\/+$/, "");
  var parts = [];
  (lines || []).forEach(function (l) {
    var id = numericVariantId(l.variantId);
    if (id) parts.push(id + ":" + Math.max(1, Math.min(999, Math.floor(Number(l.quantity) || 1))));
  });
  if (!parts.length) return base + "/checkout";
  var params = [];
  if (proof) params.push(encodeURIComponent("attributes[" + PROOF_ATTRIBUTE + "]") + "=" + encodeURIComponent(proof));
  if (source != null) params.push(encodeURIComponent("attributes[" + SOURCE_ATTRIBUTE + "]") + "=" + encodeURIComponent(source));
  return base + "/cart/" + parts.join(",") + (params.length ? "?" + params.join("&") : "");
}
