import { countEvent } from "~/core/db/daily-stats.server";
import type { ShopZone } from "~/shared/shop-day";
import { query, sql, sqliteIndexedBy, type Sql } from "~/core/db/sql.server";
import { hitRateLimit, peekRateLimit, rateLimitPeek } from "~/core/rate-limit/rate-limit.server";
import { databaseProvider } from "~/core/db.server";
import type { Shop } from "~/core/settings/shop.server";
import type { OrderFacts } from "~/core/shopify/order-facts";
import { clock } from "~/core/utils/clock.server";
import { keyedHash } from "~/core/utils/crypto.server";
import { behaviourReadings, postalArea, type BehaviourFacts, type RiskAssessment, type RiskBand } from "./score";
import { failureProbability } from "./calibration";
import { shopCalibration, unusualHourFor } from "./calibration.server";
import { codOffer, modesForOffer, pricingSettingsOf } from "./pricing";
import { normalizePostalCode } from "./signals";
import type { TrafficSource } from "~/shared/traffic-source";
import { cartRatioOf, orderAssessment as assembleOrderAssessment, phoneHistoryOf, shopperAssessment, type OrderRiskRow, type PhoneHistory, type PhoneHistoryRow, type RiskShop } from "./facts";
import { chosenModes } from "~/shared/payment-modes";
import { pinReasonOfOrderAddress } from "~/core/places/pin-directory.server";

/**
 * The risk score's facts read from the database (docs/risk.md): the phone's history in this shop, the
 * 24-hour velocity counters and the shop's usual COD order values. The scoring itself is pure
 * (app/risk/score.ts).
 */

export { phoneHistoryOf, riskSettingsOf, shopperAssessment, type OrderRiskRow, type PhoneHistory, type PhoneHistoryRow, type RiskShop } from "./facts";

const DAY_SECONDS = 86_400;
/** Counter keys follow `<purpose>:<shopId>:<subject>`, so customers/redact deletes the phone's (deleteRateCountersNaming). */
export const riskCodesKey = (shopId: string, phone: string) => `risk-codes:${shopId}:${phone}`;
export const riskIpKey = (shopId: string, ip: string) => `risk-ip:${shopId}:${ip}`;

/**
 * A storefront shopper's assessment before there is an order. `count` says which of this request's
 * hits to count (a code asked for the phone, a request from the IP) before reading the counters.
 * `withHistory` only once the caller proved the number: before that the answer must not reveal what
 * the number did in this shop.
 */
export async function assessShopper(
  shop: RiskShop,
  input: { phone: string; ip: string | null; withHistory: boolean; otpVerified: boolean | null; count: { code?: boolean; ip?: boolean }; source?: TrafficSource | null; behaviour?: BehaviourFacts | null },
): Promise<RiskAssessment> {
  const [codesForPhone, requestsFromIp, history] = await Promise.all([
    input.count.code ? hitRateLimit(riskCodesKey(shop.id, input.phone), Number.MAX_SAFE_INTEGER, DAY_SECONDS).then((r) => r.count) : peekRateLimit(riskCodesKey(shop.id, input.phone), DAY_SECONDS),
    !input.ip ? 0 : input.count.ip ? hitRateLimit(riskIpKey(shop.id, input.ip), Number.MAX_SAFE_INTEGER, DAY_SECONDS).then((r) => r.count) : peekRateLimit(riskIpKey(shop.id, input.ip), DAY_SECONDS),
    input.withHistory ? phoneHistory(shop.id, input.phone) : null,
  ]);
  return shopperAssessment(shop, { phone: input.phone, otpVerified: input.otpVerified, history, codesForPhone, requestsFromIp, source: input.source ?? null, behaviour: input.behaviour ?? null });
}

/** The risk score's 24-hour counters, as `hitRateLimit`/`peekRateLimit` count and read them. */
export const RISK_WINDOW_SECONDS = DAY_SECONDS;

/** The shop's columns the live behaviour readings need: its time zone and its recent orders' hours (kept with the calibration). */
export type HourShop = Partial<Pick<Shop, "timezone" | "riskCalibration">>;

/** An order's assessment on orders/create: the full facts, the order's own value and address, and whether its phone proved itself. */
export async function assessOrder(shop: RiskShop & HourShop, facts: OrderFacts, otpVerified: boolean): Promise<RiskAssessment> {
  const [row] = await query<OrderRiskRow>(sql`SELECT ${orderRiskColumns(shop.id, facts)}`);
  return orderAssessment(shop, facts, otpVerified, row);
}

