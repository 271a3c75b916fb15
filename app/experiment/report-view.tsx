import { Link } from "@remix-run/react";
import { Banner, BlockStack, Card, DataTable, Layout, Text } from "@shopify/polaris";
import { BarChart } from "@shopify/polaris-viz";
import { useEffect, useState } from "react";
import { aboutMoney, dayWords, percent, pointsRange, type ArmReport, type ExperimentReport } from "./report";

/** JSON turns a rate with no orders (NaN) into null: read it back as "no rate". */
type Jsonish<T> = { [K in keyof T]: T[K] extends number ? number | null : T[K] extends object ? Jsonish<T[K]> : T[K] };

const VERDICT_TITLES: Record<ExperimentReport["reading"]["verdict"], string> = {
  collecting: "Not a result yet",
  fewer_failures: "Verification cut failed deliveries",
  no_clear_difference: "No clear difference",
  more_failures: "Verified orders failed more",
};

function useMounted() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}

/** The report page's body: the sentence, the per-arm table and the chart of failure rates (the table says the same in text). */
export function ExperimentReportView({ report: raw, sentence }: { report: Jsonish<ExperimentReport> | null; sentence: string | null }) {
  const mounted = useMounted();
  if (!raw || !sentence) {
    return (
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <Text as="p">No experiment yet. Start one on the Settings page to measure what verification saves you.</Text>
              <Link to="/app/settings/experiment">Holdout experiment settings</Link>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    );
  }
  const report = raw as unknown as ExperimentReport;
  const { holdout, verified, reading, locale } = report;
  const n = (x: number) => x.toLocaleString(locale);
  const rate = (x: number | null) => (x === null || !Number.isFinite(x) ? "–" : percent(x, locale));
  const money = (x: number | null) => (x === null ? "not priced" : aboutMoney(x, report.currency, locale));
  const arm = (a: ArmReport) => {
    const resolved = a.delivered + a.failed;
    return [
      n(a.shoppers),
      n(a.codOrders),
      n(a.delivered),
      n(a.failed),
      n(a.open),
      resolved ? `${rate(a.rate.estimate)} (${rate(a.rate.lower)}–${rate(a.rate.upper)})` : "–",
      a.codOrders ? (a.messages / a.codOrders).toLocaleString(locale, { maximumFractionDigits: 2 }) : "–",
      a.codOrders && a.messagesCost !== null ? money(a.messagesCost / a.codOrders) : a.messagesCost === null ? "not priced" : "–",
      a.shoppers ? (a.codOrders / a.shoppers).toLocaleString(locale, { maximumFractionDigits: 2 }) : "–",
    ];
  };
  const labels = ["Shoppers who reached the button", "COD orders", "Delivered", "Failed or returned", "Still open", "Failure rate (95 % interval)", "Messages per order", "Message cost per order", "Orders per shopper"];
  const columns = [arm(holdout), arm(verified)];
  const period = `${dayWords(report.days.first, locale)} – ${report.days.last ? dayWords(report.days.last, locale) : "until stopped"}`;
  const d = reading.difference;
  return (
    <Layout>
      <Layout.Section>
        <Banner tone={reading.verdict === "fewer_failures" ? "success" : reading.verdict === "collecting" ? "info" : "warning"} title={VERDICT_TITLES[reading.verdict]}>
          <p>{sentence}</p>
        </Banner>
      </Layout.Section>
      <Layout.Section>
        <Card>
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              Per group
            </Text>
            <Text as="p" tone="subdued">
              {report.running ? "Running" : "Stopped"} · {period} · {Math.round(report.holdoutShare * 100)} % held out · a result needs {n(report.horizon)} delivered or failed
              orders (planned for a {Math.round(report.drop * 100)}-point drop from {Math.round(report.baseline * 100)} %).
            </Text>
            <DataTable
              columnContentTypes={["text", "numeric", "numeric"]}
              headings={["", "Not asked to verify", "Asked to verify"]}
              rows={labels.map((label, i) => [label, columns[0][i], columns[1][i]])}
            />
            <Text as="p">
              Difference in failure rate: {Number.isFinite(d.estimate) ? `${Math.round(d.estimate * 100)} point${Math.abs(Math.round(d.estimate * 100)) === 1 ? "" : "s"}, 95 % interval ${pointsRange(d)} points` : "not known yet"}
              {reading.crossesZero ? " — the interval still includes no difference." : "."}
              {reading.ordersToHorizon > 0 && ` ${n(reading.ordersToHorizon)} more delivered or failed orders are needed${reading.daysToHorizon ? `, about ${n(reading.daysToHorizon)} days at the current pace` : ""}.`}
            </Text>
            <Text as="p">
              Money saved:{" "}
              {report.saved
                ? `${money(report.saved.estimate)} (95 % interval ${money(report.saved.lower)} to ${money(report.saved.upper)})`
                : "set the cost of a failed parcel on the Settings page to see it."}
            </Text>
          </BlockStack>
        </Card>
      </Layout.Section>
      <Layout.Section>
        <Card>
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              Failed or returned, per 100 delivered or failed COD orders
            </Text>
            <div style={{ height: 240 }} aria-hidden="true" ref={(el) => el?.setAttribute("inert", "")}>
              {mounted ? (
                <BarChart
                  data={[
                    { name: "Failure rate", data: [
                      { key: "Not asked to verify", value: Number.isFinite(holdout.rate.estimate) ? Math.round(holdout.rate.estimate * 1000) / 10 : 0 },
                      { key: "Asked to verify", value: Number.isFinite(verified.rate.estimate) ? Math.round(verified.rate.estimate * 1000) / 10 : 0 },
                    ] },
                    { name: "Upper end of the 95 % interval", data: [
                      { key: "Not asked to verify", value: Math.round(holdout.rate.upper * 1000) / 10 },
                      { key: "Asked to verify", value: Math.round(verified.rate.upper * 1000) / 10 },
                    ] },
                  ]}
                  isAnimated={false}
                />
              ) : null}
            </div>
            <Text as="p" tone="subdued">
              For each group, the first bar is the share of delivered or failed orders that failed, the second the top of its 95 % range. Orders still on their way are not counted yet.
            </Text>
          </BlockStack>
        </Card>
      </Layout.Section>
    </Layout>
  );
}
