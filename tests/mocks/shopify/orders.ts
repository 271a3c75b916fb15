import { OPERATIONS } from "../../../app/core/shopify/operations";
import type { FakeCall, FakeShopify, Handler } from "./server";

/**
 * Orders in the fake Shopify, for address correction: a small in-memory store answering the Admin
 * API's `order(id:)`, `orders(query:)`, `orderUpdate`, `tagsAdd` and `metafieldsSet` as Shopify
 * does (2026-10 field names; ids are GraphQL ids; a missing order is `null`; refusals are
 * `userErrors`). Tests read what was sent from `fake.callsTo(...)` and what changed from the store.
 */
export type FakeMailingAddress = {
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  province: string | null;
  provinceCode: string | null;
  zip: string | null;
  country: string | null;
  countryCodeV2: string | null;
};

export type FakeOrder = {
  id: string;
  name: string;
  phone: string | null;
  email: string | null;
  createdAt: string;
  cancelledAt: string | null;
  closed: boolean;
  displayFulfillmentStatus: "UNFULFILLED" | "FULFILLED" | "PARTIALLY_FULFILLED" | "IN_PROGRESS" | "ON_HOLD" | "SCHEDULED";
  tags: string[];
  /** How it was paid and what became of the payment (the risk backfill reads these). */
  paymentGatewayNames?: string[];
  displayFinancialStatus?: "PENDING" | "PAID" | "PARTIALLY_REFUNDED" | "REFUNDED" | "VOIDED";
  customer: { id: string; phone: string | null } | null;
  shippingAddress: FakeMailingAddress | null;
  metafields: { namespace: string; key: string; type: string; value: string }[];
};

let sequence = 5_000_000_000_000_000_000n; // beyond JavaScript's safe integers, as Shopify's ids are

/** A realistic unfulfilled COD order in India, with a shipping address missing its house number. */
export function fakeOrder(overrides: Partial<FakeOrder> = {}): FakeOrder {
  sequence += 1n;
  return {
    id: `gid://shopify/Order/${sequence}`,
    name: `#${1000 + Number(sequence % 1000n)}`,
    phone: "+919876543210",
    email: null,
    createdAt: new Date().toISOString(),
    cancelledAt: null,
    closed: false,
    displayFulfillmentStatus: "UNFULFILLED",
    tags: [],
    customer: { id: `gid://shopify/Customer/${sequence}`, phone: "+919876543210" },
    shippingAddress: {
      firstName: "Asha",
      lastName: "Verma",
      phone: "+919876543210",
      address1: "MG Road",
      address2: null,
      city: "Pune",
      province: "Maharashtra",
      provinceCode: "MH",
      zip: "41100",
      country: "India",
      countryCodeV2: "IN",
    },
    metafields: [],
    ...overrides,
  };
}

function view(order: FakeOrder) {
  const { metafields: _m, ...rest } = order;
  void _m;
  return rest;
}

const COUNTRY_NAMES: Record<string, string> = { IN: "India", US: "United States", FR: "France", ES: "Spain", AE: "United Arab Emirates", MA: "Morocco" };

/** The countries a fake shop ships to (`shop.shipsToCountries`) unless a test sets its own. */
export const DEFAULT_SHIPS_TO = ["IN", "US", "CA", "GB", "FR", "ES", "DE", "IT", "MA", "DZ", "TN", "EG", "SA", "AE", "PK", "BD", "MX", "BR", "NG", "QA", "OM", "KW", "BH", "HK", "IE", "AU", "JP"];

export class FakeOrderStore {
  readonly orders = new Map<string, FakeOrder>();
  /** What `shop { shipsToCountries }` answers (CountryCode values; "ZZ" is Shopify's rest of the world). */
  shipsTo: string[] = [...DEFAULT_SHIPS_TO];
  /** The store's shared tag map, when the other stores keep tags there too (local mode): tagsAdd writes both. */
  tagged: Map<string, Set<string>> | null = null;

  constructor(orders: FakeOrder[] = []) {
    for (const o of orders) this.add(o);
  }

  add(order: FakeOrder): FakeOrder {
    this.orders.set(order.id, order);
    return order;
  }

  get(id: string): FakeOrder | undefined {
    return this.orders.get(id);
  }

  /** `order(id:)`: the order or null. */
  orderById(): Handler {
    return (call: FakeCall) => {
      const order = this.orders.get(String(call.variables.id));
      return { data: { order: order ? view(order) : null } };
    };
  }

