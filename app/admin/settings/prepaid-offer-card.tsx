import { BlockStack, Card, Checkbox, FormLayout, Layout, Select, Text, TextField } from "@shopify/polaris";
import type { SettingsFormKit } from "./use-settings-form";

/** The last 30 days of offers (app/orders/prepaid-offer.server.ts prepaidOfferFigures), with why offers were not made, in the merchant's words. */
export type PrepaidOfferSummary = {
  sent: number;
  opened: number;
  paid: number;
  moved: number;
  rewards: { amount: number; currency: string | null };
  notOffered: { reason: string; count: number; why: string }[];
};

/** The "Pay now after the order" card: the offer, its reward, and what it did (docs/prepaid-offer.md). */
export function PrepaidOfferCard({ form, currency, summary }: { form: SettingsFormKit; currency: string | null; summary: PrepaidOfferSummary }) {
  const { field, select, checkbox, values } = form;
  const rate = (n: number, of: number) => (of >= 20 ? ` (${Math.round((100 * n) / of)} %)` : "");
  return (
    <Layout.AnnotatedSection id="pay-now"
      title="Pay now after the order"
      description="After a cash-on-delivery order (and its confirmation, where it has one), text the shopper a link to Shopify's own payment page for the order, on the channel they used. Paid orders are tagged cod-prepaid and their payment-mode tag becomes prepaid, so nothing is collected on delivery."
    >
      <Card>
        <FormLayout>
          <Checkbox {...checkbox("prepaidOffer")} />
          <FormLayout.Group>
            <Select {...select("prepaidOfferIncentiveType")} />
            <TextField
              {...field("prepaidOfferIncentiveValue")}
              inputMode="decimal"
              suffix={values.prepaidOfferIncentiveType === "fixed" ? (currency ?? "") : "%"}
            />
            <TextField
              {...field("prepaidOfferIncentiveCap")}
              inputMode="decimal"
              suffix={currency ?? ""}
            />
          </FormLayout.Group>
          <BlockStack gap="100">
            <Text as="h3" variant="headingSm">
              Last 30 days
            </Text>
            <Text as="p">
              {`Offers sent: ${summary.sent} · opened: ${summary.opened}${rate(summary.opened, summary.sent)} · paid: ${summary.paid}${rate(summary.paid, summary.sent)} · COD orders moved to prepaid: ${summary.moved}`}
              {summary.rewards.amount > 0 ? ` · given back: ${summary.rewards.amount.toFixed(2)} ${summary.rewards.currency ?? ""}` : ""}
            </Text>
            {summary.notOffered.map((n) => (
              <Text as="p" tone="subdued" key={n.reason}>
                {`Not offered ${n.count} time${n.count === 1 ? "" : "s"}: ${n.why}.`}
              </Text>
            ))}
          </BlockStack>
        </FormLayout>
      </Card>
    </Layout.AnnotatedSection>
  );
}
