import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";
import { Badge, Card, IndexTable, Layout, Link, Tabs, Text } from "@shopify/polaris";
import { AdminPage } from "~/admin/app-bridge";
import { TableEmpty, TableFooter } from "~/admin/table-parts";
import { authenticate } from "~/shopify/app.server";
import { getShop, upsertInstalledShop } from "~/settings/shop.server";
import { listOrderRecords } from "~/orders/order-record.server";
import { CORRECTION_LABELS, isOrderStatus, ORDER_STATUS_LABELS, ORDER_STATUSES, orderAdminUrl, type OrderStatus } from "~/orders/order-status";
import { maskPhone } from "~/shared/phone-mask";

export const meta: MetaFunction = () => [{ title: "Orders · COD Verify" }];

/** The shop's recent orders as the app saw them (OrderRecord): verification state, payment, phone, address correction. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const shop = (await getShop(session.shop)) ?? (await upsertInstalledShop(session.shop));
  const url = new URL(request.url);
  const requested = url.searchParams.get("status");
  const status = isOrderStatus(requested) ? requested : undefined;
  const page = Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1;
  const list = await listOrderRecords(shop.id, { status, page });
  return {
    status: status ?? null,
    page: list.page,
    pages: list.pages,
    total: list.total,
    counts: list.counts,
    orders: list.rows.map((o) => ({
      gid: o.orderGid,
      name: o.orderName ?? o.orderGid.replace(/^gid:\/\/shopify\/Order\//, "#"),
      adminUrl: orderAdminUrl(session.shop, o.orderGid),
      placedAt: o.placedAt.toISOString(),
      status: o.status as OrderStatus,
      mode: o.mode,
      cod: o.cod,
      // The full number: the page masks it itself.
      phone: o.phone,
      correction: o.correction,
    })),
  };
}

const STATUS_TONES: Record<OrderStatus, "success" | "critical" | "attention" | "info" | undefined> = {
  verified: "success",
  confirmed: "success",
  pending: "attention",
  unverified: "critical",
  unconfirmed: "critical",
};

const MODE_LABELS: Record<string, string> = { cod: "Cash on delivery", prepaid: "Prepaid", partial: "Deposit, rest on delivery" };

const CORRECTION_TONES = { none: undefined, pending: "attention", completed: "success", not_editable: "warning", expired: undefined } as const;

type Order = ReturnType<typeof useLoaderData<typeof loader>>["orders"][number];

function payment(order: Order): string {
  if (order.mode) return MODE_LABELS[order.mode] ?? order.mode;
  return order.cod ? "Cash on delivery" : "Paid at checkout";
}

export default function Orders() {
  const { orders, status, page, pages, total, counts } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const all = Object.values(counts).reduce((a, b) => a + (b ?? 0), 0);
  const tabs = [
    { id: "all", content: "All", badge: String(all) },
    ...ORDER_STATUSES.map((s) => ({ id: s, content: ORDER_STATUS_LABELS[s], badge: String(counts[s] ?? 0) })),
  ];
  const selected = status ? tabs.findIndex((t) => t.id === status) : 0;
  const pageUrl = (n: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(n));
    return `?${next.toString()}`;
  };

  return (
    <AdminPage title="Orders" subtitle="New orders as COD Verify saw them: whether the shopper's phone was verified, how they pay, and any address correction.">
      <Layout>
        <Layout.Section>
          <Card padding="0">
            <Tabs tabs={tabs} selected={selected} onSelect={(i) => navigate(i === 0 ? "/app/orders" : `/app/orders?status=${tabs[i].id}`)} />
            {orders.length === 0 ? (
              <TableEmpty
                title={status ? `No ${ORDER_STATUS_LABELS[status].toLowerCase()} orders` : "No orders yet"}
                text={status ? "Orders in this state appear here." : "Orders appear here as your store receives them, with their verification state."}
              />
            ) : (
              <IndexTable
                resourceName={{ singular: "order", plural: "orders" }}
                itemCount={orders.length}
                selectable={false}
                headings={[{ title: "Order" }, { title: "Date" }, { title: "Verification" }, { title: "Payment" }, { title: "Phone" }, { title: "Address" }]}
              >
                {orders.map((o, i) => (
                  <IndexTable.Row id={o.gid} key={o.gid} position={i}>
                    <IndexTable.Cell>
                      {o.adminUrl ? (
                        <Link url={o.adminUrl} target="_top" removeUnderline accessibilityLabel={`Order ${o.name} in Shopify`}>
                          <Text as="span" fontWeight="semibold">
                            {o.name}
                          </Text>
                        </Link>
                      ) : (
                        <Text as="span" fontWeight="semibold">
                          {o.name}
                        </Text>
                      )}
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      {new Date(o.placedAt).toLocaleString("en", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" })}
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      <Badge tone={STATUS_TONES[o.status]}>{ORDER_STATUS_LABELS[o.status] ?? o.status}</Badge>
                    </IndexTable.Cell>
                    <IndexTable.Cell>{payment(o)}</IndexTable.Cell>
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
                    </IndexTable.Cell>
                  </IndexTable.Row>
                ))}
              </IndexTable>
            )}
            <TableFooter count={`${total.toLocaleString("en")} ${total === 1 ? "order" : "orders"}`} page={page} pages={pages} pageUrl={pageUrl} />
          </Card>
        </Layout.Section>
      </Layout>
    </AdminPage>
  );
}
