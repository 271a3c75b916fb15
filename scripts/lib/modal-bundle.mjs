// The storefront modal's one build: app/storefront-modal/ (small ES modules) -> the classic script the
// theme app extension serves (extensions/cod-verify/assets/cod-modal-ui.js). Used by
// scripts/build-modal.mjs (npm run build:modal) and by the test that the committed asset is this build.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const MODAL_SOURCE = path.join(ROOT, "app", "storefront-modal", "main.js");
export const MODAL_ASSET = path.join(ROOT, "extensions", "cod-verify", "assets", "cod-modal-ui.js");

const BANNER = "/* Built by `npm run build:modal` from app/storefront-modal/ (docs/storefront-modal.md): edit those, not this file. */";

/** The asset's text as esbuild bundles it: one IIFE, no module syntax, not minified (it is read in tests and reviews). */
export async function bundleModal() {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [path.relative(ROOT, MODAL_SOURCE)],
    bundle: true,
    format: "iife",
    platform: "browser",
    write: false,
    banner: { js: BANNER },
    logLevel: "silent",
  });
  return result.outputFiles[0].text;
}
