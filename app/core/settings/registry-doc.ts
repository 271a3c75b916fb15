import { SECTIONS, SETTINGS, sectionFields, type SettingDeclaration } from "./registry";

/**
 * docs/configuration.md's settings reference, drawn from the registry: one table per section, one row
 * per setting. `npm run docs:settings` writes it into the doc; tests/server/configuration-doc.test.ts
 * fails when the doc and the registry differ.
 */
export const REFERENCE_START = "<!-- settings reference: generated from app/core/settings/registry.ts by `npm run docs:settings` -->";
export const REFERENCE_END = "<!-- end of the settings reference -->";

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();

function shownDefault(d: SettingDeclaration<unknown>): string {
  if (d.input === "switch") return d.default === "true" ? "on" : "off";
  if (d.default === "") return "empty";
  return `\`${d.default.replace(/\n/g, " ")}\``;
}

export function settingsReference(): string {
  const parts = [REFERENCE_START];
  for (const section of SECTIONS) {
    const fields = sectionFields(section.id);
    if (!fields.length) continue;
    parts.push("", `### ${section.title} (\`${section.page}\`)`, "", section.summary, "", "| setting | on the page | accepts | default | what it does |", "|---|---|---|---|---|");
    for (const field of fields) {
      const d: SettingDeclaration<unknown> = SETTINGS[field];
      parts.push(`| \`${field}\` | ${cell(d.label)} | ${cell(d.accepts)} | ${cell(shownDefault(d))} | ${cell(d.help)} |`);
    }
  }
  parts.push("", REFERENCE_END);
  return parts.join("\n");
}

/** The doc with its reference replaced by the registry's (what `npm run docs:settings` writes). */
export function withReference(doc: string): string {
  const start = doc.indexOf(REFERENCE_START);
  const end = doc.indexOf(REFERENCE_END);
  if (start < 0 || end < start) throw new Error("docs/configuration.md has no settings reference markers");
  return doc.slice(0, start) + settingsReference() + doc.slice(end + REFERENCE_END.length);
}
