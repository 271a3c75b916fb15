import { useState } from "react";
import type { SettingsErrors, SettingsField, SettingsFormValues } from "~/settings/settings";

/** The form's values as typed, and the props a card's fields take from them (value, onChange, error). */
export function useSettingsForm(initial: SettingsFormValues, errors: SettingsErrors) {
  const [values, setValues] = useState(initial);
  const set = (field: SettingsField) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  const toggle = (field: SettingsField) => (checked: boolean) => setValues((v) => ({ ...v, [field]: String(checked) }));
  const field = (name: SettingsField) => ({ name, value: values[name], onChange: set(name), error: errors[name], autoComplete: "off" });
  const number = (name: SettingsField, suffix?: string) => ({ ...field(name), type: "number" as const, suffix });
  return { values, setValues, errors, set, toggle, field, number };
}

/** What each card receives: the whole form's state, so a card only lays out its own fields. */
export type SettingsFormKit = ReturnType<typeof useSettingsForm>;
