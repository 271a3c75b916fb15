import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, Layout, Link, Page, Text } from "@shopify/polaris";
import { authenticate } from "~/shopify/app.server";
import { loadPlans } from "~/billing/plans.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const { session, billing } = await authenticate.admin(request);
  return loadPlans(session.shop, billing, new URL(request.url).searchParams.has("charge_id"));
}

export default function Home() {
  const { usage } = useLoaderData<typeof loader>();
  return (
    <Page title="COD Verify">
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="p">{usage.plan ? `Plan: ${usage.plan.label}` : "No plan chosen yet"}</Text>
              <Link url="/app/plans">Plans</Link>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
