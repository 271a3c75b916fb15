import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { ScrollableDataTable } from "~/ui/scrollable-table";
import { Link as RemixLink, useLoaderData, useSearchParams } from "@remix-run/react";
import { Banner, BlockStack, Card, IndexTable, InlineStack, Layout, Text } from "@shopify/polaris";
import { AdminPage } from "~/admin/app-bridge";
import { TableEmpty, TableFooter } from "~/ui/table-parts";
import { FileDownloadButton } from "~/ui/file-download";
import { authenticate } from "~/core/shopify/app.server";
import { adminShop } from "~/core/settings/shop.server";
import { getDataRequest, listDataRequests } from "~/privacy/data-requests.server";
import { DATA_REQUEST_RETENTION_DAYS } from "~/privacy/retention";
import { REPORT_SECTIONS, recordCount, type ReportSection } from "~/privacy/report-sections";
import { maskPhone } from "~/shared/phone-mask";

export const meta: MetaFunction = () => [{ title: "Data requests · COD Verify" }];

/**
 * The shop's customers/data_request reports: one row per request Shopify sent, and the report of the one
 * chosen (`?id=`) on screen, downloadable as JSON (app.data-requests.$id.download.ts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const shop = await adminShop(session.shop);
  const url = new URL(request.url);
  const page = Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1;
  const id = url.searchParams.get("id");
  const [list, chosen] = await Promise.all([listDataRequests(shop.id, page), id ? getDataRequest(shop.id, id.slice(0, 64)) : null]);
  return {
    page: list.page,
    pages: list.pages,
    total: list.total,
    requests: list.rows.map((r) => ({
      id: r.id,
      createdAt: r.createdAt.toISOString(),
      customer: { id: r.customerId, email: r.customerEmail, phone: r.customerPhone },
      orders: r.ordersRequested.length,
      records: r.records,
    })),
    missing: Boolean(id && !chosen),
    chosen: chosen && {
      id: chosen.id,
      createdAt: chosen.createdAt.toISOString(),
      customer: { id: chosen.customerId, email: chosen.customerEmail, phone: chosen.customerPhone },
      ordersRequested: chosen.ordersRequested,
      report: chosen.report,
    },
  };
}

type Customer = { id: string | null; email: string | null; phone: string | null };
type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;

const dateTime = (iso: string) => new Date(iso).toLocaleString("en", { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC" }) + " UTC";

/** The customer as the merchant knows them: email first, then the phone, then Shopify's id. */
function customerLabel(c: Customer, mask: boolean): string {
  const phone = c.phone ? (mask ? maskPhone(c.phone) : c.phone) : null;
  return [c.email, phone, c.id ? `customer ${c.id}` : null].filter(Boolean).join(" · ") || "Not named (orders only)";
}

export const downloadUrl = (id: string) => `/app/data-requests/${encodeURIComponent(id)}/download`;

export default function DataRequests() {
  const { requests, page, pages, total, chosen, missing } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const pageUrl = (n: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(n));
    next.delete("id");
    return `?${next.toString()}`;
  };
  return (
    <AdminPage
      title="Data requests"
      subtitle={`When a customer asks your store for their data, Shopify tells COD Verify and the app's part of the answer appears here. Send it to the customer. Reports are deleted after ${DATA_REQUEST_RETENTION_DAYS} days.`}
    >
      <Layout>
        {missing && (
          <Layout.Section>
            <Banner tone="warning" title="That report is not here">
              <p>It may have been deleted: reports are kept {DATA_REQUEST_RETENTION_DAYS} days, and a customer's data is erased when Shopify asks for it.</p>
            </Banner>
          </Layout.Section>
        )}
        {chosen && (
          <Layout.Section>
            <ReportView request={chosen} />
          </Layout.Section>
        )}
        <Layout.Section>
          <Card padding="0">
            {requests.length === 0 ? (
              <TableEmpty title="No data requests" text="When a customer asks your store for their data, the report of what COD Verify holds about them appears here." />
            ) : (
              <IndexTable
                resourceName={{ singular: "data request", plural: "data requests" }}
                itemCount={requests.length}
                selectable={false}
                headings={[{ title: "Received" }, { title: "Customer" }, { title: "Orders named" }, { title: "Records found" }, { title: "Report" }]}
              >
                {requests.map((r, i) => (
                  <IndexTable.Row id={r.id} key={r.id} position={i} selected={chosen?.id === r.id}>
                    <IndexTable.Cell>{dateTime(r.createdAt)}</IndexTable.Cell>
                    <IndexTable.Cell>
                      <Text as="span" fontWeight="medium">
                        <bdi>{customerLabel(r.customer, true)}</bdi>
                      </Text>
                    </IndexTable.Cell>
                    <IndexTable.Cell>{r.orders.toLocaleString("en")}</IndexTable.Cell>
                    <IndexTable.Cell>{r.records.toLocaleString("en")}</IndexTable.Cell>
                    <IndexTable.Cell>
                      <InlineStack gap="200" wrap={false}>
                        <RemixLink to={`?id=${encodeURIComponent(r.id)}`} className="Polaris-Link" aria-label={`View the report of ${dateTime(r.createdAt)}`}>
                          View
                        </RemixLink>
                        <DownloadButton id={r.id} label={`Download JSON of the report of ${dateTime(r.createdAt)}`} size="slim" />
                      </InlineStack>
                    </IndexTable.Cell>
                  </IndexTable.Row>
                ))}
              </IndexTable>
            )}
            {total > 0 && <TableFooter count={`${total.toLocaleString("en")} ${total === 1 ? "request" : "requests"}`} page={page} pages={pages} pageUrl={pageUrl} />}
          </Card>
        </Layout.Section>
      </Layout>
    </AdminPage>
  );
}