/**
 * The order's risk facts as columns of a caller's own SELECT (orders/create reads them with the rest of
 * the order's facts, in one statement): the phone's history, the 24-hour counters, the shop's last 200
 * COD order values, the postal code's history and the shop's other COD orders from the order's IP in 24 hours.
 */
export function orderRiskColumns(shopId: string, facts: Pick<OrderFacts, "phones" | "gid" | "browserIp" | "shippingAddress">): Sql {
  const phone = facts.phones[0] ?? null;
  const postalCode = normalizePostalCode(facts.shippingAddress?.zip);
  const ipHash = orderIpHash(shopId, facts.browserIp);
  const now = clock.now().getTime();
  return sql`
    ${phone ? sql`${phoneHistoryColumns(shopId, phone, facts.gid)}, ${rateLimitPeek(riskCodesKey(shopId, phone), DAY_SECONDS, now)} AS "riskCodes",` : sql``}
    ${facts.browserIp ? sql`${rateLimitPeek(riskIpKey(shopId, facts.browserIp), DAY_SECONDS, now)} AS "riskIp",` : sql``}
    ${postalCode ? sql`${postalHistoryColumns(shopId, postalCode)},` : sql``}
    ${ipHash ? sql`${codOrdersFromIpColumn(shopId, ipHash, facts.gid)} AS "ordersFromIp",` : sql``}
    ${phone ? sql`${phoneValueColumns(shopId, phone, facts.gid)},` : sql``}
    ${usualCodValues(shopId)} AS "usualValues"`;
}

/**
 * The assessment from `orderRiskColumns`' row (what `assessOrder` computes): the pure assembly of
 * app/risk/facts.ts (the replay's too) with the order's PIN code read against its place, and the behaviour
 * readings: the modal's as verify-otp kept them on the selection the order names (`modal`), the order's hour
 * against the shop's (`unusual_hour`) and its value against the phone's earlier orders (`cart_unusual`). The
 * readings used are kept on the assessment, which the order's record stores.
 */
export function orderAssessment(shop: RiskShop & HourShop, facts: OrderFacts, otpVerified: boolean, row: OrderRiskRow | undefined, modal: BehaviourFacts | null = null): RiskAssessment {
  const behaviour = behaviourReadings({ ...modal, unusualHour: unusualHourFor(shop, facts.placedAt), cartRatio: cartRatioOf(facts.value, row) });
  const a = assembleOrderAssessment(shop, { ...facts, pinPlace: pinReasonOfOrderAddress(facts.shippingAddress) }, otpVerified, row, behaviour);
  return { ...a, behaviour };
}

/**
 * The phone's earlier COD orders' mean value and how many have one, for `cart_unusual`: only orders the phone
 * proved and did not dispute, so a stranger's orders with someone's number never make that number's cart look unusual.
 */
function phoneValueColumns(shopId: string, phone: string, exceptOrderGid: string): Sql {
  const mine = sql`FROM "OrderRecord" r WHERE r."shopId" = ${shopId} AND r."phone" = ${phone} AND r."cod" = ${true} AND r."value" IS NOT NULL AND r."orderGid" <> ${exceptOrderGid} AND ${proven} AND ${recordNotDisputed}`;
  return sql`(SELECT AVG(r."value") ${mine}) AS "phoneMeanValue", (SELECT COUNT(*) ${mine}) AS "phoneValues"`;
}

/**
 * A COD order's browser IP as its record keeps it (OrderRecord.ipHash): an HMAC under the app's secret,
 * keyed per shop so two shops' hashes of one IP never match. The IP itself is never stored.
 */
export function orderIpHash(shopId: string, ip: string | null): string | null {
  return ip ? keyedHash("order-ip", `${shopId}\0${ip}`) : null;
}

/** The shop's other COD orders from this IP hash in the last 24 hours (the (shopId, ipHash, placedAt) index), as a scalar subquery. */
function codOrdersFromIpColumn(shopId: string, ipHash: string, exceptOrderGid: string): Sql {
  const dayAgo = new Date(clock.now().getTime() - DAY_SECONDS * 1000);
  return sql`(SELECT COUNT(*) FROM "OrderRecord"
    WHERE "shopId" = ${shopId} AND "ipHash" = ${ipHash} AND "placedAt" > ${dayAgo} AND "cod" = ${true} AND "orderGid" <> ${exceptOrderGid})`;
}

/**
 * The phone's earlier orders in this shop, in one round trip, each order counted once: what became of it
 * when it was learnt (OrderOutcome: delivered or failed), else its verification after purchase
 * (OrderRecord: confirmed is good). Only history the phone proved counts against it (`PROVEN`): a
 * failure counts when the order was placed with a proof or confirmed by the phone's owner, so a stranger
 * who orders with someone else's number and leaves it unconfirmed (or has it cancelled) leaves no mark on
 * that number. An order its phone disputed ("I did not place this order") is out of the phone's history
 * altogether (`NOT_DISPUTED`).
 */
