import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, InlineGrid, InlineStack, Layout, ProgressBar, Text } from "@shopify/polaris";
import { AdminPage, useNotice } from "~/admin/app-bridge";
import { z } from "zod";
import { adminStandIn } from "#admin-access";
import { authenticate } from "~/shopify/app.server";
import { choosePlanFor, loadPlans, type ChoosePlanOutcome } from "~/billing/plans.server";
import { env } from "~/env.server";
import { PLANS } from "~/shared/plans";

export const meta: MetaFunction = () => [{ title: "Plans · COD Verify" }];

/** /app/plans: the current plan, this month's verifications against its allowance, and every plan. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { session, billing } = await authenticate.admin(request);
  const returning = new URL(request.url).searchParams.has("charge_id");
  return loadPlans(session.shop, billing, returning);
}

const REAUTHORIZE_HEADER = "X-Shopify-API-Request-Failure-Reauthorize-Url";
const choice = z.object({ plan: z.string().min(1).max(20) });

export async function action({ request }: ActionFunctionArgs) {
  const { session, billing } = await authenticate.admin(request);
  const parsed = choice.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data<ChoosePlanOutcome>({ ok: false, code: "unknown_plan" }, { status: 400 });
  try {
    const outcome = await choosePlanFor(session.shop, billing, parsed.data.plan, `${env.SHOPIFY_APP_URL}/app/plans?shop=${session.shop}`);
    return data(outcome, { status: outcome.ok ? 200 : outcome.code === "cancel_failed" ? 502 : 400 });
  } catch (thrown) {
    // The library sends the merchant to Shopify's approval page with a 401 that App Bridge follows. A
    // local development server has no App Bridge: there the page is reached by a plain redirect.
    const approval = thrown instanceof Response ? thrown.headers.get(REAUTHORIZE_HEADER) : null;
    if (approval && adminStandIn()) return redirect(approval);
    throw thrown;
  }
}

const REFUSALS: Record<Exclude<ChoosePlanOutcome, { ok: true }>["code"], string> = {
  unknown_plan: "That plan does not exist. Choose one of the plans below.",
  already_on_plan: "The shop is already on that plan.",
  cancel_failed: "Shopify did not cancel the paid plan. Nothing changed; try again in a moment.",
};

const usd = (amount: number) => `$${amount.toFixed(2)}`;

export default function Plans() {
  const { usage, subscriptionStatus, test } = useLoaderData<typeof loader>();
  const result = useActionData<ChoosePlanOutcome>();
  const busy = useNavigation().state !== "idle";
  const current = usage.plan;
  const notice = useNotice(result && { message: result.ok ? `You are on the ${result.plan.label} plan.` : REFUSALS[result.code], error: !result.ok }, result);
  const percent = usage.allowance ? Math.min(100, Math.round((usage.used / usage.allowance) * 100)) : 0;
  return (
    <AdminPage title="Plans">
      <Layout>
        {notice && <Layout.Section>{notice}</Layout.Section>}
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <InlineStack gap="200" blockAlign="center">
                <Text as="h2" variant="headingMd">
                  {current ? `Current plan: ${current.label}` : "No plan chosen yet"}
                </Text>
                {current ? <Badge tone="success">Active</Badge> : <Badge tone="attention">{subscriptionStatus === "none" ? "Choose a plan" : subscriptionStatus}</Badge>}
              </InlineStack>
              {current ? (
                <>
                  <Text as="p">
                    {usage.used.toLocaleString("en-US")} of {usage.allowance.toLocaleString("en-US")} verifications used this month (since{" "}
                    {usage.since}, UTC).
                  </Text>
                  <ProgressBar progress={percent} tone={percent >= 100 ? "critical" : "primary"} size="small" ariaLabelledBy="usage-label" />
                  <span id="usage-label" hidden>
                    Verifications used this month: {percent}%
                  </span>
                  {usage.used >= usage.allowance && (
                    <Banner tone="warning" title="This month's verifications are used up.">
                      The storefront stops sending codes until next month or a larger plan. Shoppers can still check out.
                    </Banner>
                  )}
                </>
              ) : (
                <Text as="p">The storefront sends no codes until a plan is chosen. Free includes 50 verifications a month.</Text>
              )}
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <InlineGrid columns={{ xs: 1, sm: 2, md: 4 }} gap="400">
            {PLANS.map((plan) => {
              const isCurrent = current?.id === plan.id;
              const label = isCurrent ? "Current plan" : !current || plan.price > current.price ? `Choose ${plan.label}` : `Switch to ${plan.label}`;
              return (
                <Card key={plan.id}>
                  <BlockStack gap="300">
                    <Text as="h3" variant="headingMd">
                      {plan.label}
                    </Text>
                    <Text as="p" variant="headingLg">
                      {plan.price ? `${usd(plan.price)} / 30 days` : "$0"}
                    </Text>
                    <Text as="p">{plan.monthlyVerifications.toLocaleString("en-US")} verifications a month</Text>
                    <Box>
                      <Form method="post">
                        <input type="hidden" name="plan" value={plan.id} />
                        <Button submit disabled={isCurrent || busy} variant={isCurrent ? "secondary" : "primary"} accessibilityLabel={`${label}: ${plan.label} plan`}>
                          {label}
                        </Button>
                      </Form>
                    </Box>
                  </BlockStack>
                </Card>
              );
            })}
          </InlineGrid>
        </Layout.Section>
        <Layout.Section>
          <Text as="p" tone="subdued">
            Prices in USD, billed by Shopify every 30 days on your Shopify invoice. The price is the whole charge: the text messages
            are included and there is no per-message fee. A verification is a code a shopper confirmed; codes sent but not
            confirmed do not count. Choosing Free cancels a paid plan at once (Shopify prorates it).
            {test ? " Charges on this server are test charges: no money moves." : ""}
          </Text>
        </Layout.Section>
      </Layout>
    </AdminPage>
  );
}
