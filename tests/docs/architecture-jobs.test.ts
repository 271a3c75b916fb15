import fs from "node:fs";
import path from "node:path";
import { JOB_KINDS } from "~/server-build";
import { ROOT } from "../setup/databases";

/**
 * docs/architecture.md names every kind of background job the server runs, so the list cannot drift
 * from `JOB_KINDS` silently: a kind is named whole (`order-tags`), or as a step of a family written
 * `family.*` with the step beside it (`order-confirmation.*` ... `notify`).
 */
describe("docs/architecture.md's background jobs", () => {
  it("names every kind in JOB_KINDS", () => {
    const doc = fs.readFileSync(path.join(ROOT, "docs", "architecture.md"), "utf8");
    const section = doc.slice(doc.indexOf("## Background jobs"), doc.indexOf("\n## ", doc.indexOf("## Background jobs") + 1));
    const unnamed = JOB_KINDS.map((k) => k.kind).filter((kind) => {
      if (section.includes(`\`${kind}\``)) return false;
      const dot = kind.lastIndexOf(".");
      return !(dot > 0 && section.includes(`\`${kind.slice(0, dot)}.*\``) && section.includes(`\`${kind.slice(dot + 1)}\``));
    });
    expect(unnamed).toEqual([]);
  });
});
