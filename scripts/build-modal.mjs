#!/usr/bin/env node
// Bundles the storefront modal's sources (app/storefront-modal/) into the asset Shopify serves.
// tests/extension/modal-build.test.ts fails when the committed asset is not this build.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { bundleModal, MODAL_ASSET, ROOT } from "./lib/modal-bundle.mjs";

const text = await bundleModal();
fs.writeFileSync(MODAL_ASSET, text);
const bytes = Buffer.byteLength(text);
console.log(`${path.relative(ROOT, MODAL_ASSET)}: ${bytes} bytes, ${zlib.gzipSync(text).length} gzipped`);
