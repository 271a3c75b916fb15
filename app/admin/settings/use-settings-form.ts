import { useState } from "react";
import type { SettingsErrors, SettingsField, SettingsFormValues } from "~/core/settings/settings";
import { FIELD_NAMES } from "./field-names";

/**
 * The form's values as typed, and the props a card's fields take from them (label, name, value,
 * onChange, error), so a card says only what is particular to a field: its help, its options.
 */
export function useSettingsForm(initial: SettingsFormValues, errors: SettingsErrors) {
  const [values, setValues] = useState(initial);
  const set = (field: SettingsField) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  const toggle = (field: SettingsField) => (checked: boolean) => setValues((v) => ({ ...v, [field]: String(checked) }));
  const field = (name: SettingsField) => ({ label: FIELD_NAMES[name], name, value: values[name], onChange: set(name), error: errors[name], autoComplete: "off" });
  const number = (name: SettingsField, suffix?: string) => ({ ...field(name), type: "number" as const, suffix });
  const select = (name: SettingsField) => ({ label: FIELD_NAMES[name], name, value: values[name], onChange: set(name), error: errors[name] });
  /** A checkbox posts through a hidden input of the form ("true"/"false"), so it has no name of its own. */
  const checkbox = (name: SettingsField) => ({ label: FIELD_NAMES[name], checked: values[name] === "true", onChange: toggle(name), error: errors[name] });
  return { values, setValues, errors, field, number, select, checkbox };
}

/** What each card receives: the whole form's state, so a card only lays out its own fields. */
export type SettingsFormKit = ReturnType<typeof useSettingsForm>;
