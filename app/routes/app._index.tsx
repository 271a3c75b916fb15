import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Box,
  Button,
  Card,
  InlineStack,
  Layout,
  ProgressBar,
  Text,
  TextField,
} from "@shopify/polaris";
import { PolarisVizProvider } from "@shopify/polaris-viz";
import vizStyles from "@shopify/polaris-viz/build/esm/styles.css";
import { useState } from "react";
import { AdminPage, useNotice } from "~/admin/app-bridge";
import { homeAction, homeForm, loadHome, type HomeActionResult } from "~/dashboard/home.server";
import { LastThirtyDays } from "~/dashboard/last-30-days";
import { adminLocale } from "~/dashboard/locale";
import { PlanCard } from "~/dashboard/plan-card";
import { hasUnusualUse, UnusualUseCard } from "~/dashboard/unusual-use-card";
import { authenticate } from "~/core/shopify/app.server";

export const links = () => [{ rel: "stylesheet", href: vizStyles }];
export const meta: MetaFunction = () => [{ title: "Home · COD Verify" }];

/** Home: the onboarding checklist, the plan and what it costs, and the last 30 days of codes, orders and messages. */
/** Straight lines between days: a spline draws slopes between points that are not in the data (a ramp before a spike). */
const CHART_THEMES = { Light: { line: { hasSpline: false } } };

export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  return loadHome(session.shop, adminLocale(new URL(request.url), request.headers.get("Accept-Language")));
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

export default function Home() {
  const { bill, onboarding, dashboard: d, shopName, examplePhone, experiment, unusualUse } = useLoaderData<typeof loader>();
  const result = useActionData<HomeActionResult>();
  const busy = useNavigation().state !== "idle";
  const notice = useNotice(result && { message: result.message, error: !result.ok }, result);
  const [names, setNames] = useState(onboarding.codMethodNames.join("\n"));
  const [phone, setPhone] = useState("");
  const allDone = onboarding.done === onboarding.steps.length;

  return (
    <AdminPage title="Home">
      <PolarisVizProvider themes={CHART_THEMES}>
        <Layout>
          {notice && <Layout.Section>{notice}</Layout.Section>}
          {hasUnusualUse(unusualUse) && (
            <Layout.Section>
              <UnusualUseCard use={unusualUse} />
            </Layout.Section>
          )}
          {experiment && (
            <Layout.Section>
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    {experiment.running ? "Holdout experiment (running)" : "Holdout experiment"}
                  </Text>
                  <Text as="p">{experiment.sentence}</Text>
                  <Link to="/app/experiment">See the report</Link>
                </BlockStack>
              </Card>
            </Layout.Section>
          )}
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
                          <Form method="post">
                            <input type="hidden" name="intent" value="storefront_ready" />
                            <InlineStack gap="200">
                              <Button url={onboarding.themeEditorUrl} target="_top">
                                Open the theme editor
                              </Button>
                              <Button submit disabled={busy}>
                                My storefront already shows the button
                              </Button>
                            </InlineStack>
                          </Form>
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
                        {step.id === "enforcement" && !step.done && step.next === "turn_on" && (
                          <Form method="post">
                            <input type="hidden" name="intent" value="enforcement" />
                            <Button submit variant="primary" disabled={busy}>
                              Hide cash on delivery until verified
                            </Button>
                          </Form>
                        )}
                        {step.id === "enforcement" && !step.done && step.next === "plans" && (
                          <Box>
                            <Button url="/app/plans">See the plans</Button>
                          </Box>
                        )}
                        {step.id === "enforcement" && !step.done && step.next === "settings" && (
                          <Box>
                            <Button url="/app/settings">Turn codes on in Settings</Button>
                          </Box>
                        )}
                        {step.id === "test_code" && (
                          <Form method="post">
                            <input type="hidden" name="intent" value="test_code" />
                            <InlineStack gap="200" blockAlign="end">
                              <TextField label="Your mobile number" name="phone" type="tel" placeholder={examplePhone} autoComplete="tel" value={phone} onChange={setPhone} />
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
            <PlanCard bill={bill} />
          </Layout.Section>
          <Layout.Section>
            <LastThirtyDays d={d} />
          </Layout.Section>
        </Layout>
      </PolarisVizProvider>
    </AdminPage>
  );
}