  /** `orders(query:)`: newest first; understands `status:open` and a quoted free-text phone. */
  ordersByQuery(): Handler {
    return (call: FakeCall) => {
      const query = String(call.variables.query ?? "");
      const open = /\bstatus:open\b/.test(query);
      const terms = [...query.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
      const nodes = [...this.orders.values()]
        .filter((o) => !open || (!o.cancelledAt && !o.closed))
        .filter((o) => terms.every((t) => [o.phone, o.customer?.phone, o.shippingAddress?.phone, o.name, o.email].some((v) => v?.includes(t))))
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
        .slice(0, Number(/first:\s*(\d+)/.exec(call.query)?.[1] ?? 10))
        .map(view);
      return { data: { orders: { nodes } } };
    };
  }

  /**
   * `orders(first:, after:, query: "created_at:>=YYYY-MM-DD")` with `pageInfo`: newest first, pages of
   * `first`, the cursor an opaque offset (the risk backfill, app/risk/backfill.server.ts).
   */
  ordersPaged(): Handler {
    return (call: FakeCall) => {
      const since = /created_at:>=(\S+)/.exec(String(call.variables.query ?? ""))?.[1] ?? "";
      const first = Number(/first:\s*(\d+)/.exec(call.query)?.[1] ?? 10);
      const offset = call.variables.after ? Number(Buffer.from(String(call.variables.after), "base64url").toString()) : 0;
      const all = [...this.orders.values()].filter((o) => o.createdAt.slice(0, 10) >= since).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      const nodes = all.slice(offset, offset + first).map((o) => ({
        ...view(o),
        paymentGatewayNames: o.paymentGatewayNames ?? ["Cash on Delivery (COD)"],
        displayFinancialStatus: o.displayFinancialStatus ?? "PENDING",
      }));
      const end = offset + nodes.length;
      return { data: { orders: { nodes, pageInfo: { hasNextPage: end < all.length, endCursor: nodes.length ? Buffer.from(String(end)).toString("base64url") : null } } } };
    };
  }

  /** `orderUpdate(input: { id, shippingAddress })`: overwrites the shipping address, as Shopify does. */
  orderUpdate(): Handler {
    return (call: FakeCall) => {
      const input = (call.variables.input ?? {}) as { id?: string; shippingAddress?: Record<string, string | null> };
      const order = this.orders.get(String(input.id));
      if (!order) {
        return { data: { orderUpdate: { order: null, userErrors: [{ field: ["id"], message: "Order does not exist" }] } } };
      }
      if (input.shippingAddress) {
        const a = input.shippingAddress;
        const countryCode = a.countryCode ?? null;
        order.shippingAddress = {
          firstName: a.firstName ?? null,
          lastName: a.lastName ?? null,
          phone: a.phone ?? null,
          address1: a.address1 ?? null,
          address2: a.address2 ?? null,
          city: a.city ?? null,
          province: a.provinceCode ?? null,
          provinceCode: a.provinceCode ?? null,
          zip: a.zip ?? null,
          country: countryCode ? (COUNTRY_NAMES[countryCode] ?? countryCode) : null,
          countryCodeV2: countryCode,
        };
      }
      const s = order.shippingAddress;
      return {
        data: {
          orderUpdate: {
            order: { id: order.id, shippingAddress: s && { address1: s.address1, city: s.city, zip: s.zip, countryCodeV2: s.countryCodeV2 } },
            userErrors: [],
          },
        },
      };
    };
  }

  /** `tagsAdd(id, tags)`: appends tags the order does not have yet; an order the store does not hold goes to `others` when given. */
  tagsAdd(others?: Handler): Handler {
    return (call: FakeCall) => {
      const order = this.orders.get(String(call.variables.id));
      if (!order && others) return others(call);
      if (!order) return { data: { tagsAdd: { node: null, userErrors: [{ field: ["id"], message: "Resource not found" }] } } };
      for (const tag of (call.variables.tags as string[]) ?? []) {
        if (!order.tags.includes(tag)) order.tags.push(tag);
        if (this.tagged) this.tagged.set(order.id, (this.tagged.get(order.id) ?? new Set()).add(tag));
      }
      return { data: { tagsAdd: { node: { id: order.id }, userErrors: [] } } };
    };
  }

  /** `metafieldsSet(metafields)`: stores each metafield on its owner. */
  metafieldsSet(): Handler {
    return (call: FakeCall) => {
      const list = (call.variables.metafields as { ownerId: string; namespace: string; key: string; type: string; value: string }[]) ?? [];
      const metafields = [];
      for (const m of list) {
        const order = this.orders.get(m.ownerId);
        if (!order) return { data: { metafieldsSet: { metafields: null, userErrors: [{ field: ["metafields", "0", "ownerId"], message: "Owner does not exist" }] } } };
        order.metafields = order.metafields.filter((x) => !(x.namespace === m.namespace && x.key === m.key));
        order.metafields.push({ namespace: m.namespace, key: m.key, type: m.type, value: m.value });
        metafields.push({ id: `gid://shopify/Metafield/${order.metafields.length}` });
      }
      return { data: { metafieldsSet: { metafields, userErrors: [] } } };
    };
  }

  /** Registers every order operation of address correction on `fake`. */
  install(fake: FakeShopify, otherOrders?: { tagsAdd?: Handler }): FakeShopify {
    return fake
      .on(OPERATIONS.orderById, this.orderById(), "admin")
      .on(OPERATIONS.latestOpenOrders, this.ordersByQuery(), "admin")
      .on(OPERATIONS.recentOrderOutcomes, this.ordersPaged(), "admin")
      .on(OPERATIONS.orderUpdate, this.orderUpdate(), "admin")
      .on(OPERATIONS.tagsAdd, this.tagsAdd(otherOrders?.tagsAdd), "admin")
      .on(OPERATIONS.metafieldsSet, this.metafieldsSet(), "admin")
      .on(OPERATIONS.shopShipsTo, () => ({ data: { shop: { shipsToCountries: this.shipsTo } } }), "admin");
  }
}

/** orderUpdate refused with user errors (by default: Shopify rejects the postal code). */
export function orderUpdateUserErrors(
  errors: { field: string[] | null; message: string }[] = [{ field: ["shippingAddress", "zip"], message: "Zip is not valid for India" }],
): Handler {
  return () => ({ data: { orderUpdate: { order: null, userErrors: errors } } });
}
