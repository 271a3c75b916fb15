import { Card, Checkbox, FormLayout, Layout, TextField } from "@shopify/polaris";
import type { SettingsFormKit } from "./use-settings-form";

/** The "Order tags" card. */
export function OrderTagsCard({ form }: { form: SettingsFormKit }) {
  const { field, checkbox } = form;
  return (
    <Layout.AnnotatedSection id="order-tags" title="Order tags" description="Tags added to new orders so you can see at a glance which ones were verified and how they are paid.">
      <Card>
        <FormLayout>
          <Checkbox
            {...checkbox("tagOrders")}
            helpText="When off, orders are left untagged. Default: on."
          />
          <FormLayout.Group>
            <TextField {...field("tagVerified")} helpText="Cash-on-delivery orders whose phone was verified. Default: cod-verified." />
            <TextField
              {...field("tagUnverified")}
              helpText="Cash-on-delivery orders whose phone was not verified. Default: cod-unverified."
            />
          </FormLayout.Group>
          <TextField
            {...field("tagModePrefix")}
            helpText="Followed by cod, prepaid or partial, e.g. payment-mode:cod. Default: payment-mode:. Tags cannot contain commas."
          />
        </FormLayout>
      </Card>
    </Layout.AnnotatedSection>
  );
}
