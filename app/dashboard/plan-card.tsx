import { ScrollableDataTable } from "~/ui/scrollable-table";
import { Badge, BlockStack, Box, Button, Card, InlineStack, ProgressBar, Text } from "@shopify/polaris";
import type { PlanBill } from "./home.server";

const int = (n: number) => n.toLocaleString("en-US");
const usd = (n: number) => `$${n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/**
 * Home's plan card: the plan's use this month against its allowance, and what the merchant pays for it
 * (the plan's price; usage charges when the shop has them). Nothing here is the app's own cost.
 */
export function PlanCard({ bill }: { bill: PlanBill }) {
  const { plan, used, allowance, since, usageCharges } = bill;
  if (!plan) {
    return (
      <Card>
        <BlockStack gap="200">
          <InlineStack gap="200" blockAlign="center">
            <Text as="h2" variant="headingMd">
              Your plan
            </Text>
            <Badge tone="attention">None yet</Badge>
          </InlineStack>
          <Text as="p">The storefront sends no codes until you choose a plan. Free includes 50 verifications a month.</Text>
          <Box>
            <Button url="/app/plans">See the plans</Button>
          </Box>
        </BlockStack>
      </Card>
    );
  }
  const percent = allowance ? Math.min(100, Math.round((used / allowance) * 100)) : 0;
  const usage = usageCharges ? `${usd(usageCharges.amount)} of your ${usd(usageCharges.cap)} cap` : "None";
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            Your plan: {plan.label}
          </Text>
          <Button url="/app/plans" variant="plain">
            Change plan
          </Button>
        </InlineStack>
        <BlockStack gap="100">
          <Text as="p">
            <Text as="span" fontWeight="semibold">
              {int(used)} of {int(allowance)}
            </Text>{" "}
            verifications used this month (since {since}, UTC)
          </Text>
          <ProgressBar progress={percent} tone={percent >= 100 ? "critical" : "primary"} size="small" ariaLabelledBy="plan-usage-label" />
          <span id="plan-usage-label" hidden>
            Verifications used this month: {percent}%
          </span>
        </BlockStack>
        <ScrollableDataTable label="Plan usage and charges"
          columnContentTypes={["text", "numeric"]}
          headings={["What you pay", "Amount (USD)"]}
          rows={[
            [`${plan.label} plan, every 30 days`, plan.price ? usd(plan.price) : "Free"],
            ["Usage charges this month", usage],
          ]}
        />
        <Text as="p" tone="subdued">
          Billed by Shopify on your Shopify invoice. The text messages are included in the plan: there is no per-message fee.
        </Text>
      </BlockStack>
    </Card>
  );
}
