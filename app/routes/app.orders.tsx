import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { messageLogsOf } from "~/orders/message-log.server";
import { isFailure, messageLogLine } from "~/orders/message-log";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigate, useNavigation, useSearchParams } from "@remix-run/react";
import { Badge, BlockStack, Box, Card, IndexTable, InlineStack, Layout, Select, Text } from "@shopify/polaris";
import { AdminPage, useNotice, type Notice } from "~/admin/app-bridge";
import { OrderRowActions } from "~/admin/order-row-actions";
import { TableEmpty, TableFooter } from "~/ui/table-parts";
import { authenticate } from "~/core/shopify/app.server";
import { adminShop } from "~/core/settings/shop.server";
import { blockedPhonesAmong } from "~/otp/blocklist.server";
import { actOnOrderRow, blockedFromOrder, orderActionForm, type OrderRowOutcome } from "~/orders/order-actions.server";
import { listOrderRecords } from "~/orders/order-record.server";
import {
  CORRECTION_LABELS,
  depositSummary,
  isOrderStatus,
  ORDER_COUNT_CAP,
  ORDER_PAYMENT_LABELS,
  ORDER_PERIODS,
  ORDER_STATUS_LABELS,
  ORDER_STATUSES,
  orderAdminUrl,
  orderAppBridgeUrl,
  orderCountWords,
  orderPeriodOf,
  orderPeriodWords,
  paymentOf,
  type OrderStatus,
} from "~/shared/order-status";
import { maskPhone } from "~/shared/phone-mask";
import { shopDateTime, shopTimeZone } from "~/shared/shop-time";
import { readStoredRisk, riskForDisplay } from "~/risk/stored";
import { digipinsOf } from "~/address-correction/digipin-write.server";
import { DigipinLink } from "~/admin/digipin-link";

const RISK_LABELS = { low: "Low", medium: "Medium", high: "High" } as const;
const RISK_TONES = { low: "success", medium: "warning", high: "critical" } as const;

export const meta: MetaFunction = () => [{ title: "Orders · COD Verify" }];

/**
 * The shop's recent orders as the app saw them (OrderRecord): verification state, payment, phone, address
 * correction. One period (the last `days` shop days, or every order) for every figure; times in the store's time zone.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const shop = await adminShop(session.shop);
  const url = new URL(request.url);
  const requested = url.searchParams.get("status");
  const status = isOrderStatus(requested) ? requested : undefined;
  const days = orderPeriodOf(url.searchParams.get("days"));
  const page = Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1;
  const list = await listOrderRecords(shop.id, { status, page, days, timezone: shop.timezone });
  const blocked = await blockedPhonesAmong(shop.id, list.rows.flatMap((o) => (o.phone ? [o.phone] : [])));
  const logs = await messageLogsOf(shop.id, list.rows.map((o) => o.orderGid));
  const digipins = await digipinsOf(shop.id, list.rows.map((o) => o.orderGid));
  const timeZone = shopTimeZone(shop.timezone);
  return {
    days,
    periodWords: orderPeriodWords(days),
    timeZone,
    status: status ?? null,
    page: list.page,
    pages: list.pages,
    total: list.total,
    counts: list.counts,
    orders: list.rows.map((o) => ({ ...orderRow(session.shop, o, timeZone, blocked, logs), digipin: digipins.get(o.orderGid) ?? null })),
  };
}

type Listed = Awaited<ReturnType<typeof listOrderRecords>>["rows"][number];

function orderRow(domain: string, o: Listed, timeZone: string, blocked: Map<string, string | null>, logs: Awaited<ReturnType<typeof messageLogsOf>>) {
  const name = o.orderName ?? o.orderGid.replace(/^gid:\/\/shopify\/Order\//, "#");
  return {
      gid: o.orderGid,
      name,
      adminUrl: orderAdminUrl(domain, o.orderGid),
      appBridgeUrl: orderAppBridgeUrl(o.orderGid),
      placedAt: o.placedAt.toISOString(),
      placed: shopDateTime(o.placedAt, timeZone),
      status: o.status as OrderStatus,
      mode: o.mode,
      cod: o.cod,
      // The full number: the page masks it itself.
      phone: o.phone,
      blocked: o.phone ? blocked.has(o.phone) : false,
      // Blocked from this row: the row can undo it (a block made elsewhere stays the Blocked numbers page's).
      blockedHere: o.phone ? blocked.get(o.phone) === blockedFromOrder(name) : false,
      correction: o.correction,
      // A partial order paid with a deposit code: "Deposit … paid · … to collect on delivery" (or held while the balance is missing).
      deposit: o.deposit ? { ...o.deposit, summary: depositSummary(o.deposit) } : null,
      risk: riskForDisplay(readStoredRisk(o)),
      // What the app sent about the order and the shopper's WhatsApp answers (sent, delivered, read, failed, reply).
      messages: logs.get(o.orderGid) ?? [],
  };
}

/** A row's action: block the order's number (or undo that), or resend its pending confirmation (app/orders/order-actions.server.ts). */
export async function action({ request }: ActionFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const shop = await adminShop(session.shop);
  const parsed = orderActionForm.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ intent: null, ok: false as const, code: "invalid_request" as const }, { status: 400 });
  const outcome = await actOnOrderRow(shop, parsed.data);
  return data(outcome, { status: outcome.ok ? 200 : outcome.code === "order_not_found" ? 404 : 409 });
}

