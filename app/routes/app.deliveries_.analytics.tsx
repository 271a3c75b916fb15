import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSubmit } from "@remix-run/react";
import { Banner, BlockStack, Card, InlineStack, Layout, Select, Text } from "@shopify/polaris";
import { PolarisVizProvider } from "@shopify/polaris-viz";
import vizStyles from "@shopify/polaris-viz/build/esm/styles.css";
import { AdminPage } from "~/admin/app-bridge";
import { DeliveriesTabs } from "~/admin/deliveries-tabs";
import { ScrollableDataTable } from "~/ui/scrollable-table";
import { FileDownloadButton } from "~/ui/file-download";
import { authenticate } from "~/core/shopify/app.server";
import { adminShop } from "~/core/settings/shop.server";
import { AnalyticsCharts } from "~/dashboard/analytics-charts";
import { loadDeliveryAnalytics, type DeliveryAnalytics } from "~/dashboard/delivery-analytics.server";
import { DIMENSION_LABELS, DIMENSIONS, MIN_DECIDED_FOR_RATE, PERIODS, type Dimension, type Row } from "~/dashboard/delivery-analytics";
import { periodOf } from "~/dashboard/delivery-analytics-form";

export const meta: MetaFunction = () => [{ title: "Delivery analytics · COD Verify" }];
export const links = () => [{ rel: "stylesheet", href: vizStyles }];

const CHART_THEMES = { Light: { line: { hasSpline: false } } };

/**
 * Deliveries → Analytics, /app/deliveries/analytics (/app/analytics redirects here). Where cash on delivery
 * fails (docs/analytics.md): charts first, then by postal code, area, product, payment mode, risk band,
 * traffic source and week. The cost of a failed parcel is set once, in Settings.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const shop = await adminShop(session.shop);
  const a = await loadDeliveryAnalytics(shop, periodOf(new URL(request.url), PERIODS));
  // Only what the page shows travels to the browser (a year's postal codes are thousands of rows; the CSV has
  // them all): the first SHOWN_ROWS of each breakdown, and every week for the chart.
  const sizes = Object.fromEntries(DIMENSIONS.map((d) => [d, a.breakdowns[d].length])) as Record<Dimension, number>;
  const breakdowns = Object.fromEntries(DIMENSIONS.map((d) => [d, d === "week" ? a.breakdowns[d] : a.breakdowns[d].slice(0, SHOWN_ROWS)])) as DeliveryAnalytics["breakdowns"];
  return { ...a, breakdowns, sizes };
}

/** The rows a breakdown's table shows. */
const SHOWN_ROWS = 25;

const percent = (r: Row) => (r.rate == null ? `too few (${r.delivered + r.failed} decided)` : `${(100 * r.rate).toFixed(1)} %`);

export default function DeliveryAnalytics() {
  const a = useLoaderData<typeof loader>();
  // The period applies as soon as it is chosen: the page reads `?days=` again.
  const submit = useSubmit();
  const money = (n: number | null) => (n == null ? "—" : `${n.toLocaleString("en", { maximumFractionDigits: 2 })}${a.currency ? ` ${a.currency}` : ""}`);
  const rows = (list: Row[]) => list.map((r) => [r.key, String(r.orders), String(r.delivered), String(r.failed), String(r.open), percent(r), money(r.lost)]);
  const headings = ["", "COD orders", "Delivered", "Failed", "Open", "Failure rate", "Money lost"];
  const types: ("text" | "numeric")[] = ["text", "numeric", "numeric", "numeric", "numeric", "numeric", "numeric"];
  return (
    <AdminPage title="Deliveries">
      <DeliveriesTabs />
      <PolarisVizProvider themes={CHART_THEMES}>
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <InlineStack gap="400" align="space-between" blockAlign="end">
                <Select
                  label="Period"
                  name="days"
                  value={String(a.days)}
                  options={PERIODS.map((d) => ({ label: `Last ${d} days`, value: String(d) }))}
                  onChange={(value) => submit({ days: value }, { method: "get", replace: true })}
                />
                <FileDownloadButton url={`/app/analytics/download/${a.days}`} fallbackName="cod-delivery-analytics.csv" label={`Download CSV of the last ${a.days} days`} text="Download CSV" />
              </InlineStack>
              <Text as="p">
                {`${a.totals.orders} COD orders placed in the last ${a.days} days: ${a.totals.delivered} delivered, ${a.totals.failed} failed, ${a.totals.open} still open. Failure rate: ${percent(a.totals)}. Money lost: ${money(a.totals.lost)}.`}
              </Text>
              <Text as="p" tone="subdued">
                {`A failure rate is shown from ${MIN_DECIDED_FOR_RATE} delivered or failed orders: below that, a rate says more about chance than about the place. Orders moved to prepaid after the order are not counted as COD.`}
              </Text>
              {a.truncated && <Banner tone="warning">Only the newest 50,000 COD orders of the period are counted.</Banner>}
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Text as="p" tone="subdued">
            {a.codFailureCost == null ? "Money is shown once the cost of a failed parcel is set " : `Money lost counts ${money(a.codFailureCost)} a failed parcel, the cost set `}
            <Link to="/app/settings/costs">in Settings</Link>.
          </Text>
        </Layout.Section>
        <Layout.Section>
          <AnalyticsCharts a={a} money={money} />
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Worst postal codes
              </Text>
              {a.whatIf ? (
                <Text as="p">
                  {`Prepaid only for ${a.whatIf.codes.length === 1 ? "this code" : `these ${a.whatIf.codes.length} codes`}: ${a.whatIf.failuresAvoided} failures avoided${a.whatIf.moneySaved != null ? ` (${money(a.whatIf.moneySaved)})` : ""}, ${a.whatIf.ordersAskedToPay} COD orders asked to pay first, ${a.whatIf.deliveredAskedToPay} of them delivered. Some of those shoppers would not have ordered at all. Add the codes on the Risk page (Rules).`}
                </Text>
              ) : (
                <Text as="p" tone="subdued">
                  No postal code has enough delivered or failed orders yet (5) with a failure.
                </Text>
              )}
              {a.worstPostalCodes.length > 0 && <ScrollableDataTable label="Worst postal codes" columnContentTypes={types} headings={["Postal code", ...headings.slice(1)]} rows={rows(a.worstPostalCodes)} />}
            </BlockStack>
          </Card>
        </Layout.Section>
        {DIMENSIONS.filter((d) => d !== "postalCode").map((d) => (
          <Layout.Section key={d}>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  {`By ${DIMENSION_LABELS[d].toLowerCase()}`}
                </Text>
                {a.breakdowns[d].length ? (
                  <ScrollableDataTable label={`By ${DIMENSION_LABELS[d].toLowerCase()}`} columnContentTypes={types} headings={[DIMENSION_LABELS[d], ...headings.slice(1)]} rows={rows(a.breakdowns[d].slice(0, SHOWN_ROWS))} />
                ) : (
                  <Text as="p" tone="subdued">
                    No COD orders in this period.
                  </Text>
                )}
                {a.sizes[d] > SHOWN_ROWS && (
                  <Text as="p" tone="subdued">
                    {`The first ${SHOWN_ROWS} of ${a.sizes[d]}; the CSV has them all.`}
                  </Text>
                )}
              </BlockStack>
            </Card>
          </Layout.Section>
        ))}
      </Layout>
      </PolarisVizProvider>
    </AdminPage>
  );
}
