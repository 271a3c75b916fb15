import { Card, Checkbox, FormLayout, Layout, TextField } from "@shopify/polaris";
import { SETTINGS_LIMITS as L } from "~/core/settings/limits";
import type { SettingsFormKit } from "./use-settings-form";

/** The "Address correction" card. */
export function AddressCorrectionCard({ form }: { form: SettingsFormKit }) {
  const { number, checkbox } = form;
  return (
    <Layout.AnnotatedSection id="address-correction"
      title="Address correction"
      description="A shopper whose order has a doubtful address gets a text with a link to correct it."
    >
      <Card>
        <FormLayout>
          <Checkbox
            {...checkbox("autoAddressCorrection")}
            helpText="Text the link as soon as a new order arrives with an address that looks incomplete (no house number, a wrong postal code). Default: off."
          />
          <TextField
            {...number("addressCorrectionTtlHours", "hours")}
            helpText={`How long the link works. From ${L.addressCorrectionTtlHours.min} to ${L.addressCorrectionTtlHours.max} (a week). Default: 72.`}
          />
        </FormLayout>
      </Card>
    </Layout.AnnotatedSection>
  );
}
