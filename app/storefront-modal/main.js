/* COD Verify storefront modal (dependency-free), loaded by assets/cod-modal.js when the shopper
   reaches for the button (docs/storefront-modal.md). The pure half is exported as CodVerify.core and
   unit-tested by running the built asset without a document. */
"use strict";
import { global } from "./global.js";
import { api } from "./public-api.js";
import { mount } from "./ui/mount.js";

global.CodVerify = api;
if (global.document) mount();
