import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  // cod-modal-ui.js is generated (npm run build:modal): its sources in app/storefront-modal/ are linted.
  { ignores: ["node_modules/", "build/", "public/build/", ".tools/", "prisma/generated/", "data/", ".cache/", "extensions/cod-verify/assets/cod-modal-ui.js"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "off",
    },
  },
  // The layout's import rules (docs/architecture.md): production code never reaches the test doubles;
  // nor the tools in scripts/; routes answer through one domain call and neither import each other nor the database; the shared
  // vocabulary at the bottom imports nothing of the app.
  {
    files: ["app/**/*.{ts,tsx,mjs}", "server.mjs"],
    ignores: ["app/**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ regex: "(^|/)tests/", message: "Production code never imports the tests' mocks or helpers." }, { regex: "(^|/)scripts/", message: "Tools use the app, never the reverse: move what both need under app/ (app/server holds what server.mjs and the scripts share)." }] }],
    },
  },
  {
    files: ["app/routes/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "(^|/)tests/", message: "Production code never imports the tests' mocks or helpers." }, { regex: "(^|/)scripts/", message: "Tools use the app, never the reverse: move what both need under app/ (app/server holds what server.mjs and the scripts share)." },
            { regex: "^\\./|^~/routes/", message: "A route never imports another route: move what they share into a domain or app/http." },
          ],
          paths: [{ name: "~/core/db.server", importNames: ["prisma"], message: "A route never reaches for prisma: call a domain function." }],
        },
      ],
    },
  },
  {
    files: ["app/shared/**/*.{ts,tsx}"],
    ignores: ["app/shared/**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ regex: "^~/(?!shared/)|^\\.\\./", message: "The shared vocabulary imports nothing of the app above it." }] }],
    },
  },
  {
    files: ["app/ui/**/*.{ts,tsx}"],
    ignores: ["app/ui/**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ regex: "^~/(?!shared/|ui/)|^\\.\\./", message: "The admin's shared parts draw with Polaris: they import nothing of the app but shared/." }] }],
    },
  },
  {
    // The storefront modal's sources: ES modules bundled for the browser (npm run build:modal), so no
    // Node globals: a name not imported is an error here, not a crash on the storefront.
    files: ["app/storefront-modal/**/*.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.browser, ...Object.fromEntries(Object.keys(globals.node).filter((g) => !(g in globals.browser)).map((g) => [g, "off"])) } },
    rules: { "@typescript-eslint/no-this-alias": "off" },
  },
  {
    // The storefront's classic browser scripts shipped as written (cod-modal.js).
    files: ["extensions/*/assets/**/*.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.browser } },
    rules: { "@typescript-eslint/no-this-alias": "off" },
  },
);
