import { ScrollableDataTable } from "~/ui/scrollable-table";
import { BlockStack, Card, InlineGrid, InlineStack, Text } from "@shopify/polaris";
import { BarChart, DonutChart, LineChart } from "@shopify/polaris-viz";
import { useEffect, useState, type ReactNode } from "react";
import { ORDER_PAYMENT_LABELS, ORDER_PAYMENTS } from "~/shared/order-status";
import type { Dashboard } from "./dashboard.server";

/** Dashboard as the page receives it: each country with its name in the admin's language. */
export type DashboardView = Omit<Dashboard, "countries"> & { countries: { country: string; name: string; sent: number }[] };

const int = (n: number) => n.toLocaleString("en-US");
const pct = (n: number | null) => (n === null ? "–" : `${(n * 100).toFixed(1)}%`);
const ORDER_STATES = ["verified", "confirmed", "pending", "unverified", "unconfirmed"] as const;
const STATE_LABELS: Record<string, string> = {
  verified: "Verified before purchase",
  confirmed: "Confirmed after purchase",
  pending: "Waiting for confirmation",
  unverified: "Unverified",
  unconfirmed: "Not confirmed in time",
};
/** The bar chart's axis has room for a word or two; the table beside it has the full labels. */
const STATE_AXIS_LABELS: Record<string, string> = {
  verified: "Verified",
  confirmed: "Confirmed later",
  pending: "Waiting",
  unverified: "Unverified",
  unconfirmed: "Not confirmed",
};
/** Counts are whole numbers: the value axis never shows 0.5 of an order. */
const COUNT_AXIS = { integersOnly: true } as const;

/** Charts measure the page, so they draw in the browser; the table beside each says the same in text. */
function useMounted() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}

function ChartCard({ title, chart, table }: { title: string; chart: ReactNode; table: ReactNode }) {
  const mounted = useMounted();
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h3" variant="headingSm">
          {title}
        </Text>
        {/* The table below is the chart for assistive technology: the drawing is hidden from it and out of the tab order. */}
        <div style={{ height: 240 }} aria-hidden="true" ref={(el) => el?.setAttribute("inert", "")}>
          {mounted ? chart : null}
        </div>
        {table}
      </BlockStack>
    </Card>
  );
}

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Card>
      <BlockStack gap="100">
        <Text as="p" variant="bodySm" tone="subdued">
          {label}
        </Text>
        <Text as="p" variant="headingLg">
          {value}
        </Text>
        {hint ? (
          <Text as="p" variant="bodySm" tone="subdued">
            {hint}
          </Text>
        ) : null}
      </BlockStack>
    </Card>
  );
}

