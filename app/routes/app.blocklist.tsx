import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { BlockStack, Button, Card, InlineStack, Layout, Page, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { authenticate } from "~/shopify/app.server";
import { getShop, upsertInstalledShop } from "~/settings/shop.server";
import { blockPhone, listBlockedPhones, unblockPhone } from "~/otp/blocklist.server";
import { maskPhone } from "~/utils/log.server";


export const meta: MetaFunction = () => [{ title: "Blocked numbers · COD Verify" }];
/** The merchant's phone blocklist: send-otp answers 403 phone_blocked to these numbers. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const shop = (await getShop(session.shop)) ?? (await upsertInstalledShop(session.shop));
  const rows = await listBlockedPhones(shop.id);
  return { blocked: rows.map((r) => ({ phone: r.phone, reason: r.reason, createdAt: r.createdAt.toISOString() })) };
}

export async function action({ request }: ActionFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const shop = (await getShop(session.shop)) ?? (await upsertInstalledShop(session.shop));
  const form = await request.formData();
  const phone = String(form.get("phone") ?? "");
  if (form.get("intent") === "unblock") {
    await unblockPhone(shop.id, phone);
    return { error: null };
  }
  const reason = String(form.get("reason") ?? "").slice(0, 200) || null;
  const result = await blockPhone(shop.id, phone, reason);
  return { error: result.ok ? null : "Enter the number in international format: + and 10 to 15 digits." };
}

export default function Blocklist() {
  const { blocked } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [phone, setPhone] = useState("");
  const [reason, setReason] = useState("");
  return (
    <Page title="Blocked phone numbers" backAction={{ url: "/app" }}>
      <Layout>
        <Layout.Section>
          <Card>
            <Form method="post">
              <BlockStack gap="300">
                <TextField label="Phone number" name="phone" value={phone} onChange={setPhone} autoComplete="off" error={result?.error ?? undefined} />
                <TextField label="Reason (optional)" name="reason" value={reason} onChange={setReason} autoComplete="off" />
                <Button submit variant="primary">
                  Block
                </Button>
              </BlockStack>
            </Form>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              {blocked.length === 0 && <Text as="p">No blocked numbers.</Text>}
              {blocked.map((b) => (
                <Form method="post" key={b.phone}>
                  <InlineStack gap="300" blockAlign="center">
                    <Text as="span">{maskPhone(b.phone)}</Text>
                    {b.reason && <Text as="span" tone="subdued">{b.reason}</Text>}
                    <input type="hidden" name="phone" value={b.phone} />
                    <input type="hidden" name="intent" value="unblock" />
                    <Button submit>
                      Unblock
                    </Button>
                  </InlineStack>
                </Form>
              ))}
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
