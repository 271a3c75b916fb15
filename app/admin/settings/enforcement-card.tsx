import { Banner, Card, Checkbox, FormLayout, Layout, Select, Text, TextField } from "@shopify/polaris";
import type { EnforcementState } from "~/enforcement/payment-customization.server";
import { enforcementSummary } from "./enforcement-summary";
import type { SettingsFormKit } from "./use-settings-form";

/** The "Enforcement" card: its state in Shopify's checkout, and the confirmation after purchase. */
export function EnforcementCard({ form, enforcement }: { form: SettingsFormKit; enforcement: EnforcementState }) {
  const { field, number, checkbox, select } = form;
  return (
    <Layout.AnnotatedSection id="enforcement"
      title="Enforcement"
      description="Cash on delivery only for verified phones: hidden at checkout unless verified, every order re-checked, and a confirmation by text message after purchase when neither worked."
    >
      <Card>
        <FormLayout>
          {(() => {
            const summary = enforcementSummary(enforcement);
            return (
              <Banner tone={summary.tone} title={summary.title}>
                <p>{summary.body}</p>
              </Banner>
            );
          })()}
          <Checkbox
            {...checkbox("enforceAtCheckout")}
          />
          <Checkbox
            {...checkbox("keepCodHiddenWhenPaused")}
          />
          <Select
            {...select("capFallback")}
          />
          <Checkbox
            {...checkbox("usageChargesEnabled")}
          />
          <TextField
            {...field("codMethodNames")}
            multiline={3}
          />
          <Text as="h3" variant="headingSm">
            After purchase
          </Text>
          <Text as="p" tone="subdued">
            A cash-on-delivery order that arrives without a verified phone is tagged cod-pending and the shopper gets a text with a link to confirm it with a code. Confirmed orders get your verified tag; the others become cod-unconfirmed after the time below.
          </Text>
          <Checkbox
            {...checkbox("holdUnverifiedCod")}
          />
          <TextField
            {...number("confirmDeadlineHours")}
          />
          <Checkbox
            {...checkbox("cancelUnconfirmed")}
          />
        </FormLayout>
      </Card>
    </Layout.AnnotatedSection>
  );
}
