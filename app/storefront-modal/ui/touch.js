import { global } from "../global.js";
import { formatTrafficSource, parseTrafficSource, TOUCH_STORAGE_KEY } from "../../shared/traffic-source";

/**
 * The session's first touch as the block script (assets/cod-modal.js) kept it when the shopper landed:
 * the cart attribute's value (`_cod_source`), read and written back in one form. Null when the block
 * script saw no landing (the shopper came from another page of the store) or storage is blocked.
 */
export function firstTouch() {
  try {
    var raw = global.sessionStorage.getItem(TOUCH_STORAGE_KEY);
    var parsed = raw === null ? null : parseTrafficSource(raw);
    return parsed ? formatTrafficSource(parsed) : null;
  } catch { return null; }
}
