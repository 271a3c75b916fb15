import { prisma } from "~/core/db.server";
import { execute, sql } from "~/core/db/sql.server";
import { clock } from "~/core/utils/clock.server";
import { randomToken } from "~/core/utils/crypto.server";
import { normalizePhone } from "~/shared/phone";
import { customerDataReport } from "./customer-records.server";
import { orderGidsOf } from "./privacy.server";
import { recordCount } from "./report-sections";

/**
 * customers/data_request, delivered to the merchant: each request Shopify sends becomes one stored
 * report (admin page "Data requests"), kept DATA_REQUEST_RETENTION_DAYS (retention.ts) and then deleted
 * by the retention job (retention.server.ts).
 */
export const DATA_REQUESTS_PAGE_SIZE = 25;

export type DataRequestInput = {
  /** Shopify's data_request.id; null when the payload has none (the delivery's id identifies it then). */
  dataRequestId: string | null;
  webhookId: string;
  customer: { id: string | null; email: string | null; phone: string | null };
  /** The numeric order ids the request named, as strings (they exceed 2^53). */
  orderIds: string[];
};

export type DataReport = Awaited<ReturnType<typeof customerDataReport>>;

/** The request's identity within its shop: Shopify's data request id, or the delivery's when absent. */
export function requestKeyOf(input: Pick<DataRequestInput, "dataRequestId" | "webhookId">): string {
  return input.dataRequestId ? `dr:${input.dataRequestId}` : `wh:${input.webhookId}`;
}

/**
 * Stores the report of one data request. A replay (Shopify retries; two deliveries at once) finds the
 * row of the first and changes nothing: one INSERT ... ON CONFLICT DO NOTHING on (shop, request).
 * Returns whether this call stored it, or null when the shop is not known (nothing is held for it).
 */
export async function storeDataRequestReport(shopDomain: string, input: DataRequestInput, report: DataReport): Promise<boolean | null> {
  const shop = await prisma.shop.findUnique({ where: { domain: shopDomain }, select: { id: true } });
  if (!shop) return null;
  const inserted = await execute(sql`
    INSERT INTO "DataRequestReport" ("id", "shopId", "requestKey", "customerId", "customerEmail", "customerPhone", "ordersRequested", "report", "createdAt")
    VALUES (${randomToken(16)}, ${shop.id}, ${requestKeyOf(input)}, ${input.customer.id}, ${input.customer.email},
      ${normalizePhone(input.customer.phone) ?? input.customer.phone},
      ${JSON.stringify(input.orderIds)}, ${JSON.stringify(report)}, ${clock.now()})
    ON CONFLICT ("shopId", "requestKey") DO NOTHING`);
  return inserted === 1;
}

/**
 * customers/data_request: reads what is held for the customer and stores it for the merchant. Returns
 * whether this delivery stored the report (false: a replay) and how many records of each kind it holds,
 * or null for a shop the app does not know.
 */
export async function answerDataRequest(shopDomain: string, input: DataRequestInput) {
  const report = await customerDataReport(shopDomain, input.customer.phone, orderGidsOf(input.orderIds));
  const stored = await storeDataRequestReport(shopDomain, input, report);
  if (stored === null) return null;
  const records = Object.fromEntries(Object.entries(report).flatMap(([k, v]) => (Array.isArray(v) && k !== "phones" ? [[k, v.length]] : [])));
  return { stored, records };
}

export type DataRequestSummary = {
  id: string;
  createdAt: Date;
  customerId: string | null;
  customerEmail: string | null;
  customerPhone: string | null;
  ordersRequested: string[];
  /** How many records the report holds. */
  records: number;
};

const summaryFields = { id: true, createdAt: true, customerId: true, customerEmail: true, customerPhone: true, ordersRequested: true, report: true } as const;

function ordersOf(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}

function parseReport(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The shop's data requests, newest first, a page at a time. */
export async function listDataRequests(shopId: string, page = 1) {
  const total = await prisma.dataRequestReport.count({ where: { shopId } });
  const pages = Math.max(1, Math.ceil(total / DATA_REQUESTS_PAGE_SIZE));
  const current = Math.min(Math.max(1, Math.floor(page)), pages);
  const rows = await prisma.dataRequestReport.findMany({
    where: { shopId },
    select: summaryFields,
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    skip: (current - 1) * DATA_REQUESTS_PAGE_SIZE,
    take: DATA_REQUESTS_PAGE_SIZE,
  });
  return {
    total,
    page: current,
    pages,
    rows: rows.map(({ report, ...r }): DataRequestSummary => ({ ...r, ordersRequested: ordersOf(r.ordersRequested), records: recordCount(parseReport(report)) })),
  };
}

/** One data request of the shop with its report, or null (another shop's id is not found either). */
export async function getDataRequest(shopId: string, id: string) {
  const row = await prisma.dataRequestReport.findFirst({ where: { id, shopId } });
  if (!row) return null;
  return {
    id: row.id,
    createdAt: row.createdAt,
    customerId: row.customerId,
    customerEmail: row.customerEmail,
    customerPhone: row.customerPhone,
    ordersRequested: ordersOf(row.ordersRequested),
    report: parseReport(row.report) as DataReport,
  };
}

/** What the merchant downloads and forwards: the request, when it came, and the report. */
export function dataRequestDocument(request: NonNullable<Awaited<ReturnType<typeof getDataRequest>>>) {
  return {
    app: "COD Verify",
    requestedAt: request.createdAt.toISOString(),
    customer: { id: request.customerId, email: request.customerEmail, phone: request.customerPhone },
    ordersRequested: request.ordersRequested,
    data: request.report,
  };
}
