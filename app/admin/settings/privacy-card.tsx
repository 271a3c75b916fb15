import { Card, FormLayout, Layout, TextField } from "@shopify/polaris";
import { SETTINGS_LIMITS as L } from "~/core/settings/limits";
import type { SettingsFormKit } from "./use-settings-form";

/** The "Privacy" card. */
export function PrivacyCard({ form }: { form: SettingsFormKit }) {
  const { number } = form;
  return (
    <Layout.AnnotatedSection id="privacy"
      title="Privacy"
      description="What the app keeps about shoppers is deleted when it is no longer needed. Codes and verifications go on their own schedule; you choose how long the records below are kept."
    >
      <Card>
        <FormLayout>
          <TextField
            {...number("recordRetentionDays", "days")}
            helpText={`Texts sent, address corrections, confirmations and the Orders page's records older than this are deleted. From ${L.recordRetentionDays.min} to ${L.recordRetentionDays.max}. Default: 365.`}
          />
        </FormLayout>
      </Card>
    </Layout.AnnotatedSection>
  );
}
