import { Card, Checkbox, FormLayout, Layout, Select, TextField } from "@shopify/polaris";
import { SETTINGS_LIMITS as L } from "~/core/settings/limits";
import type { SettingsFormKit } from "./use-settings-form";

/** The "Address correction" card. */
export function AddressCorrectionCard({ form }: { form: SettingsFormKit }) {
  const { number, checkbox, select } = form;
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
          <Select
            {...select("digipinTarget")}
            options={[
              { label: "The order's metafields (cod_verify.digipin and cod_verify.digipin_map)", value: "metafield" },
              { label: "A line of the order's note, with a map link", value: "note" },
              { label: "The shipping address's second line", value: "address2" },
            ]}
            helpText="India: a shopper may share where they stand, as a DIGIPIN (India Post's code for a 4 × 4 m spot). Shipping apps read the metafields; the second line is printed on most labels (after dispatch the note stands in for it). Default: the metafields."
          />
        </FormLayout>
      </Card>
    </Layout.AnnotatedSection>
  );
}
