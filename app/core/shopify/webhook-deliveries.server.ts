import { prisma } from "~/core/db.server";
import { execute, query, sql } from "~/core/db/sql.server";

/**
 * Webhook idempotency on X-Shopify-Webhook-Id. A delivery is recorded after its work is done, and
 * the work itself is idempotent, so a redelivery (Shopify retries, duplicates) or two concurrent
 * copies never do it twice, and a delivery that failed half-way is redone in full.
 */
export async function deliveryHandled(webhookId: string): Promise<boolean> {
  // Direct statements: every webhook delivery asks and records (app/core/db/sql.server.ts).
  return (await query(sql`SELECT 1 AS "seen" FROM "WebhookDelivery" WHERE "id" = ${webhookId}`)).length > 0;
}

export async function recordDelivery(webhookId: string, topic: string, shop: string): Promise<void> {
  await execute(sql`
    INSERT INTO "WebhookDelivery" ("id", "topic", "shop", "receivedAt") VALUES (${webhookId}, ${topic}, ${shop}, ${new Date()})
    ON CONFLICT ("id") DO NOTHING`);
}

/** Shopify retries a delivery for at most 4 hours (48 h for compliance topics); a week of records is plenty. */
export const DELIVERY_RETENTION_MS = 7 * 24 * 3600_000;

export async function pruneDeliveries(now: Date): Promise<number> {
  const { count } = await prisma.webhookDelivery.deleteMany({ where: { receivedAt: { lt: new Date(now.getTime() - DELIVERY_RETENTION_MS) } } });
  return count;
}
