import { Card, Checkbox, FormLayout, Layout, TextField } from "@shopify/polaris";
import type { SettingsFormKit } from "./use-settings-form";

/** The "Order tags" card. */
export function OrderTagsCard({ form }: { form: SettingsFormKit }) {
  const { field, checkbox } = form;
  return (
    <Layout.AnnotatedSection id="order-tags" title="Order tags" description="Tags added to new orders so you can see at a glance which ones were verified and how they are paid.">
      <Card>
        <FormLayout>
          <Checkbox {...checkbox("tagOrders")} />
          <FormLayout.Group>
            <TextField {...field("tagVerified")} />
            <TextField {...field("tagUnverified")} />
          </FormLayout.Group>
          <TextField {...field("tagModePrefix")} />
        </FormLayout>
      </Card>
    </Layout.AnnotatedSection>
  );
}