type ActionData = OrderRowOutcome | { intent: null; ok: false; code: "invalid_request" };

const REFUSALS: Record<Extract<ActionData, { ok: false }>["code"], string> = {
  invalid_request: "That request could not be read. Reload the page and try again.",
  order_not_found: "That order is not in COD Verify's list. Reload the page.",
  no_phone: "That order has no phone number.",
  not_pending: "That order is no longer waiting for a confirmation.",
  recently_sent: "The link was sent less than a minute ago. Give the shopper a moment before sending it again.",
  not_blocked_here: "That number is no longer blocked from this order (unblocked, or blocked again on the Blocked numbers page).",
};

function noticeOf(result: ActionData | undefined): Notice | null {
  if (!result) return null;
  if (!result.ok) return { message: REFUSALS[result.code], error: true };
  if (result.intent === "block") return { message: `${maskPhone(result.phone)} blocked: it gets no more codes (order ${result.orderName}). Undo it from the order's row.` };
  if (result.intent === "unblock") return { message: `${maskPhone(result.phone)} unblocked: it can get codes again (order ${result.orderName})` };
  return { message: `Confirmation link sent again to ${maskPhone(result.phone)} (order ${result.orderName})` };
}

const STATUS_TONES: Record<OrderStatus, "success" | "critical" | "attention" | "info" | undefined> = {
  verified: "success",
  confirmed: "success",
  pending: "attention",
  unverified: "critical",
  unconfirmed: "critical",
  cancelled: "critical",
};

const CORRECTION_TONES = { none: undefined, pending: "attention", completed: "success", not_editable: "warning", expired: undefined } as const;

