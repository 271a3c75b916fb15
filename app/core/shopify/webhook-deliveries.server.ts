import { prisma } from "~/core/db.server";
import { execute, query, sql, type Sql } from "~/core/db/sql.server";

/**
 * Webhook idempotency on X-Shopify-Webhook-Id. A delivery is recorded after its work is done, and
 * the work itself is idempotent, so a redelivery (Shopify retries, duplicates) or two concurrent
 * copies never do it twice, and a delivery that failed half-way is redone in full.
 */
export async function deliveryHandled(webhookId: string): Promise<boolean> {
  // Direct statements: every webhook delivery asks and records (app/core/db/sql.server.ts).
  return (await query(sql`SELECT 1 AS "seen" FROM "WebhookDelivery" WHERE "id" = ${webhookId}`)).length > 0;
}

/** A scalar subquery for a caller's own SELECT: 1 when the delivery was recorded, else NULL. */
export function deliverySeen(webhookId: string): Sql {
  return sql`(SELECT 1 FROM "WebhookDelivery" WHERE "id" = ${webhookId})`;
}

export type Delivery = { webhookId: string; topic: string; shop: string };

export async function recordDelivery(webhookId: string, topic: string, shop: string): Promise<void> {
  await execute(deliveryRecord({ webhookId, topic, shop }));
}

/** The delivery's record; with `source` (`FROM ... WHERE ...`), only when the source has a row (a step of a data-modifying CTE). */
export function deliveryRecord(d: Delivery, source?: Sql): Sql {
  const row = sql`${d.webhookId}, ${d.topic}, ${d.shop}, ${new Date()}`;
  return sql`
    INSERT INTO "WebhookDelivery" ("id", "topic", "shop", "receivedAt") ${source ? sql`SELECT ${row} ${source}` : sql`VALUES (${row})`}
    ON CONFLICT ("id") DO NOTHING`;
}

/** Shopify retries a delivery for at most 4 hours (48 h for compliance topics); a week of records is plenty. */
export const DELIVERY_RETENTION_MS = 7 * 24 * 3600_000;

export async function pruneDeliveries(now: Date): Promise<number> {
  const { count } = await prisma.webhookDelivery.deleteMany({ where: { receivedAt: { lt: new Date(now.getTime() - DELIVERY_RETENTION_MS) } } });
  return count;
}
