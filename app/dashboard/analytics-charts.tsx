import { BlockStack, Button, Card, Collapsible, InlineGrid, Text } from "@shopify/polaris";
import { BarChart } from "@shopify/polaris-viz";
import { useEffect, useId, useState, type ReactNode } from "react";
import { ScrollableDataTable } from "~/ui/scrollable-table";
import type { DeliveryAnalytics } from "./delivery-analytics.server";
import type { Row } from "./delivery-analytics";

/**
 * Deliveries → Analytics at a glance (Polaris Viz, as Home draws its charts): failures by week, the worst
 * areas and products, and money lost against what a prepaid-only rule on the worst codes would save.
 * Each chart's numbers are one tap away in a table ("Show the numbers"), which is also the chart for a
 * screen reader: the drawing itself is hidden from assistive technology and out of the tab order.
 */
const COUNT_AXIS = { integersOnly: true } as const;
const TOP = 8;

function useMounted() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}

function ChartCard({ title, summary, chart, table }: { title: string; summary: string; chart: ReactNode | null; table: ReactNode }) {
  const mounted = useMounted();
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {title}
        </Text>
        <Text as="p" tone="subdued">
          {summary}
        </Text>
        {chart && (
          <div style={{ height: 220 }} aria-hidden="true" ref={(el) => el?.setAttribute("inert", "")}>
            {mounted ? chart : null}
          </div>
        )}
        <div>
          <Button variant="plain" onClick={() => setOpen((o) => !o)} ariaExpanded={open} ariaControls={id}>
            {open ? "Hide the numbers" : "Show the numbers"}
          </Button>
        </div>
        <Collapsible id={id} open={open}>
          {table}
        </Collapsible>
      </BlockStack>
    </Card>
  );
}

const decidedRate = (r: Row) => (r.delivered + r.failed ? r.failed / (r.delivered + r.failed) : null);
const pct = (r: Row) => (r.rate == null ? `too few (${r.delivered + r.failed} decided)` : `${(100 * r.rate).toFixed(1)} %`);

function WorstChart({ title, label, rows, what }: { title: string; label: string; rows: Row[]; what: string }) {
  const worst = rows.filter((r) => r.failed > 0 && r.key !== "(none)").slice(0, TOP);
  const summary = worst.length
    ? `Most failures: ${worst[0].key} (${worst[0].failed} of ${worst[0].delivered + worst[0].failed} decided).`
    : `No failed delivery by ${what} in this period.`;
  return (
    <ChartCard
      title={title}
      summary={summary}
      chart={<BarChart data={[{ name: "Failed", data: worst.map((r) => ({ key: r.key, value: r.failed })) }]} direction="horizontal" yAxisOptions={COUNT_AXIS} isAnimated={false} />}
      table={
        <ScrollableDataTable
          label={title}
          columnContentTypes={["text", "numeric", "numeric", "numeric"]}
          headings={[label, "Failed", "Delivered", "Failure rate"]}
          rows={worst.map((r) => [r.key, String(r.failed), String(r.delivered), pct(r)])}
        />
      }
    />
  );
}

export function AnalyticsCharts({ a, money }: { a: DeliveryAnalytics; money: (n: number | null) => string }) {
  const weeks = a.breakdowns.week;
  const worstWeek = weeks.reduce<Row | null>((w, r) => ((decidedRate(r) ?? -1) > (w ? (decidedRate(w) ?? -1) : -1) && r.failed > 0 ? r : w), null);
  const saved = a.whatIf?.moneySaved ?? null;
  return (
    <InlineGrid columns={{ xs: 1, md: 2 }} gap="400">
      <ChartCard
        title="Failures by week"
        summary={worstWeek ? `The week of ${worstWeek.key} had the most failures for its deliveries: ${worstWeek.failed} of ${worstWeek.delivered + worstWeek.failed}.` : "No failed delivery in this period."}
        chart={
          <BarChart
            data={[
              { name: "Delivered", data: weeks.map((r) => ({ key: r.key, value: r.delivered })) },
              { name: "Failed", data: weeks.map((r) => ({ key: r.key, value: r.failed })) },
            ]}
            yAxisOptions={COUNT_AXIS}
            isAnimated={false}
          />
        }
        table={
          <ScrollableDataTable
            label="Failures by week"
            columnContentTypes={["text", "numeric", "numeric", "numeric", "numeric"]}
            headings={["Week (from Monday)", "COD orders", "Delivered", "Failed", "Failure rate"]}
            rows={weeks.map((r) => [r.key, String(r.orders), String(r.delivered), String(r.failed), pct(r)])}
          />
        }
      />
      <ChartCard
        title="Money lost and what prepaid could save"
        summary={
          a.codFailureCost == null
            ? "Set the cost of a failed parcel in Settings to see money."
            : `${money(a.totals.lost)} lost to failed parcels; prepaid only for the worst postal codes would have saved ${money(saved ?? 0)}.`
        }
        chart={
          a.codFailureCost == null ? null : (
            <BarChart
              data={[{ name: a.currency ?? "Money", data: [{ key: "Lost", value: a.totals.lost ?? 0 }, { key: "Prepaid could save", value: saved ?? 0 }] }]}
              isAnimated={false}
            />
          )
        }
        table={
          <ScrollableDataTable
            label="Money lost and what prepaid could save"
            columnContentTypes={["text", "numeric"]}
            headings={["", "Amount"]}
            rows={[
              ["Lost to failed parcels", money(a.totals.lost)],
              ["Prepaid only for the worst postal codes could save", money(saved)],
            ]}
          />
        }
      />
      <WorstChart title="Worst areas" label="Area (postal code prefix)" rows={a.breakdowns.area} what="area" />
      <WorstChart title="Worst products" label="Product" rows={a.breakdowns.product} what="product" />
    </InlineGrid>
  );
}
