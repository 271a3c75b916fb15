import { z } from "zod";
import { prisma } from "~/core/db.server";
import { BALANCE_LINE_TITLE, currencyDigits, depositCodeOf, DEPOSIT_CODE_PREFIX } from "~/shared/deposit";
import { defineJob, orderJobKey, planJob, type JobResult, type PlannedJob } from "~/core/jobs/queue.server";
import { sql, type Sql } from "~/core/db/sql.server";
import type { Shop } from "~/core/settings/shop.server";
import { ORDER_BALANCE_LINES, ORDER_EDIT_ADD_CUSTOM_ITEM, ORDER_EDIT_BEGIN, ORDER_EDIT_COMMIT } from "~/core/shopify/checkout-operations";
import { TAGS_ADD, TAGS_REMOVE } from "~/core/shopify/operations";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import { admin, holdFulfillment, releaseOurHolds, userErrors, type HoldKind } from "./confirmation/holds.server";
import type { OrderFacts } from "~/core/shopify/order-facts";
import { enqueueOrderTags } from "./tag-jobs.server";

/**
 * The second half of partial on a store without draft-order deposits: the order came in at the
 * deposit price (our single-use code took the balance off), and this job adds the balance back as a
 * custom line, so the order's total is the full price, its paid amount the deposit and its outstanding
 * amount the balance, collected in cash on delivery (docs/decisions/partial-deposit-by-discount-and-edit.md).
 *
 * Exactly once: before editing, the job reads the order and does nothing if the balance line is there
 * (a commit whose answer was lost, a crash before the job was marked done). Until the line is added,
 * the order is held (our own hold handle) and tagged BALANCE_MISSING_TAG, so it is never shipped at the
 * deposit price; the hold and tag go once the line is there. Retried with the queue's backoff; after
 * the last attempt the job stays failed (`npm run jobs`), and the order stays held and tagged.
 */
export const BALANCE_MISSING_TAG = "cod-balance-missing";
/** A deposit code on an order that is not the one it was made for (another cart, another amount): the merchant looks. */
export const DEPOSIT_MISMATCH_TAG = "cod-deposit-mismatch";
export const BALANCE_HOLD: HoldKind = {
  handle: "cod-verify-balance",
  reasonNotes: "Partial payment: the balance due on delivery could not be added to this order yet. Do not ship until it is (or add it yourself).",
};
/** About 17 hours of tries with the queue's backoff (30 s doubling to 1 h). */
export const BALANCE_MAX_ATTEMPTS = 20;

const payload = z.object({
  orderGid: z.string().regex(/^gid:\/\/shopify\/Order\/\d+$/),
  /** The selection the code was made for (null: a code of ours the database does not know). */
  selectionId: z.string().nullable(),
  /** The deposit code the order used (jobs queued before it was carried: any code of ours on the order). */
  code: z.string().optional(),
  /**
   * What orders/create's `discount_codes[].amount` said the code took, in `currency`. Only logged: the
   * balance added is what the order's own discount allocations say in its presentment currency.
   */
  amount: z.number().positive(),
  currency: z.string().min(3).max(3),
});
type BalancePayload = z.infer<typeof payload>;

export const depositBalanceJob = defineJob({
  kind: "partial.add-balance",
  payload,
  maxAttempts: BALANCE_MAX_ATTEMPTS,
  run: (p, { shop }) => addBalance(shop, p),
});

/**
 * orders/create: an order that used one of our deposit codes gets its balance job. The balance is what
 * the code took off this order (the order's own figure), whichever cart it was used on, so a code carried
 * to another cart still leaves that order owing the full price. A forged attribute grants nothing: only
 * a code the app created takes anything off, and an order without one queues nothing.
 *
 * orders/create reads the code's selection with the rest of the order's facts (`depositSelectionColumns`)
 * and writes what this returns with the rest of the order: the balance job, and the order's tags.
 */