async function phoneHistory(shopId: string, phone: string, exceptOrderGid = ""): Promise<PhoneHistory> {
  const rows = await query<PhoneHistoryRow>(sql`SELECT ${phoneHistoryColumns(shopId, phone, exceptOrderGid)}`);
  return phoneHistoryOf(rows[0]);
}

/**
 * An order record `r` the phone proved: placed with a proof or a verified selection (verify-otp), or
 * confirmed after purchase with a code or the WhatsApp answer. Not a returning customer's order: the
 * customer record can be reached with an email alone, the phone proved nothing for that order.
 */
const PROVEN = `(r."status" = 'confirmed' OR (r."status" = 'verified' AND r."verifiedBy" IN ('proof', 'selection')))`;
/** The order `<alias>."orderGid"` was not disputed by its phone on the confirmation page. */
const notDisputed = (alias: string) =>
  `NOT EXISTS (SELECT 1 FROM "OrderConfirmation" c WHERE c."shopId" = ${alias}."shopId" AND c."orderGid" = ${alias}."orderGid" AND c."disputedAt" IS NOT NULL)`;

const proven = sql([PROVEN]);
const recordNotDisputed = sql([notDisputed("r")]);
const outcomeNotDisputed = sql([notDisputed("o")]);

/** `phoneHistory`'s four columns ("lastDay", "verified", "good", "bad"), for a caller's own SELECT. */
export function phoneHistoryColumns(shopId: string, phone: string, exceptOrderGid = ""): Sql {
  const dayAgo = new Date(clock.now().getTime() - DAY_SECONDS * 1000);
  return sql`
      (SELECT COUNT(*) FROM "OrderRecord" r WHERE r."shopId" = ${shopId} AND r."phone" = ${phone} AND r."cod" = ${true} AND r."placedAt" > ${dayAgo} AND r."orderGid" <> ${exceptOrderGid}
        AND ${proven} AND ${recordNotDisputed}) AS "lastDay",
      (SELECT 1 FROM "VerifiedCustomer" WHERE "shopId" = ${shopId} AND "phone" = ${phone}) AS "verified",
      (SELECT COUNT(*) FROM "OrderOutcome" o WHERE o."shopId" = ${shopId} AND o."phone" = ${phone} AND o."outcome" = 'delivered' AND o."orderGid" <> ${exceptOrderGid} AND ${outcomeNotDisputed})
        + (SELECT COUNT(*) FROM "OrderRecord" r WHERE r."shopId" = ${shopId} AND r."phone" = ${phone} AND r."status" = 'confirmed' AND r."orderGid" <> ${exceptOrderGid} AND ${recordNotDisputed}
          AND NOT EXISTS (SELECT 1 FROM "OrderOutcome" o WHERE o."shopId" = r."shopId" AND o."orderGid" = r."orderGid" AND o."outcome" <> 'none')) AS "good",
      (SELECT COUNT(*) FROM "OrderOutcome" o WHERE o."shopId" = ${shopId} AND o."phone" = ${phone} AND o."outcome" = 'failed' AND o."orderGid" <> ${exceptOrderGid}
        AND EXISTS (SELECT 1 FROM "OrderRecord" r WHERE r."shopId" = o."shopId" AND r."orderGid" = o."orderGid" AND ${proven} AND ${recordNotDisputed})) AS "bad"`;
}

/**
 * The postal code's learnt COD outcomes (delivered or failed; `none` is an order with nothing learnt) beside its wider area's (the codes sharing its prefix: a range
 * on the (shopId, postalCode) index, [prefix, next prefix)) and the shop's, as columns of a caller's SELECT.
 */
