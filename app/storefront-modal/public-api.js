import { global } from "./global.js";
import { core } from "./core/index.js";

/** window.CodVerify: the pure core, and (with a document) prefetch and open for assets/cod-modal.js. */
export var api = { core: core, navigate: function (url) { global.location.assign(url); } };
