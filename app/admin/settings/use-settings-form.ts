import { useState } from "react";
import { SETTINGS, type SettingDeclaration } from "~/core/settings/registry";
import type { SettingsErrors, SettingsField, SettingsFormValues } from "~/core/settings/settings";

/**
 * A section's values as typed, and the props a card's fields take from them and from the registry
 * (label, help, name, value, onChange, error), so a card says only what is particular to a field.
 */
const declaration = (name: SettingsField): SettingDeclaration<unknown> => SETTINGS[name];

/** "Default: 90 days." in the field's help, from the registry (nothing for an empty default: the help says what empty means). */
function defaultWords(name: SettingsField): string {
  const d = declaration(name);
  if (d.input === "switch") return ` Default: ${d.default === "true" ? "on" : "off"}.`;
  const option = d.options?.find((o) => o.value === d.default);
  if (option) return ` Default: ${option.label}.`;
  return d.default === "" || d.input === "multiline" ? "" : ` Default: ${d.default}${d.unit ? ` ${d.unit}` : ""}.`;
}

export function useSettingsForm(initial: SettingsFormValues, errors: SettingsErrors) {
  const [values, setValues] = useState(initial);
  const set = (field: SettingsField) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  const toggle = (field: SettingsField) => (checked: boolean) => setValues((v) => ({ ...v, [field]: String(checked) }));
  const declared = (name: SettingsField) => ({ label: declaration(name).label, helpText: `${declaration(name).help}${defaultWords(name)}`, error: errors[name] });
  const field = (name: SettingsField) => ({ ...declared(name), name, value: values[name], onChange: set(name), autoComplete: "off" });
  const number = (name: SettingsField) => ({ ...field(name), type: "number" as const, suffix: declaration(name).unit });
  const select = (name: SettingsField) => ({ ...declared(name), name, value: values[name], onChange: set(name), options: [...(declaration(name).options ?? [])] });
  /** A checkbox posts through a hidden input of the form ("true"/"false"), so it has no name of its own. */
  const checkbox = (name: SettingsField) => ({ ...declared(name), checked: values[name] === "true", onChange: toggle(name) });
  return { values, setValues, errors, field, number, select, checkbox };
}

/** What each card receives: its section's form state, so a card only lays out its own fields. */
export type SettingsFormKit = ReturnType<typeof useSettingsForm>;
