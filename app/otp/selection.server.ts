import { query, execute, joinSql, sql, type Sql } from "~/core/db/sql.server";
import { clock } from "~/core/utils/clock.server";
import { randomHex } from "~/core/utils/crypto.server";

import type { PaymentMode } from "~/shared/payment-modes";
import type { BehaviourFacts } from "~/risk/score";

export type SelectionInput = {
  shopId: string;
  phone: string;
  mode: PaymentMode;
  source: "verify-otp" | "create-checkout";
  verified?: boolean;
  verifiedAt?: Date | null;
  cartToken?: string | null;
  items?: { variantId: string; quantity: number }[] | null;
  checkoutUrl?: string | null;
  draftOrderGid?: string | null;
  /**
   * The behaviour readings verify-otp's risk score used (docs/risk.md, "Behaviour"), kept with the journey's
   * selection: orders/create scores the order that names this selection with them, and they leave with the
   * selection (retention, customers/redact). None given: the selection keeps what it has.
   */
  riskBehaviour?: BehaviourFacts | null;
};

/** How long an unlinked selection is taken as the same shopping session and updated rather than duplicated. */
export const SELECTION_REUSE_MS = 24 * 60 * 60 * 1000;

/**
 * Records the shopper's choice: the latest unlinked selection of this shop and phone from the last
 * 24 hours is updated (verify-otp, then create-checkout, are one journey); otherwise a new one is made.
 * A verified selection never becomes unverified by a later update, and a caller who has not proven the
 * number never takes one over: create-checkout puts the selection's id and cart token on the cart, and
 * an order that carries a verified selection is verified (app/orders/order-verification.server.ts), so
 * anyone making a cart for the number of a shopper who verified and left would carry their verification.
 *
 * Concurrency: the update repeats the lookup's conditions (still unlinked, still one this caller may
 * take over), so a selection linked to an order, or verified, between the read and the write is never
 * rewritten or handed out: the caller gets a new one. Two concurrent calls for one phone may each insert
 * a selection; that is harmless, because each cart names its own selection and an order is linked to the
 * one it names (by id or cart token) before any lookup by phone, which only names the mode.
 */
export async function recordSelection(input: SelectionInput): Promise<{ id: string }> {
  const statements = selectionStatements(input, clock.now());
  const open = await query<{ id: string }>(statements.lookup);
  if (open[0]) {
    const updated = await execute(statements.update(sql`${open[0].id}`));
    if (updated === 1) return { id: open[0].id };
  }
  await execute(statements.insert());
  return { id: statements.newId };
}

/**
 * `recordSelection`'s statements, for a caller that runs them with its own (verify-otp: in the same
 * transaction or statement as the code's consumption). `lookup` finds the selection to update;
 * `update(id)` updates it only while it is still one this caller may take over (1 row, or 0: insert
 * instead); `insert(source)` makes a new one with id `newId` (`source`: `SELECT ... <source>` instead
 * of `VALUES`, a PostgreSQL CTE's earlier step).
 */
export function selectionStatements(input: SelectionInput, now: Date) {
  const verified = input.verified === true;
  const verifiedAt = verified ? (input.verifiedAt ?? now) : null;
  const cartToken = input.cartToken || null;
  const items = input.items ? JSON.stringify(input.items) : null;
  const checkoutUrl = input.checkoutUrl || null;
  const draftOrderGid = input.draftOrderGid || null;
  const riskBehaviour = input.riskBehaviour ? JSON.stringify(input.riskBehaviour) : null;
  const newId = newSelectionId();
  // Direct statements: this runs on every verify-otp and create-checkout (app/core/db/sql.server.ts).
  // An unproven caller may reuse only a selection that is not verified.
  const lookup = verified
    ? sql`
        SELECT "id" FROM "Selection"
        WHERE "shopId" = ${input.shopId} AND "phone" = ${input.phone} AND "orderGid" IS NULL
          AND "createdAt" >= ${new Date(now.getTime() - SELECTION_REUSE_MS)}
        ORDER BY "createdAt" DESC LIMIT 1`
    : sql`
        SELECT "id" FROM "Selection"
        WHERE "shopId" = ${input.shopId} AND "phone" = ${input.phone} AND "orderGid" IS NULL AND "verified" = ${false}
          AND "createdAt" >= ${new Date(now.getTime() - SELECTION_REUSE_MS)}
        ORDER BY "createdAt" DESC LIMIT 1`;
  // Fields not given keep their value; a verified selection stays verified. Only while it is still
  // unlinked, and (for an unproven caller) still unverified: otherwise a new selection.
  const update = (id: Sql, also: Sql = sql``) => sql`
      UPDATE "Selection" SET
        "mode" = ${input.mode}, "source" = ${input.source},
        "verified" = CASE WHEN ${verified} THEN ${true} ELSE "verified" END,
        "verifiedAt" = COALESCE(${verifiedAt}, "verifiedAt"),
        "cartToken" = COALESCE(${cartToken}, "cartToken"),
        "items" = COALESCE(${items}, "items"),
        "checkoutUrl" = COALESCE(${checkoutUrl}, "checkoutUrl"),
        "draftOrderGid" = COALESCE(${draftOrderGid}, "draftOrderGid"),
        "riskBehaviour" = COALESCE(${riskBehaviour}, "riskBehaviour"),
        "updatedAt" = ${now}
      WHERE "id" = ${id} AND "orderGid" IS NULL AND ("verified" = ${false} OR ${verified})${also}`;
  const insert = (source?: Sql) => {
    const values = [input.shopId, input.phone, input.mode, verified, verifiedAt, cartToken, items, checkoutUrl, draftOrderGid, riskBehaviour, input.source, now, now];
    const row = source
      ? sql`SELECT ${newId}, ${joinSql(values.map((v) => sql`${v}`), ", ")} ${source}`
      : sql`VALUES (${newId}, ${joinSql(values.map((v) => sql`${v}`), ", ")})`;
    return sql`
      INSERT INTO "Selection" ("id", "shopId", "phone", "mode", "verified", "verifiedAt", "cartToken", "items", "checkoutUrl",
        "draftOrderGid", "riskBehaviour", "source", "createdAt", "updatedAt")
      ${row}`;
  };
  return { lookup, update, insert, newId };
}

/** A selection id of the shape Prisma's cuid() default gives (letters and digits, 25 characters). */
function newSelectionId(): string {
  return `c${Date.now().toString(36)}${randomHex(10)}`.slice(0, 25);
}