function postalHistoryColumns(shopId: string, postalCode: string): Sql {
  const prefix = postalArea(postalCode);
  // The first code after every code starting with the prefix: its last character moved one on.
  const end = prefix ? prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1) : "";
  // The shop's count names its index: SQLite, which keeps no statistics here, would read the wider (shopId, decidedAt, outcome).
  return sql`
      (SELECT COUNT(*) FROM "OrderOutcome" WHERE "shopId" = ${shopId} AND "postalCode" = ${postalCode} AND "outcome" <> 'none') AS "postalOrders",
      (SELECT COUNT(*) FROM "OrderOutcome" WHERE "shopId" = ${shopId} AND "postalCode" = ${postalCode} AND "outcome" = 'failed') AS "postalFailed",
      (SELECT COUNT(*) FROM "OrderOutcome" WHERE "shopId" = ${shopId} AND "postalCode" >= ${prefix ?? ""} AND "postalCode" < ${end} AND "outcome" <> 'none') AS "areaOrders",
      (SELECT COUNT(*) FROM "OrderOutcome" WHERE "shopId" = ${shopId} AND "postalCode" >= ${prefix ?? ""} AND "postalCode" < ${end} AND "outcome" = 'failed') AS "areaFailed",
      (SELECT COUNT(*) FROM "OrderOutcome"${sqliteIndexedBy("OrderOutcome_shopId_outcome_idx")} WHERE "shopId" = ${shopId} AND "outcome" <> 'none') AS "shopOrders",
      (SELECT COUNT(*) FROM "OrderOutcome" WHERE "shopId" = ${shopId} AND "outcome" = 'failed') AS "shopFailed"`;
}

/**
 * The shop's last 200 COD order values, comma-separated (NULL when none), for `percentile90`: each value
 * written with the digits that read back as the same number (PostgreSQL's shortest exact form; on SQLite, 17
 * significant digits). The predicate is written as the partial index "OrderRecord_cod_value_placedAt_idx" states it
 * (no parameter), so both engines read that index: at most 200 entries, however many orders have no value.
 */
export function usualCodValues(shopId: string): Sql {
  const text = databaseProvider === "postgresql" ? sql`string_agg(CAST("value" AS TEXT), ',')` : sql`group_concat(printf('%.17g', "value"), ',')`;
  return sql`(SELECT ${text} FROM (
      SELECT "value" FROM "OrderRecord" WHERE "shopId" = ${shopId} AND "cod" AND "value" IS NOT NULL
      ORDER BY "placedAt" DESC LIMIT 200) "usual")`;
}

/** What a storefront answer carries about the assessment (additive fields): the band and the reasons in words, no points. */
export function publicRisk(a: RiskAssessment) {
  const reasons = [...(a.rule ? [a.rule] : []), ...a.reasons.filter((r) => r.points > 0)].map((r) => ({ code: r.code, text: r.text }));
  return { band: a.band, reasons };
}

/** The shop's columns that decide what a band does to cash on delivery. */
export type PricedShop = Pick<Shop, "paymentModes" | "currency" | "riskCalibration" | "riskMediumAction" | "riskHighAction" | "riskDepositMin" | "riskDepositMax" | "codFailureCost">;

/** What the shopper is offered for this assessment (`band`: the assessment's unless the answer is itself a refusal of COD). */
export function offerFor(shop: PricedShop, a: RiskAssessment, band: RiskBand = a.band, orderValue: number | null = null) {
  const probability = failureProbability(shopCalibration(shop.riskCalibration), a.score);
  return { probability, ...codOffer(band, probability, pricingSettingsOf(shop), orderValue) };
}

/** Whether the band refuses or prices: plain cash on delivery is not offered (counted as refused on the Risk page). */
export function codTakenAway(shop: PricedShop, a: RiskAssessment, band: RiskBand = a.band): boolean {
  const { action } = offerFor(shop, a, band);
  return action === "refuse" || action === "price";
}

/**
 * What a storefront answer adds about the shopper (docs/risk.md, additive): the modes this shopper may
 * choose among the shop's, the band with its reasons in words, and a priced deposit when the band prices
 * (its amount in the shop's currency, whole units).
 */
export function modeChoice(shop: PricedShop, a: RiskAssessment, band: RiskBand = a.band, held?: Pick<ReturnType<typeof offerFor>, "action" | "deposit">) {
  // `held`: the offer a proof already carries (create-checkout), which today's score cannot loosen.
  const offer = held ?? offerFor(shop, a, band);
  return {
    allowedModes: modesForOffer(offer.action, chosenModes(shop.paymentModes)),
    risk: publicRisk(a),
    ...(offer.deposit != null ? { deposit: { amount: offer.deposit, currency: shop.currency ?? null } } : {}),
  };
}
export type ModeChoice = ReturnType<typeof modeChoice>;

/** The reason that decided a high band: the merchant's rule, else the reason that added the most points. */
export function decidingReason(a: RiskAssessment): string {
  if (a.rule) return a.rule.code;
  const top = a.reasons.filter((r) => r.points > 0).sort((x, y) => y.points - x.points)[0];
  return top?.code ?? "";
}

/** Counts cash on delivery refused to a high-risk shopper in the daily rollup, by its deciding reason (the Risk page's 30 days). */
export async function countCodRefused(shop: ShopZone, a: RiskAssessment): Promise<void> {
  await countEvent(shop, "cod_refused", decidingReason(a));
}
