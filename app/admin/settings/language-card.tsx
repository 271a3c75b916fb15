import { Card, Layout, Select } from "@shopify/polaris";
import { LANGUAGES } from "~/shared/locales";
import type { SettingsFormKit } from "./use-settings-form";

/** The "Language" card. */
export function LanguageCard({ form }: { form: SettingsFormKit }) {
  const { select } = form;
  return (
    <Layout.AnnotatedSection id="language" title="Language" description="For messages and pages when the shopper's own language is not known.">
      <Card>
        <Select
          {...select("locale")}
          options={LANGUAGES.map((l) => ({ label: l.label, value: l.code }))}
          helpText="The language of texts and the address form when the shopper's is not one of these. Default: your store's language, else English."
        />
      </Card>
    </Layout.AnnotatedSection>
  );
}
