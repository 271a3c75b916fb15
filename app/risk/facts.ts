import type { Shop } from "~/core/settings/shop.server";
import type { OrderFacts } from "~/core/shopify/order-facts";
import { parseSourceList, type TrafficSource } from "~/shared/traffic-source";
import { parsePhoneList, parsePostalCodeList, postalArea, scoreRisk, type BehaviourFacts, type PostalHistory, type RiskAssessment, type RiskFacts, type RiskSettings } from "./score";
import { normalizePostalCode, percentile90 } from "./signals";

/**
 * The risk score's facts assembled from what the database read (app/risk/assess.server.ts reads it in
 * the storefront's and orders/create's own statements) or what a replay counted (app/risk/replay.ts):
 * one path from counts to an assessment, pure, so a replayed history is scored by the app's own code.
 */

export type RiskShop = Pick<
  Shop,
  | "id"
  | "riskMediumThreshold"
  | "riskHighThreshold"
  | "riskDeniedPostalCodes"
  | "riskPrepaidPhones"
  | "riskCodValueCap"
  | "riskPhoneCodeLimit"
  | "riskIpAttemptLimit"
  | "riskPhoneOrderLimit"
  | "riskIpOrderLimit"
  | "riskPrepaidSources"
>;

export function riskSettingsOf(shop: RiskShop): RiskSettings {
  return {
    mediumThreshold: shop.riskMediumThreshold,
    highThreshold: shop.riskHighThreshold,
    deniedPostalCodes: parsePostalCodeList(shop.riskDeniedPostalCodes),
    prepaidPhones: parsePhoneList(shop.riskPrepaidPhones),
    codValueCap: shop.riskCodValueCap ?? null,
    phoneCodeLimit: shop.riskPhoneCodeLimit ?? null,
    ipAttemptLimit: shop.riskIpAttemptLimit ?? null,
    phoneOrderLimit: shop.riskPhoneOrderLimit ?? null,
    ipOrderLimit: shop.riskIpOrderLimit ?? null,
    prepaidSources: parseSourceList(shop.riskPrepaidSources),
  };
}

/**
 * The same assessment from facts a caller read itself (send-otp and verify-otp read them in the
 * statement that makes their decision): the 24-hour counters, and the history once the number is proven.
 */
export function shopperAssessment(
  shop: RiskShop,
  input: { phone: string; otpVerified: boolean | null; history: PhoneHistory | null; codesForPhone: number; requestsFromIp: number; source?: TrafficSource | null; behaviour?: BehaviourFacts | null },
): RiskAssessment {
  const facts: RiskFacts = {
    phone: input.phone,
    otpVerified: input.otpVerified,
    history: input.history,
    address: null,
    orderValue: null,
    usualValueP90: null,
    velocity: { codesForPhone: input.codesForPhone, requestsFromIp: input.requestsFromIp, ordersForPhone: input.history ? input.history.ordersLastDay + 1 : null },
    trafficSource: input.source ?? null,
    behaviour: input.behaviour ?? null,
  };
  return scoreRisk(facts, riskSettingsOf(shop));
}

/** What `orderRiskColumns` reads, by column. */
export type OrderRiskRow = Partial<PhoneHistoryRow & PostalHistoryRow> & { riskCodes?: unknown; riskIp?: unknown; usualValues?: unknown; ordersFromIp?: unknown; phoneMeanValue?: unknown; phoneValues?: unknown };

/** This cart's value over the mean of the phone's earlier orders' (`cart_unusual`), or null with fewer than two of them or no value. */
export function cartRatioOf(value: number | null, row: Pick<OrderRiskRow, "phoneMeanValue" | "phoneValues"> | undefined): number | null {
  const mean = Number(row?.phoneMeanValue ?? 0);
  return value != null && Number(row?.phoneValues ?? 0) >= 2 && mean > 0 ? value / mean : null;
}

/** The assessment from `orderRiskColumns`' row (what `assessOrder` computes). */
export function orderAssessment(
  shop: RiskShop,
  facts: Pick<OrderFacts, "phones" | "shippingAddress" | "value" | "browserIp" | "trafficSource"> & Pick<RiskFacts, "pinPlace">,
  otpVerified: boolean,
  row: OrderRiskRow | undefined,
  behaviour: BehaviourFacts | null = null,
): RiskAssessment {
  const phone = facts.phones[0] ?? null;
  const postalCode = normalizePostalCode(facts.shippingAddress?.zip);
  const history = phone ? phoneHistoryOf(row as PhoneHistoryRow) : null;
  const values = row?.usualValues == null ? [] : String(row.usualValues).split(",").map(Number);
  return scoreRisk(
    {
      phone,
      otpVerified,
      history,
      address: facts.shippingAddress ?? null,
      orderValue: facts.value,
      usualValueP90: percentile90(values),
      postalHistory: postalCode ? postalHistoryOf(postalCode, row) : null,
      trafficSource: facts.trafficSource,
      pinPlace: facts.pinPlace ?? null,
      behaviour,
      velocity: {
        codesForPhone: phone ? Number(row?.riskCodes ?? 0) : 0,
        requestsFromIp: facts.browserIp ? Number(row?.riskIp ?? 0) : 0,
        ordersForPhone: history ? history.ordersLastDay + 1 : null,
        ordersFromIp: facts.browserIp ? Number(row?.ordersFromIp ?? 0) + 1 : null,
      },
    },
    riskSettingsOf(shop),
  );
}

/** The phone's history, and its COD orders in the last 24 hours (the per-phone order velocity rule). */
export type PhoneHistory = NonNullable<RiskFacts["history"]> & { ordersLastDay: number };
export type PhoneHistoryRow = { verified: unknown; good: unknown; bad: unknown; lastDay: unknown };

export function phoneHistoryOf(row: PhoneHistoryRow | undefined): PhoneHistory {
  return { verifiedBefore: row?.verified != null, goodOrders: Number(row?.good ?? 0), badOrders: Number(row?.bad ?? 0), ordersLastDay: Number(row?.lastDay ?? 0) };
}

export type PostalHistoryRow = { postalOrders: unknown; postalFailed: unknown; areaOrders: unknown; areaFailed: unknown; shopOrders: unknown; shopFailed: unknown };

function postalHistoryOf(postalCode: string, r: Partial<PostalHistoryRow> | undefined): PostalHistory {
  const prefix = postalArea(postalCode);
  return {
    orders: Number(r?.postalOrders ?? 0),
    failed: Number(r?.postalFailed ?? 0),
    area: prefix ? { prefix, orders: Number(r?.areaOrders ?? 0), failed: Number(r?.areaFailed ?? 0) } : null,
    shopOrders: Number(r?.shopOrders ?? 0),
    shopFailed: Number(r?.shopFailed ?? 0),
  };
}