export function depositBalanceFor(shop: Pick<Shop, "domain" | "currency">, facts: OrderFacts, row: DepositSelectionRow | undefined): { jobs: PlannedJob[]; tags: string[] } {
  const used = depositCodeOf(facts.discountCodes);
  if (!used || !(used.amount > 0)) return { jobs: [], tags: [] };
  const selection = row?.depositSelectionId ? { id: row.depositSelectionId, depositCurrency: row.depositSelectionCurrency ?? null } : null;
  const tags: string[] = [];
  // Whether the code took its selection's balance is checked by the job, on the order's own allocations.
  if (!selection || facts.selectionId !== selection.id) {
    log.warn("partial: a deposit code on an order that is not its selection's; the balance it took is added all the same", {
      shop: shop.domain,
      orderGid: facts.gid,
      codeSelection: selection?.id ?? null,
      orderSelection: facts.selectionId,
    });
    tags.push(DEPOSIT_MISMATCH_TAG);
  }
  const currency = facts.currency ?? selection?.depositCurrency ?? shop.currency;
  if (!currency) {
    log.error("partial: no currency for the balance line", { shop: shop.domain, orderGid: facts.gid });
    return { jobs: [], tags };
  }
  const job = planJob(depositBalanceJob, {
    shop: shop.domain,
    key: orderJobKey(shop.domain, facts.gid),
    payload: { orderGid: facts.gid, selectionId: selection?.id ?? null, code: used.code, amount: used.amount, currency },
  });
  return { jobs: [job], tags };
}

export type DepositSelectionRow = { depositSelectionId?: string | null; depositSelectionCurrency?: string | null };

/** The selection of the deposit code the order used (none: no code of ours), as columns of a caller's own SELECT. */
export function depositSelectionColumns(shopId: string, facts: Pick<OrderFacts, "discountCodes">): Sql {
  const used = depositCodeOf(facts.discountCodes);
  if (!used || !(used.amount > 0)) return sql`NULL AS "depositSelectionId"`;
  return sql`
    (SELECT "id" FROM "Selection" WHERE "shopId" = ${shopId} AND "depositCode" = ${used.code}) AS "depositSelectionId",
    (SELECT "depositCurrency" FROM "Selection" WHERE "shopId" = ${shopId} AND "depositCode" = ${used.code}) AS "depositSelectionCurrency"`;
}

/**
 * Whether the code took the balance it was made for. In the shop's currency the code is a fixed amount:
 * exactly. In another currency it is a percentage Shopify rounds line by line: within one smallest unit
 * of the currency per line of the selection.
 */
function tookItsBalance(selection: { balanceAmount: number | null; depositCurrency: string | null; items: string | null }, taken: number, shopCurrency: string | null): boolean {
  if (selection.balanceAmount === null) return false;
  const percentageCode = !!selection.depositCurrency && !!shopCurrency && selection.depositCurrency !== shopCurrency;
  if (!percentageCode) return selection.balanceAmount === taken;
  let lines = 1;
  try {
    const items: unknown = JSON.parse(selection.items ?? "[]");
    if (Array.isArray(items) && items.length) lines = items.length;
  } catch {
    // unreadable items: one line's rounding
  }
  const unit = 10 ** -currencyDigits(selection.depositCurrency);
  return Math.abs(selection.balanceAmount - taken) <= lines * unit + unit / 1000;
}

const moneyV2 = z.object({ amount: z.coerce.number().finite(), currencyCode: z.string().length(3) });
const moneyBag = z.object({ presentmentMoney: moneyV2, shopMoney: moneyV2 });
const balanceRead = z.object({
  order: z
    .object({
      id: z.string(),
      cancelledAt: z.string().nullable(),
      presentmentCurrencyCode: z.string().length(3),
      lineItems: z.object({
        nodes: z.array(
          z.object({
            id: z.string(),
            title: z.string(),
            requiresShipping: z.boolean(),
            // A discount application that is not a code's (automatic, manual, script) answers `{}`.
            discountAllocations: z.array(z.object({ allocatedAmountSet: moneyBag, discountApplication: z.object({ code: z.string().optional() }) })),
          }),
        ),
      }),
      currentTotalPriceSet: moneyBag.nullish(),
      totalOutstandingSet: moneyBag.nullish(),
    })
    .nullable(),
});
type OrderRead = NonNullable<z.infer<typeof balanceRead>["order"]>;