/** The report as a JSON file (app/ui/file-download.tsx). */
function DownloadButton({ id, label, size, primary }: { id: string; label: string; size?: "slim"; primary?: boolean }) {
  return <FileDownloadButton url={downloadUrl(id)} fallbackName="data-request.json" label={label} text="Download JSON" size={size} primary={primary} />;
}

function ReportView({ request }: { request: NonNullable<Loaded["chosen"]> }) {
  const report = request.report as unknown as Record<string, unknown>;
  const held = recordCount(report);
  const rowsOf = (key: string) => (Array.isArray(report[key]) ? (report[key] as Record<string, unknown>[]) : []);
  const empty = REPORT_SECTIONS.filter((s) => rowsOf(s.key).length === 0);
  return (
    // A labelled region: the report is one landmark a screen reader can jump to.
    <section aria-labelledby="data-request-report">
      <Card>
        <BlockStack gap="400">
          <InlineStack align="space-between" blockAlign="start" gap="200">
            <BlockStack gap="100">
              <Text as="h2" variant="headingMd" id="data-request-report">
                Report of {dateTime(request.createdAt)}
              </Text>
              <Text as="p">
                Customer: <bdi>{customerLabel(request.customer, false)}</bdi>
              </Text>
              <Text as="p" tone="subdued">
                {request.ordersRequested.length ? `Orders named in the request: ${request.ordersRequested.join(", ")}.` : "The request named no order."}{" "}
                {held === 0 ? "COD Verify held nothing about this customer." : `COD Verify held ${held.toLocaleString("en")} ${held === 1 ? "record" : "records"} about this customer.`}
              </Text>
            </BlockStack>
            <DownloadButton id={request.id} label="Download JSON of this report" primary />
          </InlineStack>
          {REPORT_SECTIONS.filter((s) => rowsOf(s.key).length > 0).map((section) => (
            <ReportSectionView key={section.key} section={section} rows={rowsOf(section.key)} />
          ))}
          {empty.length > 0 && (
            <Text as="p" tone="subdued">
              Nothing held of: {empty.map((s) => s.title.toLowerCase()).join(", ")}.
            </Text>
          )}
        </BlockStack>
      </Card>
    </section>
  );
}

const WORDS: Record<string, string> = { sms: "SMS", whatsapp: "WhatsApp", otp: "Verification code", cod: "Cash on delivery", partial: "Deposit, rest on delivery" };

function cell(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "string" && /^\d{4}-\d\d-\d\dT/.test(value)) return dateTime(value);
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "object") return JSON.stringify(value);
  // Stored codes (order_confirmation, sms) read as words.
  const text = String(value);
  if (WORDS[text]) return WORDS[text];
  return /^[a-z][a-z_]*$/.test(text) ? (text[0].toUpperCase() + text.slice(1)).replace(/_/g, " ") : text;
}

function ReportSectionView({ section, rows }: { section: ReportSection; rows: Record<string, unknown>[] }) {
  return (
    <BlockStack gap="200">
      <Text as="h3" variant="headingSm">
        {section.title} ({rows.length.toLocaleString("en")})
      </Text>
      <ScrollableDataTable label={`${section.title}`}
        columnContentTypes={section.columns.map(() => "text")}
        headings={section.columns.map((c) => c.label)}
        rows={rows.map((row) => section.columns.map((c) => cell(row[c.key])))}
      />
    </BlockStack>
  );
}
