import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { ScrollableDataTable } from "~/ui/scrollable-table";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { BlockStack, Button, Card, FormLayout, Layout, List, Select, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { AdminPage, useNotice } from "~/admin/app-bridge";
import { authenticate } from "~/core/shopify/app.server";
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

const ACTION_OPTIONS = [
  { label: "Nothing", value: "none" },
  { label: "Confirm after purchase", value: "confirm" },
  { label: "Price: ask a deposit", value: "price" },
  { label: "Refuse cash on delivery", value: "refuse" },
];

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
  const field = (name: keyof RiskSettingsValues) => ({
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
                  <TextField label="Medium from score" type="number" {...field("riskMediumThreshold")} />
                  <TextField label="High from score" type="number" {...field("riskHighThreshold")} />
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
                  <Select label="Medium band" options={ACTION_OPTIONS} name="riskMediumAction" value={values.riskMediumAction} error={errors.riskMediumAction} onChange={(v) => setValues((old) => ({ ...old, riskMediumAction: v }))} />
                  <Select label="High band" options={ACTION_OPTIONS} name="riskHighAction" value={values.riskHighAction} error={errors.riskHighAction} onChange={(v) => setValues((old) => ({ ...old, riskHighAction: v }))} />
                </FormLayout.Group>
                <FormLayout.Group>
                  <TextField label={`Smallest deposit${loaded.currency ? ` (${loaded.currency})` : ""}`} helpText="Empty: no floor." {...field("riskDepositMin")} />
                  <TextField label={`Largest deposit${loaded.currency ? ` (${loaded.currency})` : ""}`} helpText="Empty: no ceiling." {...field("riskDepositMax")} />
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
                <TextField label="Postal codes without cash on delivery" multiline={4} helpText="One a line; end with * for every code that starts so (4000*)." {...field("riskDeniedPostalCodes")} />
                <TextField label="Phone numbers never offered cash on delivery" multiline={4} helpText="One a line, with the country code (+91 98123 45678). They can still pay online, or part now and the rest on delivery where you offer it." {...field("riskPrepaidPhones")} />
                <TextField
                  label="Traffic sources never offered cash on delivery"
                  multiline={3}
                  helpText="One a line: the utm_source of your ads' links (facebook), or a source and its medium (facebook/cpc); a site that links to you by its name (instagram.com). Shoppers who landed from it pay online. A shopper can arrive without the tag, so this steers a campaign; it does not stop fraud."
                  {...field("riskPrepaidSources")}
                />
                <TextField label={`Cash on delivery up to${loaded.currency ? ` (${loaded.currency})` : ""}`} helpText="Orders above this value are not offered cash on delivery. Empty: no cap." {...field("riskCodValueCap")} />
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
                  <TextField label="Codes per phone" type="number" helpText="Codes asked for one phone number, before the shopper proves it (anyone can ask codes for any number)." {...field("riskPhoneCodeLimit")} />
                  <TextField label="Attempts per network" type="number" helpText="Code requests and checkouts from one IP address." {...field("riskIpAttemptLimit")} />
                  <TextField label="COD orders per phone" type="number" helpText="Cash-on-delivery orders of one phone number." {...field("riskPhoneOrderLimit")} />
                  <TextField
                    label="COD orders per network"
                    type="number"
                    helpText="Cash-on-delivery orders from one IP address, counted on the order; orders without an IP (draft, POS) are not counted."
                    {...field("riskIpOrderLimit")}
                  />
                </FormLayout.Group>
              </FormLayout>
            </Card>
          </Layout.AnnotatedSection>
          <Layout.AnnotatedSection
            title="Failed orders"
            description="Cancelled COD orders, orders refunded in whole, orders the carrier reports as failed and orders carrying one of these tags (yours or your shipping app's) count as failed for their phone and postal code. Removing the tag again undoes it."
          >
            <Card>
              <TextField label="Tags that mean a COD order failed" multiline={3} helpText="One a line, any case (RTO, returned, refused)." {...field("riskFailureTags")} />
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
