import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { ScrollableDataTable } from "~/admin/scrollable-table";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { BlockStack, Button, Card, FormLayout, Layout, List, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { AdminPage, useNotice } from "~/admin/app-bridge";
import { authenticate } from "~/core/shopify/app.server";
import { adminShop, updateShop } from "~/core/settings/shop.server";
import { riskFigures } from "~/risk/figures.server";
import { parseRiskSettings, riskSettingsFormValues, type RiskSettingsErrors, type RiskSettingsValues } from "~/risk/risk-settings";

export const meta: MetaFunction = () => [{ title: "Risk · COD Verify" }];

/** The COD risk rules and bands (docs/risk.md): the merchant's rules decide before the score. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const shop = await adminShop(session.shop);
  return { values: riskSettingsFormValues(shop), currency: shop.currency, figures: await riskFigures(shop) };
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
