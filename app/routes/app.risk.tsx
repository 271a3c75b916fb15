import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { ScrollableDataTable } from "~/ui/scrollable-table";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { BlockStack, Button, Card, FormLayout, Layout, List, Select, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { AdminPage, useNotice } from "~/admin/app-bridge";
import { authenticate } from "~/core/shopify/app.server";
import { SETTINGS } from "~/core/settings/registry";
import { adminShop, updateShop } from "~/core/settings/shop.server";
import { riskFigures, type RiskFigures } from "~/risk/figures.server";
import { parseRiskSettings, riskSettingsFormValues, type RiskSettingsErrors, type RiskSettingsValues } from "~/risk/risk-settings";

export const meta: MetaFunction = () => [{ title: "Risk · COD Verify" }];

/** The COD risk rules and bands (docs/risk.md): the merchant's rules decide before the score. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const shop = await adminShop(session.shop);
  return { values: riskSettingsFormValues(shop), currency: shop.currency, figures: await riskFigures(shop), failureCost: shop.codFailureCost };
}

type ActionData = { status: "invalid" | "saved"; errors: RiskSettingsErrors; values: RiskSettingsValues };

export async function action({ request }: ActionFunctionArgs) {
  const { session } = await authenticate.admin(request);
  await adminShop(session.shop);
  const result = parseRiskSettings(await request.formData());
  if (!result.ok) return data<ActionData>({ status: "invalid", errors: result.errors, values: result.values }, { status: 422 });
  // Only the risk columns: parseRiskSettings yields nothing else.
  const saved = await updateShop(session.shop, result.data);
  return { status: "saved", errors: {}, values: riskSettingsFormValues(saved) } satisfies ActionData;
}

const percent = (x: number) => `${(100 * x).toFixed(1)}%`;

function wouldHaveText(w: RiskFigures["wouldHave"], currency: string | null): string {
  const money = (n: number) => `${Math.round(n).toLocaleString("en")}${currency ? ` ${currency}` : ""}`;
  const parts = [
    `Over the last 30 days, as set now, these actions would have refused cash on delivery to ${w.refused} of ${w.orders} COD orders, priced ${w.priced} (deposits of ${money(w.deposits)} asked) and sent ${w.confirmed} to confirmation`,
    `${w.failuresCaught} of the ${w.failuresLearnt} failures learnt were among the orders refused or priced`,
  ];
  if (w.net !== null) parts.push(`net ${money(w.net)} (failed parcels avoided less the margin of good orders lost, by the assumptions of npm run risk:replay)`);
  return `${parts.join("; ")}.`;
}

export default function Risk() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<ActionData>();
  const [values, setValues] = useState(result?.values ?? loaded.values);
  const errors = result?.errors ?? {};
  const { figures } = loaded;
  const cell = (n: number | null) => (n === null ? "—" : String(n));
  const notice = useNotice(result?.status === "saved" ? { message: "Risk rules saved" } : result ? { message: "Not saved: check the fields marked", error: true } : null, result);
  const money = loaded.currency ? ` (${loaded.currency})` : "";
  // Label and help from the settings registry (app/core/settings/registry.ts), an amount's with the shop's currency.
  const field = (name: keyof RiskSettingsValues) => ({
    label: SETTINGS[name].input === "amount" ? `${SETTINGS[name].label}${money}` : SETTINGS[name].label,
    helpText: SETTINGS[name].help,
    name,
    value: values[name],
    error: errors[name],
    autoComplete: "off",
    onChange: (v: string) => setValues((old) => ({ ...old, [name]: v })),
  });
  return (
    <AdminPage title="Risk">
      <Form method="post">
        <Layout>
          {notice && <Layout.Section>{notice}</Layout.Section>}
          <Layout.AnnotatedSection
            title="Bands"
            description="Every COD shopper gets a score from 0 to 100 with its reasons. From the medium score the code is asked; from the high score cash on delivery is not offered."
          >
            <Card>
              <FormLayout>
                <FormLayout.Group>
                  <TextField type="number" {...field("riskMediumThreshold")} />
                  <TextField type="number" {...field("riskHighThreshold")} />
                </FormLayout.Group>
              </FormLayout>
            </Card>
          </Layout.AnnotatedSection>
          <Layout.AnnotatedSection
            title={`Last ${figures.days} days`}
            description="Low: codes saved for verified returning customers on their own device. High: cash on delivery not offered or refused, and COD orders that still came in high (tagged cod-risk:high, HIGH in Shopify's risk panel) for you to hold."
          >
            <Card>
              <BlockStack gap="300">
                <ScrollableDataTable label={`Risk bands, last ${figures.days} days`}
                  columnContentTypes={["text", "numeric", "numeric", "numeric", "numeric"]}
                  headings={["Band", "COD orders", "Codes saved", "COD refused", "Orders held"]}
                  rows={figures.bands.map((b) => [b.band[0].toUpperCase() + b.band.slice(1), String(b.orders), cell(b.codesSaved), cell(b.codRefused), cell(b.ordersHeld)])}
                />
                <Text as="h3" variant="headingSm">
                  Top reasons
                </Text>
                {figures.topReasons.length ? (
                  <List type="number">
                    {figures.topReasons.map((r) => (
                      <List.Item key={r.code}>
                        {r.label}: {r.count}
                      </List.Item>
                    ))}
                  </List>
                ) : (
                  <Text as="p" tone="subdued">
                    No COD order or refusal had a reason yet.
                  </Text>
                )}
              </BlockStack>
            </Card>
          </Layout.AnnotatedSection>
          <Layout.AnnotatedSection
            title="What each band does"
            description="Refuse: cash on delivery is not offered. Price: cash on delivery with a deposit paid at checkout, the order's expected loss (its chance of failing times your cost of a failed parcel, set in Settings), rounded up to a whole unit and kept within your bounds. Confirm: cash on delivery, and the order is confirmed by the shopper after purchase. Nothing: as a low shopper."
          >
            <Card>
              <FormLayout>
                <FormLayout.Group>
                  <Select options={[...SETTINGS.riskMediumAction.options]} {...field("riskMediumAction")} />
                  <Select options={[...SETTINGS.riskHighAction.options]} {...field("riskHighAction")} />
                </FormLayout.Group>
                <FormLayout.Group>
                  <TextField {...field("riskDepositMin")} />
                  <TextField {...field("riskDepositMax")} />
                </FormLayout.Group>
                {loaded.failureCost == null && (values.riskMediumAction === "price" || values.riskHighAction === "price") && (
                  <Text as="p" tone="caution">
                    Set the cost of a failed parcel in Settings: until then a band set to price refuses cash on delivery.
                  </Text>
                )}
                <Text as="p">{wouldHaveText(figures.wouldHave, loaded.currency)}</Text>
              </FormLayout>
            </Card>
          </Layout.AnnotatedSection>
          <Layout.AnnotatedSection
            title="Chance of failing by score"
            description="Your learnt COD outcomes by score, and the chance of failing the app reads for each: your own rate, drawn toward the app's starting estimate while a score has few orders. Recounted within the hour as outcomes arrive."
          >
            <Card>
              <ScrollableDataTable label="Chance of failing by score"
                columnContentTypes={["text", "numeric", "numeric", "numeric"]}
                headings={["Score", "Learnt orders", "Failed (observed)", "Chance read (predicted)"]}
                rows={figures.calibration.map((b) => [`${b.from}–${b.to}`, String(b.orders), b.observed === null ? "—" : percent(b.observed), percent(b.predicted)])}
              />
            </Card>
          </Layout.AnnotatedSection>
          <Layout.AnnotatedSection title="Rules" description="Checked before the score: a shopper a rule matches is not offered cash on delivery, whatever the score.">
            <Card>
              <FormLayout>
                <TextField multiline={4} {...field("riskDeniedPostalCodes")} />
                <TextField multiline={4} {...field("riskPrepaidPhones")} />
                <TextField multiline={3} {...field("riskPrepaidSources")} />
                <TextField {...field("riskCodValueCap")} />
              </FormLayout>
            </Card>
          </Layout.AnnotatedSection>
          <Layout.AnnotatedSection
            title="Limits in 24 hours"
            description="Also checked before the score: past a limit, cash on delivery is not offered to that phone or network for the rest of the 24 hours. Empty: no limit."
          >
            <Card>
              <FormLayout>
                <FormLayout.Group>
                  <TextField type="number" {...field("riskPhoneCodeLimit")} />
                  <TextField type="number" {...field("riskIpAttemptLimit")} />
                  <TextField type="number" {...field("riskPhoneOrderLimit")} />
                  <TextField type="number" {...field("riskIpOrderLimit")} />
                </FormLayout.Group>
              </FormLayout>
            </Card>
          </Layout.AnnotatedSection>
          <Layout.AnnotatedSection
            title="Failed orders"
            description="Cancelled COD orders, orders refunded in whole, orders the carrier reports as failed and orders carrying one of these tags (yours or your shipping app's) count as failed for their phone and postal code. Removing the tag again undoes it."
          >
            <Card>
              <TextField multiline={3} {...field("riskFailureTags")} />
            </Card>
          </Layout.AnnotatedSection>
          <Layout.Section>
            <BlockStack gap="200">
              <Text as="p" tone="subdued">
                The checkout hides cash on delivery for a high-risk shopper even when the shopper skips the verification window.
              </Text>
              <div>
                <Button submit variant="primary">
                  Save
                </Button>
              </div>
            </BlockStack>
          </Layout.Section>
        </Layout>
      </Form>
    </AdminPage>
  );
}
