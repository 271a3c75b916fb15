import { z } from "zod";
import { shopifyGraphql } from "~/core/shopify/graphql.server";
import { DELIVERY_ANSWER_METAFIELD, ORDER_BALANCE_DUE, ORDER_NOTE, ORDER_NOTE_UPDATE, TAGS_ADD } from "~/core/shopify/operations";

/** The Admin API calls of the delivery room, each reply read through its zod schema; every failure is a value. */
type Call<T> = { ok: true; data: T } | { ok: false; error: string; retry: boolean };

async function admin<T>(shop: string, query: string, variables: Record<string, unknown>, schema: z.ZodType<T>): Promise<Call<T>> {
  const result = await shopifyGraphql<unknown>("admin", shop, query, { variables });
  if (!result.ok) return { ok: false, error: `${result.cause}: ${result.detail}`.slice(0, 500), retry: true };
  const parsed = schema.safeParse(result.data);
  if (!parsed.success) return { ok: false, error: `invalid_response: ${parsed.error.message.slice(0, 200)}`, retry: true };
  return { ok: true, data: parsed.data };
}

const userErrors = z.array(z.object({ field: z.array(z.string()).nullish(), message: z.string() }));

const balanceReply = z.object({
  order: z
    .object({
      id: z.string(),
      name: z.string(),
      cancelledAt: z.string().nullable(),
      totalOutstandingSet: z.object({ shopMoney: z.object({ amount: z.string(), currencyCode: z.string() }) }),
      paymentCollectionDetails: z.object({ additionalPaymentCollectionUrl: z.string().url().nullable() }).nullable(),
    })
    .nullable(),
});
export type OrderBalance = NonNullable<z.infer<typeof balanceReply>["order"]>;

/** The order's balance due (what to keep ready on delivery) and Shopify's page to pay it, or null for an order Shopify does not know. */
export async function readOrderBalance(shop: string, orderGid: string): Promise<Call<OrderBalance | null>> {
  const read = await admin(shop, ORDER_BALANCE_DUE, { id: orderGid }, balanceReply);
  return read.ok ? { ok: true, data: read.data.order } : read;
}

/** The answer's tag on the order (tagsAdd appends; a second run adds nothing new). */
export async function tagDeliveryAnswer(shop: string, orderGid: string, tags: string[]): Promise<Call<null>> {
  const added = await admin(shop, TAGS_ADD, { id: orderGid, tags }, z.object({ tagsAdd: z.object({ userErrors }) }));
  if (!added.ok) return added;
  if (added.data.tagsAdd.userErrors.length) return { ok: false, error: `user_errors: ${JSON.stringify(added.data.tagsAdd.userErrors).slice(0, 300)}`, retry: false };
  return { ok: true, data: null };
}

/**
 * The answer as the app's JSON metafield on the order (`cod_verify.delivery_answer`), for a courier or
 * shipping app that reads the order; metafieldsSet replaces it, so a second run writes the same value.
 */
export async function writeDeliveryAnswerMetafield(shop: string, orderGid: string, value: Record<string, string | null>): Promise<Call<null>> {
  const set = await admin(
    shop,
    DELIVERY_ANSWER_METAFIELD,
    { metafields: [{ ownerId: orderGid, namespace: "cod_verify", key: "delivery_answer", type: "json", value: JSON.stringify(value) }] },
    z.object({ metafieldsSet: z.object({ userErrors }) }),
  );
  if (!set.ok) return set;
  if (set.data.metafieldsSet.userErrors.length) return { ok: false, error: `user_errors: ${JSON.stringify(set.data.metafieldsSet.userErrors).slice(0, 300)}`, retry: false };
  return { ok: true, data: null };
}

const noteReply = z.object({ order: z.object({ id: z.string(), note: z.string().nullable() }).nullable() });

/**
 * Appends a line to the order's note unless the note has it already (a second run, or a merchant who
 * kept it). `orderUpdate` replaces the whole note, so it is read first: an edit the merchant saves in
 * the moment between the two calls is the one thing this can overwrite.
 */
export async function appendOrderNote(shop: string, orderGid: string, line: string): Promise<Call<null>> {
  const read = await admin(shop, ORDER_NOTE, { id: orderGid }, noteReply);
  if (!read.ok) return read;
  if (!read.data.order) return { ok: false, error: "order_not_found", retry: false };
  const note = read.data.order.note ?? "";
  if (note.includes(line)) return { ok: true, data: null };
  const updated = await admin(
    shop,
    ORDER_NOTE_UPDATE,
    { input: { id: orderGid, note: note ? `${note}\n${line}` : line } },
    z.object({ orderUpdate: z.object({ userErrors }) }),
  );
  if (!updated.ok) return updated;
  if (updated.data.orderUpdate.userErrors.length) return { ok: false, error: `user_errors: ${JSON.stringify(updated.data.orderUpdate.userErrors).slice(0, 300)}`, retry: false };
  return { ok: true, data: null };
}
