import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { BlockStack, Button, Card, InlineStack, Layout, Text } from "@shopify/polaris";
import { AdminPage, useNotice, type Notice } from "~/admin/app-bridge";
import { TableEmpty } from "~/ui/table-parts";
import { adminShop } from "~/core/settings/shop.server";
import { authenticate } from "~/core/shopify/app.server";
import { actForPerson, personActionForm, personQueue, type PersonActionOutcome, type PersonIntent } from "~/orders/confirmation/person-queue.server";
import { isFailure, messageLogLine } from "~/orders/message-log";
import { shopDateTime, shopTimeZone } from "~/shared/shop-time";

export const meta: MetaFunction = () => [{ title: "Needs a person · COD Verify" }];

/** The orders the confirmation ladder could not confirm, oldest first (app/orders/confirmation/person-queue.server.ts). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const shop = await adminShop(session.shop);
  // Times in the store's time zone, the same on the server and in the browser.
  return { orders: await personQueue(shop), timeZone: shopTimeZone(shop.timezone) };
}

/** What the team did after calling the shopper: confirmed, cancelled, or the address link sent, once each. */
export async function action({ request }: ActionFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const shop = await adminShop(session.shop);
  const parsed = personActionForm.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data<PersonActionOutcome>({ ok: false, intent: null, code: "invalid_request" }, { status: 400 });
  const outcome = await actForPerson(shop, parsed.data.confirmationId, parsed.data.intent);
  return data(outcome, { status: outcome.ok ? 200 : 404 });
}

const DONE: Record<PersonIntent, string> = {
  confirmed: "confirmed: the order is released and tagged cod-confirmed-by:person",
  cancelled: "cancelled",
  address_link: "the address link is on its way to the shopper",
};

function noticeOf(result: PersonActionOutcome | undefined): Notice | null {
  if (!result) return null;
  if (!result.ok) return { message: result.code === "not_found" ? "That order is no longer on the list. Reload the page." : "That request could not be read. Reload the page.", error: true };
  if (result.result === "already_recorded") return { message: `${result.orderName}: this was recorded already; nothing was done twice.` };
  if (result.result === "closed") return { message: `${result.orderName} was answered or closed meanwhile; nothing changed.`, error: true };
  return { message: `${result.orderName} ${DONE[result.intent]}.` };
}

export default function NeedsAPerson() {
  const { orders, timeZone } = useLoaderData<typeof loader>();
  const result = useActionData<PersonActionOutcome>();
  const notice = useNotice(noticeOf(result), result);
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" ? `${navigation.formData?.get("confirmationId")}:${navigation.formData?.get("intent")}` : null;
  return (
    <AdminPage title="Needs a person" subtitle="Cash-on-delivery orders no message or call could confirm, oldest first. Call the shopper, then record what they said.">
      <Layout>
        {notice && <Layout.Section>{notice}</Layout.Section>}
        <Layout.Section>
          {orders.length === 0 ? (
            <Card>
              <TableEmpty title="No order needs a person" text="Orders appear here when they reach the last step of your confirmation ladder (Settings) without an answer." />
            </Card>
          ) : (
            <BlockStack gap="400">
              {orders.map((o) => (
                <Card key={o.confirmationId}>
                  <BlockStack gap="200">
                    <InlineStack align="space-between" blockAlign="center">
                      <Text as="h2" variant="headingMd">
                        {o.orderName}
                        {o.amount ? ` · ${o.amount} on delivery` : ""}
                      </Text>
                      <Text as="span" tone="subdued">
                        Placed {shopDateTime(new Date(o.placedAt), timeZone)} ({timeZone})
                      </Text>
                    </InlineStack>
                    <Text as="p">
                      {o.phone ? <bdi dir="ltr">{o.phone}</bdi> : "No phone"}
                      {" · "}
                      {o.shopperTime ? `${o.shopperTime.clock} for the shopper (${o.shopperTime.zone})` : "the shopper's local time is not known from the number"}
                    </Text>
                    <BlockStack gap="050">
                      {o.history.map((m, k) => (
                        <Text as="p" variant="bodySm" tone={isFailure(m) ? "critical" : "subdued"} key={k}>
                          {shopDateTime(new Date(m.at), timeZone)} · {messageLogLine(m)}
                        </Text>
                      ))}
                    </BlockStack>
                    <InlineStack gap="200">
                      {(["confirmed", "cancelled", "address_link"] as const).map((intent) => (
                        <Form method="post" key={intent}>
                          <input type="hidden" name="confirmationId" value={o.confirmationId} />
                          <input type="hidden" name="intent" value={intent} />
                          <Button
                            submit
                            variant={intent === "confirmed" ? "primary" : undefined}
                            tone={intent === "cancelled" ? "critical" : undefined}
                            disabled={o.done.includes(intent)}
                            loading={busy === `${o.confirmationId}:${intent}`}
                          >
                            {intent === "confirmed" ? "Confirmed on the phone" : intent === "cancelled" ? "Cancel the order" : o.done.includes(intent) ? "Address link sent" : "Send the address link"}
                          </Button>
                        </Form>
                      ))}
                    </InlineStack>
                  </BlockStack>
                </Card>
              ))}
            </BlockStack>
          )}
        </Layout.Section>
      </Layout>
    </AdminPage>
  );
}
