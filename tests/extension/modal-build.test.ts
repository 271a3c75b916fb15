import fs from "node:fs";
import { bundleModal, MODAL_ASSET } from "../../scripts/lib/modal-bundle.mjs";

describe("the storefront modal's asset (extensions/cod-verify/assets/cod-modal-ui.js)", () => {
  it("is exactly the build of its sources in app/storefront-modal/ (run `npm run build:modal` after changing them)", async () => {
    expect(fs.readFileSync(MODAL_ASSET, "utf8") === (await bundleModal()), "the committed asset differs from `npm run build:modal`").toBe(true);
  });

  it("is a classic script: one function run at once, no import or export left", () => {
    const text = fs.readFileSync(MODAL_ASSET, "utf8");
    expect(text).not.toMatch(/^\s*(import|export)\b/m);
    expect(() => new Function(text)).not.toThrow();
  });
});
