import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, FormLayout, Layout, Select, Text, TextField } from "@shopify/polaris";
import { ScrollableDataTable } from "~/ui/scrollable-table";
import { useState } from "react";
import { AdminPage, useNotice } from "~/admin/app-bridge";
import { DeliveriesTabs } from "~/admin/deliveries-tabs";
import { authenticate } from "~/core/shopify/app.server";
import { SETTINGS } from "~/core/settings/registry";
import { adminShop, updateShop } from "~/core/settings/shop.server";
import { shopDateTime, shopTimeZone } from "~/shared/shop-time";
import { deliverySettingsFormValues, parseDeliverySettings, type DeliverySettingsErrors, type DeliverySettingsValues } from "~/delivery/delivery-settings";
import { listDeliveriesAtRisk } from "~/delivery/recovery.server";

export const meta: MetaFunction = () => [{ title: "Deliveries · COD Verify" }];

/** "Deliveries at risk" (docs/delivery.md): the failed attempts of COD orders and what each shopper answered; the delivery settings. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const shop = await adminShop(session.shop);
  const page = Number(new URL(request.url).searchParams.get("page") ?? "1") || 1;
  const list = await listDeliveriesAtRisk(shop.id, { page });
  return {
    values: deliverySettingsFormValues(shop),
    quiet: quietHoursText(shop),
    total: list.total,
    timeZone: shopTimeZone(shop.timezone),
    rows: list.rows.map((r) => ({
      orderName: r.orderName ?? r.orderGid.replace("gid://shopify/Order/", "#"),
      cause: r.cause,
      state: r.state,
      choice: r.choice,
      choiceDate: r.choiceDate,
      newPhone: r.newPhone,
      notified: Boolean(r.notifiedAt),
      // Why the shopper got no text, in words (null: texted, or the text is still queued).
      notTexted: r.notTexted ? notTextedLabel(r.notTexted) : null,
      written: Boolean(r.writtenAt),
      // In the store's time zone, formatted here: the same text on the server and in the browser.
      reported: shopDateTime(r.createdAt, shop.timezone),
    })),
  };
}

type ActionData = { status: "invalid" | "saved"; errors: DeliverySettingsErrors; values: DeliverySettingsValues };

export async function action({ request }: ActionFunctionArgs) {
  const { session } = await authenticate.admin(request);
  await adminShop(session.shop);
  const result = parseDeliverySettings(await request.formData());
  if (!result.ok) return data<ActionData>({ status: "invalid", errors: result.errors, values: result.values }, { status: 422 });
  const saved = await updateShop(session.shop, result.data);
  return { status: "saved", errors: {}, values: deliverySettingsFormValues(saved) } satisfies ActionData;
}

const CHOICES: Record<string, string> = {
  tomorrow: "Deliver again tomorrow",
  pick_day: "Deliver on a day",
  fix_address: "New address",
  fix_phone: "New phone",
  pay_online: "Pay online",
};
/** The shop's quiet hours in words (they are the Settings page's, shared with the confirmation ladder). */
function quietHoursText(shop: { quietHoursStart: number | null; quietHoursEnd: number | null; timezone: string | null }): string {
  const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
  if (shop.quietHoursStart === null || shop.quietHoursEnd === null || shop.quietHoursStart === shop.quietHoursEnd) return "No quiet hours: texts go out at any hour (set them in Settings → Confirmation messages).";
  return `Quiet hours: no text between ${hhmm(shop.quietHoursStart)} and ${hhmm(shop.quietHoursEnd)} (${shop.timezone ?? "UTC"}); a text due then waits. Set in Settings → Confirmation messages.`;
}

/** Why a recovery's text did not go (the guard's refusal, app/billing/contact-allowance.server.ts, or the send's failure). */
const NOT_TEXTED: Record<string, string> = {
  opted_out: "the number asked to stop",
  phone_blocked: "you blocked the number",
  subscription_required: "no active plan",
  no_subscription: "no active plan",
  allowance_used: "the allowance is used up",
  usage_cap_reached: "the usage cap is reached",
  number_texts: "the number had its texts of the day",
  shop_daily_cap: "your daily text limit was reached",
  phone_unreachable: "the number cannot receive texts",
};
const notTextedLabel = (why: string) => `Not texted: ${NOT_TEXTED[why] ?? `the text failed (${why})`}`;

const CAUSES: Record<string, string> = { attempted_delivery: "Attempt failed", failure: "Delivery failed" };

export default function Deliveries() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<ActionData>();
  const [values, setValues] = useState(result?.values ?? loaded.values);
  const errors = result?.errors ?? {};
  const notice = useNotice(result?.status === "saved" ? { message: "Delivery settings saved" } : result ? { message: "Not saved: check the fields marked", error: true } : null, result);
  // Label and help from the settings registry (app/core/settings/registry.ts).
  const field = (name: keyof DeliverySettingsValues) => ({
    label: SETTINGS[name].label,
    helpText: SETTINGS[name].help,
    name,
    value: values[name],
    error: errors[name],
    autoComplete: "off",
    onChange: (v: string) => setValues((old) => ({ ...old, [name]: v })),
  });
  const state = (r: (typeof loaded.rows)[number]) =>
    r.state === "answered" ? (
      <Badge tone="success">Answered</Badge>
    ) : r.state === "expired" ? (
      <Badge>{r.notTexted ?? "No answer"}</Badge>
    ) : r.notTexted ? (
      <Badge tone="warning">{r.notTexted}</Badge>
    ) : (
      <Badge tone="attention">{r.notified ? "Waiting for the shopper" : "Text queued"}</Badge>
    );
  return (
    <AdminPage title="Deliveries">
      <DeliveriesTabs />
      <Layout>
        {notice && <Layout.Section>{notice}</Layout.Section>}
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Deliveries at risk
              </Text>
              {loaded.rows.length ? (
                <ScrollableDataTable
                  label="Deliveries at risk"
                  columnContentTypes={["text", "text", "text", "text", "text"]}
                  headings={["Order", "Reported", "State", "Shopper's answer", `Reported on (${loaded.timeZone})`]}
                  rows={loaded.rows.map((r) => [
                    r.orderName,
                    CAUSES[r.cause] ?? r.cause.replace(/^tag:/, "Tag "),
                    state(r),
                    r.choice ? `${CHOICES[r.choice] ?? r.choice}${r.choiceDate ? ` (${r.choiceDate})` : ""}${r.newPhone ? ` ${r.newPhone}` : ""}${r.written ? "" : " (being written to the order)"}` : "—",
                    r.reported,
                  ])}
                />
              ) : (
                <Text as="p" tone="subdued">
                  No failed delivery of a cash-on-delivery order yet. When a carrier reports one, the shopper is asked what to do next and the order shows here.
                </Text>
              )}
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Form method="post">
            <Card>
              <FormLayout>
                <Select options={[...SETTINGS.deliveryReminder.options]} {...field("deliveryReminder")} />
                <Select options={[...SETTINGS.deliveryRecovery.options]} {...field("deliveryRecovery")} />
                <TextField multiline={3} {...field("deliveryFailureTags")} />
                <Text as="p" tone="subdued">
                  {loaded.quiet}
                </Text>
                <TextField {...field("storeContact")} />
                <div>
                  <Button submit variant="primary">
                    Save
                  </Button>
                </div>
              </FormLayout>
            </Card>
          </Form>
        </Layout.Section>
      </Layout>
    </AdminPage>
  );
}
