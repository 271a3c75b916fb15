import { Banner, Card, Checkbox, FormLayout, Layout, Text, TextField } from "@shopify/polaris";
import { SETTINGS_LIMITS as L } from "~/core/settings/limits";
import type { EnforcementState } from "~/enforcement/payment-customization.server";
import { enforcementSummary } from "./enforcement-summary";
import type { SettingsFormKit } from "./use-settings-form";

/** The "Enforcement" card: its state in Shopify's checkout, and the confirmation after purchase. */
export function EnforcementCard({ form, enforcement }: { form: SettingsFormKit; enforcement: EnforcementState }) {
  const { field, number, checkbox } = form;
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
            helpText="Shopify's checkout offers your cash-on-delivery methods only to shoppers who verified their phone (or returning verified customers). Default: on."
          />
          <Checkbox
            {...checkbox("keepCodHiddenWhenPaused")}
            helpText="Verification pauses when this month's verifications are used up, when no plan is active, or when codes are off. Off (the default): checkout then offers cash on delivery to everyone, unverified. On: checkout keeps hiding it, so nobody can pay on delivery until verification resumes."
          />
          <Checkbox
            {...checkbox("usageChargesEnabled")}
            helpText="On a paid plan: past the plan's verifications for the month, each further verification is a usage charge on your Shopify invoice (the price per verification and the monthly cap are on the Plans page; you approved the cap with the plan). At the cap, verification pauses as above. Default: off."
          />
          <TextField
            {...field("codMethodNames")}
            multiline={3}
            helpText={`The names of your cash-on-delivery payment methods exactly as checkout shows them, one a line (up to ${L.codMethodNamesMax}). Default: Cash on Delivery (COD).`}
          />
          <Text as="h3" variant="headingSm">
            After purchase
          </Text>
          <Text as="p" tone="subdued">
            A cash-on-delivery order that arrives without a verified phone is tagged cod-pending and the shopper gets a text with a link to confirm it with a code. Confirmed orders get your verified tag; the others become cod-unconfirmed after the time below.
          </Text>
          <Checkbox
            {...checkbox("holdUnverifiedCod")}
            helpText="Puts the order's fulfillment on hold until the shopper confirms, so it is not shipped by mistake. Default: off."
          />
          <TextField
            {...number("confirmDeadlineHours", "hours")}
            helpText={`How long the shopper has to confirm. From ${L.confirmDeadlineHours.min} to ${L.confirmDeadlineHours.max}. Default: 24.`}
          />
          <Checkbox
            {...checkbox("cancelUnconfirmed")}
            helpText="Cancels an order that was not confirmed in time (restocked, the shopper notified). Default: off."
          />
        </FormLayout>
      </Card>
    </Layout.AnnotatedSection>
  );
}