export default function Orders() {
  const { orders, status, page, pages, total, counts, days, periodWords, timeZone } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const result = useActionData<ActionData>();
  const notice = useNotice(noticeOf(result), result);
  const navigation = useNavigation();
  const posting = navigation.state === "submitting" ? navigation.formData : undefined;
  const busyFor = (gid: string) => (posting?.get("orderGid") === gid ? (posting.get("intent") as "block" | "unblock" | "resend") : null);
  const all = Math.min(ORDER_COUNT_CAP, Object.values(counts).reduce((a, b) => a + (b ?? 0), 0));
  const tabs = [
    { id: "all", content: "All", badge: orderCountWords(all) },
    ...ORDER_STATUSES.map((s) => ({ id: s, content: ORDER_STATUS_LABELS[s], badge: orderCountWords(counts[s] ?? 0) })),
  ];
  const pageUrl = (n: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(n));
    return `?${next.toString()}`;
  };
  // A new filter or period starts again at the first page; the other choice is kept.
  const filterUrl = (name: "status" | "days", value: string | null) => {
    const next = new URLSearchParams(params);
    next.delete("page");
    if (value) next.set(name, value);
    else next.delete(name);
    const query = next.toString();
    return query ? `/app/orders?${query}` : "/app/orders";
  };

  return (
    <AdminPage title="Orders" subtitle="New orders as COD Verify saw them: whether the shopper's phone was verified, how they pay, and any address correction.">
      <Layout>
        {notice && <Layout.Section>{notice}</Layout.Section>}
        <Layout.Section>
          <Card padding="0">
            {/* A select, not Polaris' Tabs: seven tabs overflow into a "more" button inside the tab list,
                which a screen reader cannot use (axe aria-required-children), and it fits a phone. */}
            <Box padding="300">
              <InlineStack gap="400" blockAlign="center">
                <Select
                  label="Period"
                  labelInline
                  options={[...ORDER_PERIODS.map((d) => ({ label: `Last ${d} days`, value: String(d) })), { label: "All time", value: "all" }]}
                  value={days ? String(days) : "all"}
                  onChange={(value) => navigate(filterUrl("days", value === "all" ? null : value))}
                />
                <Select
                  label="Show"
                  labelInline
                  options={tabs.map((t) => ({ label: `${t.content} (${t.badge})`, value: t.id }))}
                  value={status ?? "all"}
                  onChange={(id) => navigate(filterUrl("status", id === "all" ? null : id))}
                />
              </InlineStack>
              <Box paddingBlockStart="200">
                <Text as="p" variant="bodySm" tone="subdued">
                  {`Counts and rows: orders ${periodWords}. Times in your store's time zone (${timeZone}).`}
                </Text>
              </Box>
            </Box>
            {orders.length === 0 ? (
              <TableEmpty
                title={status ? `No ${ORDER_STATUS_LABELS[status].toLowerCase()} orders ${periodWords}` : days ? `No orders ${periodWords}` : "No orders yet"}
                text={status || days ? "Choose another period or state above." : "Orders appear here as your store receives them, with their verification state."}
              />
            ) : (
              <IndexTable
                resourceName={{ singular: "order", plural: "orders" }}
                itemCount={orders.length}
                selectable={false}
                headings={[{ title: "Order" }, { title: `Placed (${timeZone})` }, { title: "Verification" }, { title: "Payment" }, { title: "Risk" }, { title: "Phone" }, { title: "Address" }, { title: "Messages" }, { title: "Actions" }]}
              >
                {orders.map((o, i) => (
                  <IndexTable.Row id={o.gid} key={o.gid} position={i}>
                    <IndexTable.Cell>
                      <Text as="span" fontWeight="semibold">
                        {o.name}
                      </Text>
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      <time dateTime={o.placedAt}>{o.placed}</time>
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      <Badge tone={STATUS_TONES[o.status]}>{ORDER_STATUS_LABELS[o.status] ?? o.status}</Badge>
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      {ORDER_PAYMENT_LABELS[paymentOf(o)]}
                      {o.deposit && (
                        <Text as="p" variant="bodySm" tone={o.deposit.state === "held" ? "critical" : "subdued"}>
                          {o.deposit.summary}
                        </Text>
                      )}
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      {o.risk ? (
                        <BlockStack gap="100">
                          <Badge tone={RISK_TONES[o.risk.band]}>{`${RISK_LABELS[o.risk.band]} ${o.risk.score}`}</Badge>
                          {o.risk.reasons.slice(0, 3).map((r) => (
                            <Text as="p" variant="bodySm" tone="subdued" key={r}>
                              {r}
                            </Text>
                          ))}
                        </BlockStack>
                      ) : (
                        <Text as="span" tone="subdued">
                          —
                        </Text>
                      )}
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      {o.phone ? (
                        <bdi dir="ltr">{maskPhone(o.phone)}</bdi>
                      ) : (
                        <Text as="span" tone="subdued">
                          None
                        </Text>
                      )}
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      {o.correction === "none" ? (
                        <Text as="span" tone="subdued">
                          —
                        </Text>
                      ) : (
                        <Badge tone={CORRECTION_TONES[o.correction]}>{CORRECTION_LABELS[o.correction]}</Badge>
                      )}
                      {o.digipin ? <DigipinLink {...o.digipin} /> : null}
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      {o.messages.length ? (
                        <BlockStack gap="050">
                          {o.messages.map((m, k) => (
                            <Text as="p" variant="bodySm" tone={isFailure(m) ? "critical" : "subdued"} key={k}>
                              {messageLogLine(m)}
                            </Text>
                          ))}
                        </BlockStack>
                      ) : (
                        <Text as="span" tone="subdued">
                          —
                        </Text>
                      )}
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      <OrderRowActions
                        name={o.name}
                        gid={o.gid}
                        appBridgeUrl={o.appBridgeUrl}
                        adminUrl={o.adminUrl}
                        phone={o.phone}
                        blocked={o.blocked}
                        blockedHere={o.blockedHere}
                        canResend={o.status === "pending"}
                        busy={busyFor(o.gid)}
                      />
                    </IndexTable.Cell>
                  </IndexTable.Row>
                ))}
              </IndexTable>
            )}
            <TableFooter count={`${orderCountWords(total)} ${total === 1 ? "order" : "orders"}${status ? ` ${ORDER_STATUS_LABELS[status].toLowerCase()}` : ""} ${periodWords}`} page={page} pages={pages} pageUrl={pageUrl} />
          </Card>
        </Layout.Section>
      </Layout>
    </AdminPage>
  );
}
