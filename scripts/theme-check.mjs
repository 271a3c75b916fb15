#!/usr/bin/env node
// Shopify's theme checker (@shopify/theme-check-node) on the theme app extension, with Shopify's
// app-extension checks (extensions/cod-verify/.theme-check.yml extends theme-check:theme-app-extension,
// e.g. the 10,000-byte limit on an app block's script). Prints every offense; exits 1 on any error.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Severity, themeCheckRun } from "@shopify/theme-check-node";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const extension = path.join(root, "extensions", "cod-verify");
const { offenses } = await themeCheckRun(extension, path.join(extension, ".theme-check.yml"), () => {});
const label = { [Severity.ERROR]: "error", [Severity.WARNING]: "warning", [Severity.INFO]: "info" };
for (const o of offenses) {
  const file = path.relative(root, fileURLToPath(o.uri));
  console.log(`${label[o.severity] ?? o.severity} ${o.check} ${file}:${o.start.line + 1}: ${o.message}`);
}
const errors = offenses.filter((o) => o.severity === Severity.ERROR).length;
const warnings = offenses.length - errors;
console.log(`theme-check: ${errors} error(s), ${warnings} warning(s) or suggestion(s) in ${path.relative(root, extension)}`);
process.exit(errors ? 1 : 0);
