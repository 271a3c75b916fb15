import { Card, Layout, Select } from "@shopify/polaris";
import type { SettingsFormKit } from "./use-settings-form";

/** The "Language" card. */
export function LanguageCard({ form }: { form: SettingsFormKit }) {
  return (
    <Layout.AnnotatedSection id="language" title="Language" description="For messages and pages when the shopper's own language is not known.">
      <Card>
        <Select {...form.select("locale")} />
      </Card>
    </Layout.AnnotatedSection>
  );
}
