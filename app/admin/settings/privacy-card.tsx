import { Card, FormLayout, Layout, TextField } from "@shopify/polaris";
import type { SettingsFormKit } from "./use-settings-form";

/** The "Privacy" card. */
export function PrivacyCard({ form }: { form: SettingsFormKit }) {
  return (
    <Layout.AnnotatedSection
      id="privacy"
      title="Privacy"
      description="What the app keeps about shoppers is deleted when it is no longer needed. Codes and verifications go on their own schedule; you choose how long the records below are kept."
    >
      <Card>
        <FormLayout>
          <TextField {...form.number("recordRetentionDays")} />
        </FormLayout>
      </Card>
    </Layout.AnnotatedSection>
  );
}
