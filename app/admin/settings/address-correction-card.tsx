import { Card, Checkbox, FormLayout, Layout, Select, TextField } from "@shopify/polaris";
import type { SettingsFormKit } from "./use-settings-form";

/** The "Address correction" card. */
export function AddressCorrectionCard({ form }: { form: SettingsFormKit }) {
  const { number, checkbox, select } = form;
  return (
    <Layout.AnnotatedSection id="address-correction" title="Address correction" description="A shopper whose order has a doubtful address gets a text with a link to correct it.">
      <Card>
        <FormLayout>
          <Checkbox {...checkbox("autoAddressCorrection")} />
          <TextField {...number("addressCorrectionTtlHours")} />
          <Select {...select("digipinTarget")} />
        </FormLayout>
      </Card>
    </Layout.AnnotatedSection>
  );
}
