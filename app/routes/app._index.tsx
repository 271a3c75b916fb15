import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Box,
  Button,
  Card,
  DataTable,
  InlineGrid,
  InlineStack,
  Layout,
  Link,
  ProgressBar,
  Text,
  TextField,
} from "@shopify/polaris";
import { BarChart, DonutChart, LineChart, PolarisVizProvider } from "@shopify/polaris-viz";
import vizStyles from "@shopify/polaris-viz/build/esm/styles.css";
import { useEffect, useState, type ReactNode } from "react";
import { AdminPage, useNotice } from "~/admin/app-bridge";
import { homeAction, homeForm, loadHome, type HomeActionResult } from "~/dashboard/home.server";
import { authenticate } from "~/shopify/app.server";

export const links = () => [{ rel: "stylesheet", href: vizStyles }];
export const meta: MetaFunction = () => [{ title: "Home · COD Verify" }];

/** Home: the onboarding checklist, and the last 30 days of codes, orders and messages. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  return loadHome(session.shop);
}

export async function action({ request }: ActionFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const parsed = homeForm.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "The form could not be read.";
    return data<HomeActionResult>({ intent: null, ok: false, message }, { status: 400 });
  }
  const result = await homeAction(session.shop, parsed.data);
  return data(result, { status: result.ok ? 200 : 422 });
}

const STEP_TITLES: Record<string, string> = {
  storefront_block: "Add the COD Verify button to your product page",
  cod_names: "Confirm which payment methods are cash on delivery",
  plan: "Choose a plan",
  enforcement: "Hide cash on delivery at checkout until the phone is verified",
  test_code: "Send a test code to your own phone",
};

const int = (n: number) => n.toLocaleString("en-US");
const usd = (n: number) => `$${n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const pct = (n: number | null) => (n === null ? "–" : `${(n * 100).toFixed(1)}%`);
const ORDER_STATES = ["verified", "confirmed", "pending", "unverified", "unconfirmed"] as const;
const STATE_LABELS: Record<string, string> = {
  verified: "Verified before purchase",
  confirmed: "Confirmed after purchase",
  pending: "Waiting for confirmation",
  unverified: "Unverified",
  unconfirmed: "Not confirmed in time",
};
const MODE_LABELS: Record<string, string> = { cod: "Cash on delivery", prepaid: "Prepaid", partial: "Deposit + rest on delivery", none: "No choice recorded" };

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

export default function Home() {
  const { usage, onboarding, dashboard: d, priceText, shopName } = useLoaderData<typeof loader>();
  const result = useActionData<HomeActionResult>();
  const busy = useNavigation().state !== "idle";
  const notice = useNotice(result && { message: result.message, error: !result.ok }, result);
  const [names, setNames] = useState(onboarding.codMethodNames.join("\n"));
  const [prices, setPrices] = useState(priceText);
  const [phone, setPhone] = useState("");
  const allDone = onboarding.done === onboarding.steps.length;
  const codTotal = ORDER_STATES.reduce((s, k) => s + (d.codOrders[k] ?? 0), 0);
  const modes = Object.entries(d.ordersByMode).sort((a, b) => b[1] - a[1]);

  return (
    <AdminPage title="Home">
      <PolarisVizProvider>
        <Layout>
          {notice && <Layout.Section>{notice}</Layout.Section>}
          <Layout.Section>
            <Card>
              <BlockStack gap="400">
                <InlineStack align="space-between" blockAlign="center">
                  <Text as="h2" variant="headingMd">
                    {allDone ? `${shopName} is set up` : `Set up COD Verify for ${shopName}`}
                  </Text>
                  <Text as="span" tone="subdued">
                    {onboarding.done} of {onboarding.steps.length} done
                  </Text>
                </InlineStack>
                <ProgressBar progress={(onboarding.done / onboarding.steps.length) * 100} size="small" tone={allDone ? "success" : "primary"} ariaLabelledBy="onboarding-progress" />
                <span id="onboarding-progress" hidden>
                  Setup: {onboarding.done} of {onboarding.steps.length} steps done
                </span>
                <ol style={{ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: 16 }}>
                  {onboarding.steps.map((step) => (
                    <li key={step.id}>
                      <BlockStack gap="200">
                        <InlineStack gap="200" blockAlign="center">
                          <Badge tone={step.done ? "success" : "attention"}>{step.done ? "Done" : "To do"}</Badge>
                          <Text as="h3" variant="headingSm">
                            {STEP_TITLES[step.id]}
                          </Text>
                        </InlineStack>
                        <Text as="p" tone="subdued">
                          {step.detail}
                        </Text>
                        {step.id === "storefront_block" && !step.done && (
                          <Box>
                            <Button url={onboarding.themeEditorUrl} target="_top">
                              Open the theme editor
                            </Button>
                          </Box>
                        )}
                        {step.id === "cod_names" && !step.done && (
                          <Form method="post">
                            <input type="hidden" name="intent" value="cod_names" />
                            <BlockStack gap="200">
                              <TextField
                                label="Payment method names, one a line, exactly as checkout shows them"
                                name="names"
                                value={names}
                                onChange={setNames}
                                multiline={3}
                                autoComplete="off"
                              />
                              {onboarding.suggestedNames.length > 0 && (
                                <InlineStack gap="200" blockAlign="center">
                                  <Text as="span" tone="subdued">
                                    Used by your recent orders:
                                  </Text>
                                  {onboarding.suggestedNames.slice(0, 6).map((name) => (
                                    <Button
                                      key={name}
                                      size="slim"
                                      onClick={() => setNames((now) => (now.split("\n").includes(name) ? now : `${now.trim()}\n${name}`.trim()))}
                                      accessibilityLabel={`Add ${name}`}
                                    >
                                      {`+ ${name}`}
                                    </Button>
                                  ))}
                                </InlineStack>
                              )}
                              <Box>
                                <Button submit variant="primary" disabled={busy}>
                                  Confirm these names
                                </Button>
                              </Box>
                            </BlockStack>
                          </Form>
                        )}
                        {step.id === "plan" && !step.done && (
                          <Box>
                            <Button url="/app/plans">See the plans</Button>
                          </Box>
                        )}
                        {step.id === "enforcement" && !step.done && (
                          <Box>
                            <Button url="/app/settings">Open settings</Button>
                          </Box>
                        )}
                        {step.id === "test_code" && (
                          <Form method="post">
                            <input type="hidden" name="intent" value="test_code" />
                            <InlineStack gap="200" blockAlign="end">
                              <TextField label="Your mobile number" name="phone" type="tel" placeholder="+14155550123" autoComplete="tel" value={phone} onChange={setPhone} />
                              <Button submit disabled={busy}>
                                Send test code
                              </Button>
                            </InlineStack>
                          </Form>
                        )}
                      </BlockStack>
                    </li>
                  ))}
                </ol>
              </BlockStack>
            </Card>
          </Layout.Section>

          <Layout.Section>
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
                <Figure label="Codes sent" value={int(d.totals.sent)} />
                <Figure label="Verified" value={int(d.totals.verified)} />
                <Figure label="Verification rate" value={pct(d.totals.verificationRate)} hint="verified ÷ sent" />
                <Figure label="Failed attempts" value={int(d.totals.failed)} hint={`wrong ${int(d.failedBy.wrong ?? 0)} · expired ${int(d.failedBy.expired ?? 0)} · locked ${int(d.failedBy.locked ?? 0)}`} />
                <Figure label="Skipped" value={int(d.totals.skipped)} hint={`returning ${int(d.skippedBy.returning ?? 0)} · codes off ${int(d.skippedBy.disabled ?? 0)}`} />
                <Figure label="Estimated SMS spend" value={usd(d.estimatedSpend)} hint="estimate from your price table" />
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
                    isAnimated={false}
                  />
                }
                table={
                  <details>
                    <summary>Codes per day as a table</summary>
                    <DataTable
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
                  title={`Cash-on-delivery orders (${int(codTotal)})`}
                  chart={
                    <BarChart
                      data={[{ name: "Orders", data: ORDER_STATES.map((k) => ({ key: STATE_LABELS[k], value: d.codOrders[k] ?? 0 })) }]}
                      direction="horizontal"
                      showLegend={false}
                      isAnimated={false}
                    />
                  }
                  table={
                    <DataTable
                      columnContentTypes={["text", "numeric"]}
                      headings={["State", "Orders"]}
                      rows={ORDER_STATES.map((k) => [STATE_LABELS[k], int(d.codOrders[k] ?? 0)])}
                    />
                  }
                />
                <ChartCard
                  title="Orders by payment mode"
                  chart={
                    modes.length ? (
                      <DonutChart data={modes.map(([mode, n]) => ({ name: MODE_LABELS[mode] ?? mode, data: [{ key: mode, value: n }] }))} isAnimated={false} />
                    ) : (
                      <Text as="p" tone="subdued">
                        No orders yet.
                      </Text>
                    )
                  }
                  table={
                    <DataTable
                      columnContentTypes={["text", "numeric"]}
                      headings={["Mode", "Orders"]}
                      rows={modes.length ? modes.map(([mode, n]) => [MODE_LABELS[mode] ?? mode, int(n)]) : [["No orders yet", "0"]]}
                    />
                  }
                />
              </InlineGrid>

              <InlineGrid columns={{ xs: 1, md: 2 }} gap="400">
                <Card>
                  <BlockStack gap="300">
                    <Text as="h3" variant="headingSm">
                      Address corrections
                    </Text>
                    <DataTable
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
                    <DataTable
                      columnContentTypes={["text", "numeric"]}
                      headings={["", "Messages"]}
                      rows={[
                        ["Delivered", int(d.deliveries.delivered)],
                        ["Failed or undelivered", int(d.deliveries.failed)],
                        ["Delivery rate", pct(d.deliveries.delivered + d.deliveries.failed ? d.deliveries.delivered / (d.deliveries.delivered + d.deliveries.failed) : null)],
                      ]}
                    />
                  </BlockStack>
                </Card>
              </InlineGrid>

              <Card>
                <BlockStack gap="300">
                  <Text as="h3" variant="headingSm">
                    Top countries and estimated SMS spend
                  </Text>
                  <DataTable
                    columnContentTypes={["text", "numeric", "numeric", "numeric"]}
                    headings={["Country", "Codes sent", "Price per SMS (USD)", "Estimated cost (USD)"]}
                    rows={
                      d.countries.length
                        ? d.countries.slice(0, 10).map((c) => [c.country, int(c.sent), c.price.toFixed(4), usd(c.cost)])
                        : [["No codes sent yet", "0", "", usd(0)]]
                    }
                    totals={["", int(d.totals.sent), "", usd(d.estimatedSpend)]}
                    showTotalsInFooter
                  />
                  <Text as="p" tone="subdued">
                    An estimate: codes sent × the price per message for the destination, one segment each. Your provider&apos;s invoice
                    is the real figure; edit the prices to match it. The plan&apos;s price already includes sending.
                  </Text>
                  <details>
                    <summary>Edit the prices</summary>
                    <Form method="post">
                      <input type="hidden" name="intent" value="prices" />
                      <BlockStack gap="200">
                        <TextField
                          label='One country a line: its ISO code and the USD price of one SMS ("*" for every other country)'
                          name="prices"
                          value={prices}
                          onChange={setPrices}
                          multiline={6}
                          autoComplete="off"
                          monospaced
                        />
                        <Box>
                          <Button submit disabled={busy}>
                            Save prices
                          </Button>
                        </Box>
                      </BlockStack>
                    </Form>
                  </details>
                </BlockStack>
              </Card>

              <Text as="p" tone="subdued">
                Plan: {usage.plan ? `${usage.plan.label}, ${int(usage.used)} of ${int(usage.allowance)} verifications used this month.` : "none yet."}{" "}
                <Link url="/app/plans">Plans</Link>
              </Text>
            </BlockStack>
          </Layout.Section>
        </Layout>
      </PolarisVizProvider>
    </AdminPage>
  );
}
