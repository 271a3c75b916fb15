import { Card, Checkbox, FormLayout, Layout, TextField } from "@shopify/polaris";
import { SETTINGS_LIMITS as L } from "~/settings/limits";
import { FIELD_NAMES } from "./field-names";
import type { SettingsFormKit } from "./use-settings-form";

/** The "Address correction" card. */
export function AddressCorrectionCard({ form }: { form: SettingsFormKit }) {
  const { values, errors, toggle, number } = form;
  return (
    <Layout.AnnotatedSection
      title="Address correction"
      description="A shopper whose order has a doubtful address gets a text with a link to correct it."
    >
      <Card>
        <FormLayout>
          <Checkbox
            label={FIELD_NAMES.autoAddressCorrection}
            helpText="Text the link as soon as a new order arrives with an address that looks incomplete (no house number, a wrong postal code). Default: off."
            checked={values.autoAddressCorrection === "true"}
            onChange={toggle("autoAddressCorrection")}
            error={errors.autoAddressCorrection}
          />
          <TextField
            label={FIELD_NAMES.addressCorrectionTtlHours}
            {...number("addressCorrectionTtlHours", "hours")}
            helpText={`How long the link works. From ${L.addressCorrectionTtlHours.min} to ${L.addressCorrectionTtlHours.max} (a week). Default: 72.`}
          />
        </FormLayout>
      </Card>
    </Layout.AnnotatedSection>
  );
}
