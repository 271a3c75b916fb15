import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { BlockStack, Button, Card, Layout, Link, Page, Text } from "@shopify/polaris";
import { authenticate, PLAN_PRO } from "~/shopify/app.server";
import { getShop, upsertInstalledShop } from "~/settings/shop.server";
import { env } from "~/env.server";
import { recordSubscriptionUpdate } from "~/billing/subscription.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const { session, billing } = await authenticate.admin(request);
  let shop = (await getShop(session.shop)) ?? (await upsertInstalledShop(session.shop));
  // Back from approving the plan, the webhook may not have arrived yet: record what Shopify says now.
  if (shop.subscriptionStatus !== "active") {
    const check = await billing.check({ plans: [PLAN_PRO], isTest: !env.production }).catch(() => null);
    const active = check?.appSubscriptions.find((s) => s.status === "ACTIVE");
    if (active && (await recordSubscriptionUpdate(shop.domain, { id: active.id, name: active.name, status: active.status }))) {
      shop = (await getShop(session.shop)) ?? shop;
    }
  }
  return {
    domain: shop.domain,
    subscriptionStatus: shop.subscriptionStatus,
    otpEnabled: shop.otpEnabled,
    proxyBasePath: env.proxyBasePath,
  };
}

/** Starts the subscription: Shopify shows the merchant the plan to approve. */
export async function action({ request }: ActionFunctionArgs) {
  const { billing } = await authenticate.admin(request);
  await billing.request({ plan: PLAN_PRO, isTest: !env.production, returnUrl: `${env.SHOPIFY_APP_URL}/app` });
  return null;
}

export default function Home() {
  const data = useLoaderData<typeof loader>();
  return (
    <Page title="COD Verify">
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                {data.domain}
              </Text>
              <Text as="p">Subscription: {data.subscriptionStatus}</Text>
              <Text as="p">One-time codes: {data.otpEnabled ? "on" : "off"}</Text>
              <Text as="p">Storefront API: {data.proxyBasePath}</Text>
              <Link url="/app/settings">Settings</Link>
              <Link url="/app/blocklist">Blocked phone numbers</Link>
              {data.subscriptionStatus !== "active" && (
                <Form method="post">
                  <Button submit variant="primary">
                    Start the {PLAN_PRO} plan
                  </Button>
                </Form>
              )}
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