/** Home's last 30 days: codes, shoppers, orders (one total, split two ways), corrections, deliveries, countries. */
export function LastThirtyDays({ d }: { d: DashboardView }) {
  const payments = ORDER_PAYMENTS.map((p) => ({ payment: p, label: ORDER_PAYMENT_LABELS[p], orders: d.orders.byPayment[p] })).filter((p) => p.orders > 0);
  const codOrders = d.orders.byPayment.cod;
  const deliveryRate = d.deliveries.delivered + d.deliveries.failed ? d.deliveries.delivered / (d.deliveries.delivered + d.deliveries.failed) : null;
  return (
    <BlockStack gap="400">
      <InlineStack align="space-between" blockAlign="center">
        <Text as="h2" variant="headingMd">
          Last 30 days
        </Text>
        <Text as="span" tone="subdued">
          {d.from} to {d.to} (UTC)
        </Text>
      </InlineStack>
      <InlineGrid columns={{ xs: 2, md: 3, lg: 6 }} gap="300">
        <Figure label="Codes sent" value={int(d.totals.sent)} hint={`to ${int(d.shoppers.sent)} ${d.shoppers.sent === 1 ? "shopper" : "shoppers"}`} />
        <Figure label="Shoppers verified" value={int(d.shoppers.verified)} hint={`${int(d.totals.verified)} codes confirmed`} />
        <Figure label="Verification rate" value={pct(d.shoppers.rate)} hint="shoppers verified ÷ shoppers sent a code" />
        <Figure label="Failed attempts" value={int(d.totals.failed)} hint={`wrong ${int(d.failedBy.wrong ?? 0)} · expired ${int(d.failedBy.expired ?? 0)} · locked ${int(d.failedBy.locked ?? 0)}`} />
        <Figure label="Skipped" value={int(d.totals.skipped)} hint={`returning ${int(d.skippedBy.returning ?? 0)} · codes off ${int(d.skippedBy.disabled ?? 0)}`} />
        <Figure label="Orders" value={int(d.orders.total)} hint={`${int(codOrders)} cash on delivery`} />
      </InlineGrid>

      <ChartCard
        title="Codes per day"
        chart={
          <LineChart
            data={[
              { name: "Sent", data: d.days.map((x) => ({ key: x.day.slice(5), value: x.sent })) },
              { name: "Verified", data: d.days.map((x) => ({ key: x.day.slice(5), value: x.verified })) },
              { name: "Failed", data: d.days.map((x) => ({ key: x.day.slice(5), value: x.failed })) },
            ]}
            yAxisOptions={COUNT_AXIS}
            isAnimated={false}
          />
        }
        table={
          <details>
            <summary>Codes per day as a table</summary>
            <ScrollableDataTable label="Codes per day"
              columnContentTypes={["text", "numeric", "numeric", "numeric", "numeric"]}
              headings={["Day (UTC)", "Sent", "Verified", "Failed", "Skipped"]}
              rows={d.days.map((x) => [x.day, int(x.sent), int(x.verified), int(x.failed), int(x.skipped)])}
              totals={["", int(d.totals.sent), int(d.totals.verified), int(d.totals.failed), int(d.totals.skipped)]}
              showTotalsInFooter
            />
          </details>
        }
      />

      <InlineGrid columns={{ xs: 1, md: 2 }} gap="400">
        <ChartCard
          title={`Orders by payment (${int(d.orders.total)})`}
          chart={
            payments.length ? (
              <DonutChart data={payments.map((p) => ({ name: p.label, data: [{ key: p.payment, value: p.orders }] }))} isAnimated={false} />
            ) : (
              <Text as="p" tone="subdued">
                No orders yet.
              </Text>
            )
          }
          table={
            <ScrollableDataTable label="Orders by payment"
              columnContentTypes={["text", "numeric"]}
              headings={["Payment", "Orders"]}
              rows={ORDER_PAYMENTS.map((p) => [ORDER_PAYMENT_LABELS[p], int(d.orders.byPayment[p])])}
              totals={["", int(d.orders.total)]}
              totalsName={{ singular: "All orders", plural: "All orders" }}
              showTotalsInFooter
            />
          }
        />
        <ChartCard
          title={`Cash-on-delivery orders by state (${int(codOrders)})`}
          chart={
            <BarChart
              data={[{ name: "Orders", data: ORDER_STATES.map((k) => ({ key: STATE_AXIS_LABELS[k], value: d.orders.codByStatus[k] ?? 0 })) }]}
              yAxisOptions={COUNT_AXIS}
              xAxisOptions={{ allowLineWrap: true }}
              showLegend={false}
              isAnimated={false}
            />
          }
          table={
            <ScrollableDataTable label="Cash-on-delivery orders by state"
              columnContentTypes={["text", "numeric"]}
              headings={["State", "Orders"]}
              rows={ORDER_STATES.map((k) => [STATE_LABELS[k], int(d.orders.codByStatus[k] ?? 0)])}
              totals={["", int(codOrders)]}
              totalsName={{ singular: "Cash-on-delivery orders", plural: "Cash-on-delivery orders" }}
              showTotalsInFooter
            />
          }
        />
      </InlineGrid>

      <InlineGrid columns={{ xs: 1, md: 3 }} gap="400">
        <Card>
          <BlockStack gap="300">
            <Text as="h3" variant="headingSm">
              Codes sent by country
            </Text>
            <ScrollableDataTable label="Codes sent by country"
              columnContentTypes={["text", "numeric"]}
              headings={["Country", "Codes sent"]}
              rows={d.countries.length ? d.countries.slice(0, 10).map((c) => [c.name, int(c.sent)]) : [["No codes sent yet", "0"]]}
            />
          </BlockStack>
        </Card>
        <Card>
          <BlockStack gap="300">
            <Text as="h3" variant="headingSm">
              Address corrections
            </Text>
            <ScrollableDataTable label="Address corrections"
              columnContentTypes={["text", "numeric"]}
              headings={["", "Count"]}
              rows={[
                ["Links sent", int(d.totals.correctionsSent)],
                ["Addresses corrected", int(d.totals.correctionsCompleted)],
              ]}
            />
          </BlockStack>
        </Card>
        <Card>
          <BlockStack gap="300">
            <Text as="h3" variant="headingSm">
              Message delivery (as the provider reported it)
            </Text>
            <ScrollableDataTable label="Message delivery"
              columnContentTypes={["text", "numeric"]}
              headings={["", "Messages"]}
              rows={[
                ["Delivered", int(d.deliveries.delivered)],
                ["Failed or undelivered", int(d.deliveries.failed)],
                ["Delivery rate", pct(deliveryRate)],
              ]}
            />
          </BlockStack>
        </Card>
      </InlineGrid>
      <Card>
        <BlockStack gap="300">
          <Text as="h3" variant="headingSm">
            Messages by channel
          </Text>
          <ScrollableDataTable label="Messages by channel"
            columnContentTypes={["text", "numeric", "numeric", "numeric", "numeric", "numeric", "numeric", "numeric"]}
            headings={["Channel", "Sent", "Delivered", "Read", "Failed", "Delivery rate", "COD orders verified", "Messages per verified order"]}
            rows={d.channels.map((c) => [
              c.channel === "whatsapp" ? "WhatsApp" : "SMS",
              int(c.sent),
              int(c.delivered),
              c.channel === "whatsapp" ? int(c.read) : "–",
              int(c.failed),
              pct(c.delivered + c.failed ? c.delivered / (c.delivered + c.failed) : null),
              int(c.verifiedOrders),
              c.verifiedOrders ? (c.sent / c.verifiedOrders).toFixed(1) : "–",
            ])}
          />
          <Text as="p" variant="bodySm" tone="subdued">
            {`Messages per verified order: every message the channel sent in these 30 days (codes, resends, confirmations, links), divided by the COD orders it verified; codes sent to shoppers who never ordered raise it. A COD order counts on the channel of the code that verified it, or of the answer that confirmed it after purchase. ${int(d.verifiedWithoutMessage)} verified with no message (a returning customer on a remembered device). Orders answered on WhatsApp: ${int(d.whatsappAnswers.confirmed)} confirmed, ${int(d.whatsappAnswers.cancelled)} cancelled by the shopper.`}
          </Text>
        </BlockStack>
      </Card>
    </BlockStack>
  );
}
