import { Card, FormLayout, Layout, TextField } from "@shopify/polaris";
import type { SettingsFormKit } from "./use-settings-form";

/** The "Costs" card: the failed parcel's cost, asked here only, and a message's (docs/analytics.md, docs/experiment.md). */
export function CostsCard({ form, currency }: { form: SettingsFormKit; currency: string | null }) {
  const { field } = form;
  return (
    <Layout.AnnotatedSection
      id="costs"
      title="Costs"
      description="In your store's currency. Delivery analytics counts the money lost to failed parcels with them, the holdout experiment the money verification saved."
    >
      <Card>
        <FormLayout>
          <TextField {...field("codFailureCost")} inputMode="decimal" prefix={currency ?? undefined} />
          <TextField {...field("messageCost")} inputMode="decimal" prefix={currency ?? undefined} />
        </FormLayout>
      </Card>
    </Layout.AnnotatedSection>
  );
}
