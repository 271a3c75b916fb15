import { fromMailingAddress, townLine, type Address } from "~/core/places/address";
import { provinceName } from "~/core/places/province-names";
import { fetchOrder } from "~/address-correction/shopify-orders.server";
import { prisma } from "~/core/db.server";
import type { Shop } from "~/core/settings/shop.server";
import { writtenMoney } from "~/shared/money-words";
import type { Locale } from "~/shared/locales";
import { maskPhone } from "~/shared/phone-mask";
import { phoneCountry } from "~/shared/phone";
import { getCountryCallingCode, isSupportedCountry } from "libphonenumber-js/min";
import type { Recovery } from "./recovery.server";
import { readOrderBalance } from "~/core/shopify/orders.server";

/**
 * What the shopper needs on the failed-delivery page to choose: the order's items (the titles the app
 * kept from orders/create), the amount to pay on delivery and the delivery address (read from Shopify
 * when the page is shown), and the phone the courier calls, masked. Each part is left out when it cannot
 * be read (Shopify slow or down): the choices never wait on it.
 */
export type RecoveryOrderSummary = {
  items: string[];
  amount: string | null;
  address: string[] | null;
  /** The order's phone, masked (+9198•••3210). */
  phone: string | null;
  /** "+91 ": what the phone field starts with, the calling code of the order's phone. */
  phonePrefix: string;
};

/** The address as lines the shopper recognises, in their country's order, the state by its name in their language. */
export function addressLines(a: Address, locale: Locale): string[] {
  const province = a.province ? provinceName(a.countryCode, a.province, locale) : "";
  return [`${a.firstName} ${a.lastName}`.trim(), a.address1, a.address2, townLine(a), province].filter(Boolean);
}

function parseItems(products: string | null | undefined): string[] {
  try {
    const list: unknown = JSON.parse(products ?? "[]");
    return Array.isArray(list) ? list.filter((p): p is string => typeof p === "string" && p.trim() !== "").slice(0, 10) : [];
  } catch {
    return [];
  }
}

export async function readRecoveryOrder(shop: Pick<Shop, "id" | "domain" | "country">, r: Recovery, locale: Locale): Promise<RecoveryOrderSummary> {
  const [record, balance, order] = await Promise.all([
    prisma.orderRecord.findUnique({ where: { shopId_orderGid: { shopId: shop.id, orderGid: r.orderGid } }, select: { products: true } }),
    readOrderBalance(shop.domain, r.orderGid),
    fetchOrder(shop.domain, r.orderGid),
  ]);
  const due = balance.ok ? balance.data?.totalOutstandingSet.shopMoney : undefined;
  const shipping = order.ok ? order.order?.shippingAddress : null;
  const country = r.phone ? phoneCountry(r.phone) : null;
  return {
    items: parseItems(record?.products),
    amount: due && Number(due.amount) > 0 ? writtenMoney({ amount: Number(due.amount), currency: due.currencyCode }, locale, shop.country) : null,
    address: shipping ? addressLines(fromMailingAddress(shipping), locale) : null,
    phone: r.phone ? maskPhone(r.phone) : null,
    phonePrefix: country && isSupportedCountry(country) ? `+${getCountryCallingCode(country)} ` : "",
  };
}
