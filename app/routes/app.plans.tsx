import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, InlineGrid, InlineStack, Layout, ProgressBar, Text } from "@shopify/polaris";
import { AdminPage, useNotice } from "~/admin/app-bridge";
import { z } from "zod";
import { adminStandIn } from "#admin-access";
import { authenticate } from "~/core/shopify/app.server";
import { approvalReturnUrl, choosePlanFor, loadPlans, planApprovedBy, type ChoosePlanOutcome, type PlanChangePreview } from "~/billing/plans.server";
import { usePlanApprovedNotice } from "~/admin/plan-approved";
import { verificationNotice } from "~/enforcement/admin-notice.server";
import { PLANS, type Plan } from "~/shared/plans";
import { useEffect, useRef } from "react";

export const meta: MetaFunction = () => [{ title: "Plans · COD Verify" }];

/** /app/plans: the current plan, this month's verifications against its allowance, and every plan. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { session, billing } = await authenticate.admin(request);
  const url = new URL(request.url);
  const chargeId = url.searchParams.get("charge_id");
  const plans = await loadPlans(session.shop, billing, chargeId !== null, url.searchParams.get("change"));
  // The layout's banner was read beside this loader, before an approved charge was recorded: this
  // page's banner is read after it (app/admin/verification-banner.tsx takes the page's when there is one).
  return { ...plans, chargeId, approved: await planApprovedBy(session.shop, chargeId), verificationNotice: await verificationNotice(session.shop) };
}

const REAUTHORIZE_HEADER = "X-Shopify-API-Request-Failure-Reauthorize-Url";
const choice = z.object({ plan: z.string().min(1).max(20) });

export async function action({ request }: ActionFunctionArgs) {
  const { session, billing } = await authenticate.admin(request);
  const parsed = choice.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data<ChoosePlanOutcome>({ ok: false, code: "unknown_plan" }, { status: 400 });
  try {
    const outcome = await choosePlanFor(session.shop, billing, parsed.data.plan, approvalReturnUrl(session.shop, adminStandIn()));
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
  const { usage, subscriptionStatus, test, change, approved, chargeId } = useLoaderData<typeof loader>();
  const approvedNotice = usePlanApprovedNotice(approved, chargeId);
  const result = useActionData<ChoosePlanOutcome>();
  const busy = useNavigation().state !== "idle";
  const current = usage.plan;
  const notice = useNotice(result && { message: result.ok ? `You are on the ${result.plan.label} plan.` : REFUSALS[result.code], error: !result.ok }, result);
  const percent = usage.allowance ? Math.min(100, Math.round((usage.used / usage.allowance) * 100)) : 0;
  return (
    <AdminPage title="Plans">
      <Layout>
        {notice && <Layout.Section>{notice}</Layout.Section>}
        {approvedNotice && !result && <Layout.Section>{approvedNotice}</Layout.Section>}
        {change && (
          <Layout.Section>
            <PlanChangeConfirmation change={change} busy={busy} />
          </Layout.Section>
        )}
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
              const label = isCurrent ? "Current plan" : changeLabel(plan, current);
              return (
                // A card of the plan's own (a Box as Polaris' Card draws one): the grid stretches each to the row's
                // height, so the button can sit at the bottom, level with the other plans' whatever their text.
                <Box key={plan.id} as="section" background="bg-surface" borderRadius="300" shadow="100" padding="400">
                  <div className="plan-card">
                    <BlockStack gap="300">
                      <Text as="h3" variant="headingMd">
                        {plan.label}
                      </Text>
                      <Text as="p" variant="headingLg">
                        {plan.price ? `${usd(plan.price)} / 30 days` : "$0"}
                      </Text>
                      <Text as="p">{plan.monthlyVerifications.toLocaleString("en-US")} verifications a month</Text>
                      <Text as="p" tone="subdued">
                        {plan.overagePrice > 0
                          ? `Past that, if you turn it on in Settings: ${usd(plan.overagePrice)} a verification, up to ${usd(plan.usageCap)} a month`
                          : "Past that, verification pauses until next month: Free has no usage charges"}
                      </Text>
                    </BlockStack>
                    <Box>
                      {/* A change is confirmed first (PlanChangeConfirmation): the button only opens that step. */}
                      <Button
                        url={isCurrent ? undefined : `/app/plans?change=${plan.id}`}
                        disabled={isCurrent || busy}
                        variant={isCurrent ? "secondary" : "primary"}
                        accessibilityLabel={`${label}: ${plan.label} plan`}
                      >
                        {label}
                      </Button>
                    </Box>
                  </div>
                </Box>
              );
            })}
          </InlineGrid>
        </Layout.Section>
        <Layout.Section>
          <Text as="p" tone="subdued">
            Prices in USD, billed by Shopify every 30 days on your Shopify invoice. The price is the whole charge: the text messages
            are included and there is no per-message fee. Usage charges past the allowance apply only if you turn them on, up to
            the cap you approve with the plan. A verification is a code a shopper confirmed; codes sent but not
            confirmed do not count. Choosing Free cancels a paid plan at once (Shopify prorates it).
            {test ? " Charges on this server are test charges: no money moves." : ""}
          </Text>
        </Layout.Section>
      </Layout>
    </AdminPage>
  );
}