/** The balance line as the app adds it: its title, nothing to ship (a product line is read without its variant: that would need read_products). */
function isBalanceLine(line: OrderRead["lineItems"]["nodes"][number]): boolean {
  return line.title === BALANCE_LINE_TITLE && !line.requiresShipping;
}

/**
 * What the deposit code took off this order, in the order's presentment currency, from its line items'
 * discount allocations (the code is limited to the items, so no shipping line carries it). Null when the
 * order shows no allocation of the code, or allocations in another currency than the order's.
 */
export function depositTaken(order: OrderRead, code: string | undefined): { amount: number; currency: string } | null {
  const ours = (c: string | undefined) => !!c && (code ? c.toUpperCase() === code.toUpperCase() : c.toUpperCase().startsWith(DEPOSIT_CODE_PREFIX));
  const allocations = order.lineItems.nodes.flatMap((l) => l.discountAllocations).filter((a) => ours(a.discountApplication.code));
  if (!allocations.length) return null;
  const currency = order.presentmentCurrencyCode;
  if (allocations.some((a) => a.allocatedAmountSet.presentmentMoney.currencyCode !== currency)) return null;
  const f = 10 ** currencyDigits(currency);
  const amount = Math.round(allocations.reduce((s, a) => s + a.allocatedAmountSet.presentmentMoney.amount, 0) * f) / f;
  return amount > 0 ? { amount, currency } : null;
}
const beginReply = z.object({ orderEditBegin: z.object({ calculatedOrder: z.object({ id: z.string() }).nullable(), userErrors }) });
const addReply = z.object({ orderEditAddCustomItem: z.object({ calculatedLineItem: z.object({ id: z.string() }).nullable(), userErrors }) });
const commitReply = z.object({ orderEditCommit: z.object({ order: z.object({ id: z.string() }).nullable(), userErrors }) });
const tagsReply = (field: "tagsAdd" | "tagsRemove") => z.object({ [field]: z.object({ userErrors }) });

type Step = { ok: true; already?: boolean; balance?: { amount: number; currency: string } } | { ok: false; error: string; retry: boolean };

async function addBalance(shop: string, p: BalancePayload): Promise<JobResult> {
  const added = await addBalanceLine(shop, p);
  if (added.ok) {
    const now = clock.now();
    if (p.selectionId) await prisma.selection.updateMany({ where: { id: p.selectionId, balanceAddedAt: null }, data: { balanceAddedAt: now } });
    // The hold and tag go once the balance is on the order (whoever placed them, whatever was recorded).
    const released = await releaseOurHolds(shop, p.orderGid, BALANCE_HOLD.handle);
    if (!released.ok) return { ok: false, error: `balance added; hold not released: ${released.error}` };
    const untagged = await admin(shop, TAGS_REMOVE, { id: p.orderGid, tags: [BALANCE_MISSING_TAG] }, tagsReply("tagsRemove"));
    if (!untagged.ok) return { ok: false, error: `balance added; tag not removed: ${untagged.error}` };
    if (p.selectionId) await prisma.selection.updateMany({ where: { id: p.selectionId }, data: { balanceHeldAt: null } });
    log.info("partial: balance added to the order", { shop, orderGid: p.orderGid, ...(added.balance ?? {}), webhookAmount: p.amount, webhookCurrency: p.currency, already: !!added.already });
    return { ok: true };
  }
  // Not added: the order must not ship at the deposit price. Held and tagged for the merchant (each run
  // tries again while it is not done), then the edit is retried by the queue.
  await holdForMerchant(shop, p);
  return { ok: false, error: added.error, retry: added.retry };
}

async function holdForMerchant(shop: string, p: BalancePayload) {
  const tagged = await admin(shop, TAGS_ADD, { id: p.orderGid, tags: [BALANCE_MISSING_TAG] }, tagsReply("tagsAdd"));
  const held = await holdFulfillment(shop, p.orderGid, BALANCE_HOLD);
  if (tagged.ok && held.ok && p.selectionId) {
    await prisma.selection.updateMany({ where: { id: p.selectionId, balanceHeldAt: null }, data: { balanceHeldAt: clock.now() } });
  }
  if (!tagged.ok || !held.ok) {
    log.warn("partial: the order could not be held for its missing balance yet", { shop, orderGid: p.orderGid, tag: tagged.ok ? "ok" : tagged.error, hold: held.ok ? "ok" : held.error });
  }
}

