import { global } from "../global.js";
import { E164 } from "../core/phone.js";

/** This browser's device token for a number (remembered after a verified code); null when none or no storage. */
export function device(phone, token) {
  try {
    if (token) global.localStorage.setItem("codv:" + phone, token);
    return global.localStorage.getItem("codv:" + phone);
  } catch { return null; }
}

/**
 * The number this browser proved (a verified code gave it a device token), kept on this device only
 * so a returning shopper need not type it again; the page shows it masked. Null when none.
 */
export function rememberedPhone(phone) {
  try {
    if (phone) global.localStorage.setItem("codv:last", phone);
    var last = global.localStorage.getItem("codv:last");
    return last && E164.test(last) && device(last) ? last : null;
  } catch { return null; }
}
