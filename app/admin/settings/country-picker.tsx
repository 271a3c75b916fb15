import { Autocomplete, BlockStack, InlineStack, Tag } from "@shopify/polaris";
import { useEffect, useMemo, useRef, useState } from "react";
import { readCountryList, type CountryName } from "~/shared/country-names";

export type CountryOption = CountryName;

/** The tags (every part of `value` that names a country) and what is left as typed text. */
function split(value: string, countries: readonly CountryOption[]) {
  const parts = value.split(/[,;\n]+/).map((p) => p.trim()).filter(Boolean);
  const tags: string[] = [];
  const rest: string[] = [];
  for (const part of parts) {
    const read = readCountryList(part, countries);
    if (read.unknown.length) rest.push(part);
    else tags.push(...read.codes);
  }
  return { tags: [...new Set(tags)], query: rest.join(", ") };
}

/** What the form posts: the chosen codes, then the text still in the field, which the server reads too. */
const joined = (tags: string[], query: string) => [...tags, query.trim()].filter(Boolean).join(",");

/**
 * The allowed countries chosen by name (type "Ind" for India), shown as tags; the form posts the ISO
 * codes, comma-separated, as the setting stores them. Text typed and not picked ("IN, AE", "Kenya")
 * is posted as typed and read by the settings schema, which saves it or says which part names no
 * country: never dropped. Leaving the field turns every part it recognises into a tag. None: every country.
 */
export function CountryPicker(props: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  helpText: string;
  countries: CountryOption[];
}) {
  const { countries, onChange, value } = props;
  const [state, setState] = useState(() => split(value, countries));
  // The latest state, for changes made before React renders again (two tags removed in quick succession).
  const latest = useRef(state);
  const { tags, query } = state;
  // A reset from outside (Discard) shows the new value; the picker's own changes already match it.
  useEffect(() => {
    if (value !== joined(latest.current.tags, latest.current.query)) {
      latest.current = split(value, countries);
      setState(latest.current);
    }
  }, [value, countries]);
  const update = (change: (current: { tags: string[]; query: string }) => { tags: string[]; query: string }) => {
    const next = change(latest.current);
    latest.current = next;
    setState(next);
    onChange(joined(next.tags, next.query));
  };
  const names = useMemo(() => new Map(countries.map((c) => [c.value, c.label])), [countries]);
  const options = useMemo(() => {
    const q = query.trim().toLowerCase();
    const matching = q ? countries.filter((c) => c.label.toLowerCase().includes(q) || c.value.toLowerCase() === q) : countries;
    return matching.slice(0, 50);
  }, [countries, query]);
  const commitTyped = () => {
    if (!query.trim()) return;
    update((current) => {
      const read = split(current.query, countries);
      return { tags: [...new Set([...current.tags, ...read.tags])], query: read.query };
    });
  };
  return (
    <BlockStack gap="200">
      <input type="hidden" name={props.name} value={joined(tags, query)} />
      {tags.length > 0 && (
        <InlineStack gap="200">
          {tags.map((code) => (
            <Tag key={code} onRemove={() => update((current) => ({ ...current, tags: current.tags.filter((c) => c !== code) }))} accessibilityLabel={`Remove ${names.get(code) ?? code}`}>
              {names.get(code) ?? code}
            </Tag>
          ))}
        </InlineStack>
      )}
      <Autocomplete
        allowMultiple
        options={options}
        selected={tags}
        onSelect={(codes) => update(() => ({ tags: codes, query: "" }))}
        textField={
          <Autocomplete.TextField
            label={props.label}
            value={query}
            onChange={(q) => update((current) => ({ ...current, query: q }))}
            onBlur={commitTyped}
            placeholder={tags.length ? "Add a country" : "Every country"}
            autoComplete="off"
            error={props.error}
            helpText={props.helpText}
          />
        }
      />
    </BlockStack>
  );
}
