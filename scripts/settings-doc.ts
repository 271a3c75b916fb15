/** Writes docs/configuration.md's settings reference from the registry (app/core/settings/registry.ts). */
import fs from "node:fs";
import path from "node:path";
import { withReference } from "../app/core/settings/registry-doc";

const file = path.join(import.meta.dirname ?? process.cwd(), "..", "docs", "configuration.md");
fs.writeFileSync(file, withReference(fs.readFileSync(file, "utf8")));
console.log(`wrote the settings reference into ${path.relative(process.cwd(), file)}`);