/** Reads the order, then begin / add the balance line / commit without notifying the shopper; nothing when the line is there. */
async function addBalanceLine(shop: string, p: BalancePayload): Promise<Step> {
  const read = await admin(shop, ORDER_BALANCE_LINES, { id: p.orderGid }, balanceRead);
  if (!read.ok) return { ok: false, error: read.error, retry: true };
  const order = read.data.order;
  if (!order) return { ok: false, error: "order not found", retry: false };
  if (order.lineItems.nodes.some((l) => isBalanceLine(l))) return { ok: true, already: true };
  if (order.cancelledAt) return { ok: true, already: true };
  // The balance is what the code took off this order, in its presentment currency, as the order says it.
  const taken = depositTaken(order, p.code);
  if (!taken) return { ok: false, error: `the order shows no allocation of the deposit code ${p.code ?? ""} in ${order.presentmentCurrencyCode}`, retry: false };
  await checkBalanceTaken(shop, p, taken);
  const amount = taken.amount.toFixed(currencyDigits(taken.currency));

  const begun = await admin(shop, ORDER_EDIT_BEGIN, { id: p.orderGid }, beginReply);
  if (!begun.ok) return { ok: false, error: begun.error, retry: true };
  const calculated = begun.data.orderEditBegin.calculatedOrder;
  if (!calculated) return refused("orderEditBegin", begun.data.orderEditBegin.userErrors);

  const line = await admin(
    shop,
    ORDER_EDIT_ADD_CUSTOM_ITEM,
    // Taxable like the items it stands for; nothing more to ship.
    { id: calculated.id, title: BALANCE_LINE_TITLE, price: { amount, currencyCode: taken.currency }, quantity: 1, taxable: true, requiresShipping: false },
    addReply,
  );
  if (!line.ok) return { ok: false, error: line.error, retry: true };
  if (!line.data.orderEditAddCustomItem.calculatedLineItem) return refused("orderEditAddCustomItem", line.data.orderEditAddCustomItem.userErrors);

  const committed = await admin(
    shop,
    ORDER_EDIT_COMMIT,
    { id: calculated.id, notifyCustomer: false, staffNote: `Partial payment: the balance of ${amount} ${taken.currency} is due in cash on delivery.` },
    commitReply,
  );
  if (!committed.ok) return { ok: false, error: committed.error, retry: true };
  if (!committed.data.orderEditCommit.order) return refused("orderEditCommit", committed.data.orderEditCommit.userErrors);
  return { ok: true, balance: taken };
}

/** The code took another amount than its selection's balance (in the selection's currency): tagged for the merchant, added all the same. */
async function checkBalanceTaken(shop: string, p: BalancePayload, taken: { amount: number; currency: string }) {
  if (!p.selectionId) return;
  const selection = await prisma.selection.findUnique({ where: { id: p.selectionId }, select: { balanceAmount: true, depositCurrency: true, items: true, shop: { select: { currency: true } } } });
  if (!selection) return;
  const sameCurrency = !selection.depositCurrency || selection.depositCurrency === taken.currency;
  if (sameCurrency && tookItsBalance(selection, taken.amount, selection.shop.currency)) return;
  log.warn("partial: the deposit code took another amount than its selection's balance; the amount it took is added", {
    shop,
    orderGid: p.orderGid,
    expected: selection.balanceAmount,
    expectedCurrency: selection.depositCurrency,
    taken: taken.amount,
    currency: taken.currency,
  });
  await enqueueOrderTags(shop, p.orderGid, [DEPOSIT_MISMATCH_TAG]);
}

/** Shopify refused the edit: retried all the same (a refusal can pass, e.g. an edit already open), the order held meanwhile. */
function refused(step: string, errors: z.infer<typeof userErrors>): Step {
  return { ok: false, error: `${step} refused: ${errors.map((e) => e.message).join("; ")}`.slice(0, 500), retry: true };
}
