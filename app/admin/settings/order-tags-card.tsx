import { Card, Checkbox, FormLayout, Layout, TextField } from "@shopify/polaris";
import { FIELD_NAMES } from "./field-names";
import type { SettingsFormKit } from "./use-settings-form";

/** The "Order tags" card. */
export function OrderTagsCard({ form }: { form: SettingsFormKit }) {
  const { values, errors, toggle, field } = form;
  return (
    <Layout.AnnotatedSection title="Order tags" description="Tags added to new orders so you can see at a glance which ones were verified and how they are paid.">
      <Card>
        <FormLayout>
          <Checkbox
            label={FIELD_NAMES.tagOrders}
            helpText="When off, orders are left untagged. Default: on."
            checked={values.tagOrders === "true"}
            onChange={toggle("tagOrders")}
            error={errors.tagOrders}
          />
          <FormLayout.Group>
            <TextField label={FIELD_NAMES.tagVerified} {...field("tagVerified")} helpText="Cash-on-delivery orders whose phone was verified. Default: cod-verified." />
            <TextField
              label={FIELD_NAMES.tagUnverified}
              {...field("tagUnverified")}
              helpText="Cash-on-delivery orders whose phone was not verified. Default: cod-unverified."
            />
          </FormLayout.Group>
          <TextField
            label={FIELD_NAMES.tagModePrefix}
            {...field("tagModePrefix")}
            helpText="Followed by cod, prepaid or partial, e.g. payment-mode:cod. Default: payment-mode:. Tags cannot contain commas."
          />
        </FormLayout>
      </Card>
    </Layout.AnnotatedSection>
  );
}
