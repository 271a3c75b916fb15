import { Autocomplete, BlockStack, InlineStack, Tag } from "@shopify/polaris";
import { useMemo, useState } from "react";

export type CountryOption = { value: string; label: string };

/**
 * The allowed countries chosen by name (type "Ind" for India), shown as tags; the form still posts the
 * ISO codes, comma-separated, as the setting stores them. None chosen: every country.
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
  const { countries, onChange } = props;
  const [query, setQuery] = useState("");
  const selected = useMemo(() => props.value.split(/[\s,;]+/).map((c) => c.trim().toUpperCase()).filter(Boolean), [props.value]);
  const names = useMemo(() => new Map(countries.map((c) => [c.value, c.label])), [countries]);
  const options = useMemo(() => {
    const q = query.trim().toLowerCase();
    const matching = q ? countries.filter((c) => c.label.toLowerCase().includes(q) || c.value.toLowerCase() === q) : countries;
    return matching.slice(0, 50);
  }, [countries, query]);
  const choose = (codes: string[]) => onChange(codes.join(","));
  return (
    <BlockStack gap="200">
      <input type="hidden" name={props.name} value={selected.join(",")} />
      {selected.length > 0 && (
        <InlineStack gap="200">
          {selected.map((code) => (
            <Tag key={code} onRemove={() => choose(selected.filter((c) => c !== code))} accessibilityLabel={`Remove ${names.get(code) ?? code}`}>
              {names.get(code) ?? code}
            </Tag>
          ))}
        </InlineStack>
      )}
      <Autocomplete
        allowMultiple
        options={options}
        selected={selected}
        onSelect={(codes) => {
          choose(codes);
          setQuery("");
        }}
        textField={
          <Autocomplete.TextField
            label={props.label}
            value={query}
            onChange={setQuery}
            placeholder={selected.length ? "Add a country" : "Every country"}
            autoComplete="off"
            error={props.error}
            helpText={props.helpText}
          />
        }
      />
    </BlockStack>
  );
}
