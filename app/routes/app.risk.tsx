import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { BlockStack, Button, Card, FormLayout, Layout, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { AdminPage, useNotice } from "~/admin/app-bridge";
import { authenticate } from "~/core/shopify/app.server";
import { getShop, updateShop, upsertInstalledShop } from "~/core/settings/shop.server";
import { parseRiskSettings, riskSettingsFormValues, type RiskSettingsErrors, type RiskSettingsValues } from "~/risk/risk-settings";

export const meta: MetaFunction = () => [{ title: "Risk · COD Verify" }];

/** The COD risk rules and bands (docs/risk.md): the merchant's rules decide before the score. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const shop = (await getShop(session.shop)) ?? (await upsertInstalledShop(session.shop));
  return { values: riskSettingsFormValues(shop), currency: shop.currency };
}

type ActionData = { status: "invalid" | "saved"; errors: RiskSettingsErrors; values: RiskSettingsValues };

export async function action({ request }: ActionFunctionArgs) {
  const { session } = await authenticate.admin(request);
  if (!(await getShop(session.shop))) await upsertInstalledShop(session.shop);
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
          <Layout.AnnotatedSection title="Rules" description="Checked before the score: a shopper a rule matches is not offered cash on delivery, whatever the score.">
            <Card>
              <FormLayout>
                <TextField label="Postal codes without cash on delivery" multiline={4} helpText="One a line; end with * for every code that starts so (4000*)." {...field("riskDeniedPostalCodes")} />
                <TextField label="Phone numbers that always pay in advance" multiline={4} helpText="One a line, with the country code (+91 98123 45678)." {...field("riskPrepaidPhones")} />
                <TextField label={`Cash on delivery up to${loaded.currency ? ` (${loaded.currency})` : ""}`} helpText="Orders above this value are not offered cash on delivery. Empty: no cap." {...field("riskCodValueCap")} />
              </FormLayout>
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