const int = (n: number) => n.toLocaleString("en-US");

/** The words of a change, on the plan's button and on the confirmation alike. */
function changeLabel(plan: Plan, current: Plan | null): string {
  return !current || plan.price > current.price ? `Choose ${plan.label}` : `Switch to ${plan.label}`;
}

/** The step between a plan button and the change: this month's use against the new allowance, and what happens past it. */
function PlanChangeConfirmation({ change, busy }: { change: PlanChangePreview; busy: boolean }) {
  const { plan, from, used } = change;
  const heading = useRef<HTMLDivElement>(null);
  // The step appears above the plans: move the reader there.
  useEffect(() => heading.current?.focus(), [plan.id]);
  const whilePaused = change.keepCodHiddenWhenPaused
    ? "checkout keeps cash on delivery hidden (your setting), so nobody can pay on delivery"
    : "shoppers get no code and checkout offers cash on delivery to everyone, unverified";
  const action = changeLabel(plan, from);
  return (
    <section aria-labelledby="plan-change-heading">
      <Card>
        <BlockStack gap="300">
          <div ref={heading} tabIndex={-1}>
            <Text as="h2" variant="headingMd" id="plan-change-heading">
              {action}?
            </Text>
          </div>
          <Text as="p">
            This month: {int(used)} verifications used. {plan.label} includes {int(plan.monthlyVerifications)} a month.
          </Text>
          {change.resumesAtOnce && (
            <Banner tone="success" title="Verification resumes at once">
              Verification is paused now; with {plan.label} it resumes as soon as the plan is active{plan.price > 0 ? " (once you approve it on the next page)" : ""}, and checkout asks shoppers for a code again.
            </Banner>
          )}
          {change.pausesAtOnce ? (
            <Banner tone="warning" title={`This month's use is already past ${plan.label}'s allowance`}>
              Verification pauses as soon as you switch, until the 1st of next month (UTC): {whilePaused}.
              {change.usage && !change.usage.on
                ? ` Usage charges (${usd(change.usage.price)} a verification, up to ${usd(change.usage.cap)} a month) would keep it verifying: turn them on in Settings before you switch.`
                : ""}
            </Banner>
          ) : change.usage?.on ? (
            <Text as="p">
              Past {int(plan.monthlyVerifications)} in a month, each verification costs {usd(change.usage.price)} (usage charges are on in your settings), up to{" "}
              {usd(change.usage.cap)} a month (about {int(change.usage.extra)} more). After that, verification pauses until the 1st of the next month (UTC): {whilePaused}.
            </Text>
          ) : (
            <Text as="p">
              Past {int(plan.monthlyVerifications)} in a month, verification pauses until the 1st of the next month (UTC): {whilePaused}.
              {change.usage ? ` Usage charges (${usd(change.usage.price)} a verification, up to ${usd(change.usage.cap)} a month) would keep it running; they are off in your settings.` : ""}
            </Text>
          )}
          <Text as="p">
            {plan.price > 0
              ? `${usd(plan.price)} every 30 days on your Shopify invoice; Shopify asks you to approve it on the next page.`
              : from && from.price > 0
                ? `Your ${from.label} plan (${usd(from.price)} / 30 days) is cancelled at once; Shopify prorates it.`
                : "No charge."}
          </Text>
          <InlineStack gap="200">
            <Form method="post">
              <input type="hidden" name="plan" value={plan.id} />
              <Button submit variant="primary" tone={change.pausesAtOnce ? "critical" : undefined} disabled={busy}>
                {action}
              </Button>
            </Form>
            <Button url="/app/plans">{from ? `Keep ${from.label}` : "Not now"}</Button>
          </InlineStack>
        </BlockStack>
      </Card>
    </section>
  );
}
