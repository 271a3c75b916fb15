import { OPERATIONS } from "../../../app/core/shopify/operations";
import { cartCreate, FAKE_UNIT_PRICE, type CheckoutLinks } from "./handlers";
import type { FakeCall, FakeShopify, Handler, HandlerResult } from "./server";

/**
 * partial without draft-order deposits, as Shopify answers it (Admin 2026-10, Storefront 2026-10):
 * `discountCodeBasicCreate` (a code with its usage limit, end, minimum subtotal, variants and amount),
 * Storefront carts that remember their lines so `cartDiscountCodesUpdate` can say whether a code applies
 * (not a used-up, expired or unknown code, nor one on a cart below its minimum), a checkout completed with
 * a code (`placeOrder`: the code's use is counted, a second use refused), and the order edit that adds a
 * custom line (`orderEditBegin`, `orderEditAddCustomItem`, `orderEditCommit`), after which the order's
 * total, paid and outstanding amounts are Shopify's: total grows by the line, paid stays, outstanding is
 * the difference. Wrap a handler in `failTimes` to make Shopify refuse or fail N times first.
 */
export type FakeDiscount = {
  code: string;
  /** A fixed amount (the shop's currency) or, when `percentage` is set, nothing. */
  amount: number;
  /** A percentage code's share of each line (0 to 1), as Shopify takes it: per line, to the currency's smallest unit. */
  percentage: number | null;
  minQuantity: number;
  usageLimit: number | null;
  used: number;
  endsAt: string | null;
  minSubtotal: number;
  variants: string[];
  appliesOncePerCustomer: boolean;
};
export type FakeCart = { id: string; lines: { merchandiseId: string; quantity: number }[]; attributes: { key: string; value: string }[]; discountCodes: string[] };
export type FakeMoneyOrder = {
  id: string;
  name: string;
  /** The presentment currency (the buyer's); every amount of the order below is in it. */
  currency: string;
  /** The shop's currency and its rate (presentment units per shop unit): the MoneyBags' shopMoney is amount / rate. */
  shopCurrency: string;
  rate: number;
  /** `discount`: what the line's share of the code took off (presentment), as Shopify allocates it. */
  lineItems: { id: string; title: string; variantId: string | null; requiresShipping: boolean; price: number; quantity: number; discount?: number }[];
  /** The code and what it took off in all (presentment): the sum of its line allocations. */
  discount: { code: string; amount: number } | null;
  shipping: number;
  paid: number;
  cancelledAt: string | null;
  edits: number;
};

let sequence = 9000;

export class FakeDepositStore {
  readonly discounts = new Map<string, FakeDiscount>();
  readonly carts = new Map<string, FakeCart>();
  readonly orders = new Map<string, FakeMoneyOrder>();
  private readonly staged = new Map<string, { orderId: string; lines: FakeMoneyOrder["lineItems"] }>();

  /**
   * `market`: the cart is priced in another currency than the shop's (the buyer's country is in a market
   * with its own currency), every unit at `unitPrice` of `currency`; the shop's own is FAKE_UNIT_PRICE USD.
   * A fixed code's amount (the shop's currency) is converted at `rate` when it is applied, as Shopify does.
   */
  constructor(
    private readonly links: CheckoutLinks = {},
    readonly market: { currency: string; unitPrice: number; rate: number } | null = null,
  ) {}

  get unitPrice() {
    return this.market?.unitPrice ?? FAKE_UNIT_PRICE;
  }

  /** What a code takes off these lines now: its fixed amount, or its percentage of each eligible line rounded half up. */
  takes(d: FakeDiscount, lines: FakeCart["lines"]): number {
    return this.allocations(d, lines).reduce((s, a) => s + a, 0);
  }

  /**
   * What the code takes off each line (0 for a line it does not target), in the cart's currency: a
   * percentage line by line, rounded half up to the currency's unit; a fixed amount (converted at the
   * market's rate) spread over the targeted lines by their price, the rounding rest on the last one.
   */
  allocations(d: FakeDiscount, lines: FakeCart["lines"]): number[] {
    const digits = this.market?.currency === "JPY" ? 0 : 2;
    const f = 10 ** digits;
    const targeted = (l: FakeCart["lines"][number]) => !d.variants.length || d.variants.includes(l.merchandiseId);
    if (d.percentage !== null) return lines.map((l) => (targeted(l) ? Math.round(this.unitPrice * l.quantity * d.percentage! * f) / f : 0));
    const amount = this.market ? Math.round(d.amount * this.market.rate * f) / f : d.amount;
    const eligible = lines.reduce((s, l) => s + (targeted(l) ? this.unitPrice * l.quantity : 0), 0);
    const last = lines.map(targeted).lastIndexOf(true);
    let given = 0;
    return lines.map((l, i) => {
      if (!targeted(l) || !eligible) return 0;
      const share = i === last ? Math.round((amount - given) * f) / f : Math.round(((amount * this.unitPrice * l.quantity) / eligible) * f) / f;
      given += share;
      return share;
    });
  }

  static total(o: FakeMoneyOrder) {
    const lines = o.lineItems.reduce((s, l) => s + l.price * l.quantity, 0);
    return Math.round((lines - (o.discount?.amount ?? 0) + o.shipping) * 100) / 100;
  }
  static outstanding(o: FakeMoneyOrder) {
    return Math.round((FakeDepositStore.total(o) - o.paid) * 100) / 100;
  }

  /** cartCreate that remembers the cart (its answer is handlers' cartCreate). */
  cartCreate(): Handler {
    const inner = cartCreate(this.links);
    return async (call: FakeCall) => {
      const result = (await inner(call)) as { data: { cartCreate: { cart: { id: string; lines: { nodes: { merchandise: { price: { amount: string; currencyCode: string } } }[] } } } } };
      if (this.market) {
        for (const l of result.data.cartCreate.cart.lines.nodes) l.merchandise.price = { amount: this.market.unitPrice.toFixed(2), currencyCode: this.market.currency };
      }
      const input = (call.variables.input ?? {}) as { lines?: { merchandiseId: string; quantity?: number }[]; attributes?: { key: string; value: string }[]; discountCodes?: string[] };
      const id = result.data.cartCreate.cart.id;
      this.carts.set(id, { id, lines: (input.lines ?? []).map((l) => ({ merchandiseId: l.merchandiseId, quantity: l.quantity ?? 1 })), attributes: input.attributes ?? [], discountCodes: input.discountCodes ?? [] });
      return result;
    };
  }

  discountCodeBasicCreate(): Handler {
    return (call) => {
      const input = (call.variables.basicCodeDiscount ?? {}) as {
        code?: string;
        usageLimit?: number;
        endsAt?: string;
        appliesOncePerCustomer?: boolean;
        minimumRequirement?: { subtotal?: { greaterThanOrEqualToSubtotal?: string }; quantity?: { greaterThanOrEqualToQuantity?: string } };
        customerGets?: { value?: { discountAmount?: { amount?: string }; percentage?: number }; items?: { products?: { productVariantsToAdd?: string[] } } };
      };
      const code = input.code ?? "";
      if (!code || this.discounts.has(code.toUpperCase())) {
        return { data: { discountCodeBasicCreate: { codeDiscountNode: null, userErrors: [{ field: ["basicCodeDiscount", "code"], message: "Code must be unique. Please try a different code.", code: "TAKEN" }] } } };
      }
      this.discounts.set(code.toUpperCase(), {
        code,
        amount: Number(input.customerGets?.value?.discountAmount?.amount ?? 0),
        percentage: input.customerGets?.value?.percentage ?? null,
        minQuantity: Number(input.minimumRequirement?.quantity?.greaterThanOrEqualToQuantity ?? 0),
        usageLimit: input.usageLimit ?? null,
        used: 0,
        endsAt: input.endsAt ?? null,
        minSubtotal: Number(input.minimumRequirement?.subtotal?.greaterThanOrEqualToSubtotal ?? 0),
        variants: input.customerGets?.items?.products?.productVariantsToAdd ?? [],
        appliesOncePerCustomer: !!input.appliesOncePerCustomer,
      });
      return { data: { discountCodeBasicCreate: { codeDiscountNode: { id: `gid://shopify/DiscountCodeNode/${++sequence}` }, userErrors: [] } } };
    };
  }

  /** Whether a code takes anything off this cart now, as Shopify decides it. */
  applicable(code: string, cart: Pick<FakeCart, "lines">, now = new Date()): boolean {
    const d = this.discounts.get(code.toUpperCase());
    if (!d) return false;
    if (d.usageLimit !== null && d.used >= d.usageLimit) return false;
    if (d.endsAt && Date.parse(d.endsAt) <= now.getTime()) return false;
    const lines = cart.lines.filter((l) => !d.variants.length || d.variants.includes(l.merchandiseId));
    // The minimum subtotal is the shop's currency; the fake's shop prices every unit at FAKE_UNIT_PRICE.
    const eligible = lines.reduce((s, l) => s + FAKE_UNIT_PRICE * l.quantity, 0);
    const quantity = lines.reduce((s, l) => s + l.quantity, 0);
    return eligible > 0 && eligible >= d.minSubtotal && quantity >= d.minQuantity;
  }

  cartDiscountCodesUpdate(): Handler {
    return (call) => {
      const cart = this.carts.get(String(call.variables.cartId ?? ""));
      if (!cart) return { data: { cartDiscountCodesUpdate: { cart: null, userErrors: [{ code: "INVALID", field: ["cartId"], message: "The specified cart does not exist." }] } } };
      cart.discountCodes = (call.variables.discountCodes ?? []) as string[];
      const token = cart.id.replace(/^gid:\/\/shopify\/Cart\//, "").split("?")[0];
      const subtotal = cart.lines.reduce((s, l) => s + this.unitPrice * l.quantity, 0);
      const checkoutUrl = this.links.checkoutBase
        ? `${this.links.checkoutBase}?c=${Buffer.from(JSON.stringify({ kind: "cart", shop: call.shop, lines: cart.lines, attributes: cart.attributes, discountCodes: cart.discountCodes, subtotal, cartId: cart.id })).toString("base64url")}`
        : `https://${call.shop}/cart/c/${token}`;
      return {
        data: {
          cartDiscountCodesUpdate: {
            cart: { id: cart.id, checkoutUrl, discountCodes: cart.discountCodes.map((code) => ({ code, applicable: this.applicable(code, cart) })) },
            userErrors: [],
          },
        },
      };
    };
  }

  /**
   * The shopper pays at checkout: the order Shopify creates, at the price the cart's code leaves (a code
   * that no longer applies, e.g. used on another cart already, takes nothing off). Paid = the whole total.
   */
  placeOrder(cart: Pick<FakeCart, "lines" | "discountCodes">, options: { shipping?: number; currency?: string } = {}): FakeMoneyOrder {
    const id = `gid://shopify/Order/${6_000_000_000_000_000_000n + BigInt(++sequence)}`;
    const code = cart.discountCodes.find((c) => this.applicable(c, cart)) ?? null;
    const d = code ? this.discounts.get(code.toUpperCase())! : null;
    if (d) d.used++;
    const currency = options.currency ?? this.market?.currency ?? "USD";
    const allocated = d ? this.allocations(d, cart.lines) : cart.lines.map(() => 0);
    const order: FakeMoneyOrder = {
      id,
      name: `#${sequence}`,
      currency,
      shopCurrency: this.market ? "USD" : currency,
      rate: this.market?.rate ?? 1,
      lineItems: cart.lines.map((l, i) => ({ id: `gid://shopify/LineItem/${sequence}${i}`, title: `Item ${l.merchandiseId}`, variantId: l.merchandiseId, requiresShipping: true, price: this.unitPrice, quantity: l.quantity, ...(d ? { discount: allocated[i] } : {}) })),
      discount: d ? { code: d.code, amount: this.takes(d, cart.lines) } : null,
      shipping: options.shipping ?? 0,
      paid: 0,
      cancelledAt: null,
      edits: 0,
    };
    order.paid = FakeDepositStore.total(order);
    this.orders.set(id, order);
    return order;
  }

  /** A MoneyBag: the amount in the order's (presentment) currency, and in the shop's at the order's rate. */
  static moneyBag(o: FakeMoneyOrder, amount: number) {
    return {
      presentmentMoney: { amount: amount.toFixed(2), currencyCode: o.currency },
      shopMoney: { amount: (Math.round((amount / o.rate) * 100) / 100).toFixed(2), currencyCode: o.shopCurrency },
    };
  }

  private view(o: FakeMoneyOrder) {
    const m = (amount: number) => FakeDepositStore.moneyBag(o, amount);
    return {
      id: o.id,
      cancelledAt: o.cancelledAt,
      presentmentCurrencyCode: o.currency,
      lineItems: {
        nodes: o.lineItems.map((l) => ({
          id: l.id,
          title: l.title,
          requiresShipping: l.requiresShipping,
          discountAllocations: o.discount && l.discount ? [{ allocatedAmountSet: m(l.discount), discountApplication: { code: o.discount.code } }] : [],
        })),
      },
      currentTotalPriceSet: m(FakeDepositStore.total(o)),
      totalOutstandingSet: m(FakeDepositStore.outstanding(o)),
    };
  }

  orderBalanceLines(): Handler {
    return (call) => {
      const o = this.orders.get(String(call.variables.id ?? ""));
      return { data: { order: o ? this.view(o) : null } };
    };
  }

  orderEditBegin(): Handler {
    return (call) => {
      const o = this.orders.get(String(call.variables.id ?? ""));
      if (!o) return { data: { orderEditBegin: { calculatedOrder: null, userErrors: [{ field: ["id"], message: "The order does not exist." }] } } };
      const id = `gid://shopify/CalculatedOrder/${++sequence}`;
      this.staged.set(id, { orderId: o.id, lines: [] });
      return { data: { orderEditBegin: { calculatedOrder: { id }, userErrors: [] } } };
    };
  }

  orderEditAddCustomItem(): Handler {
    return (call) => {
      const staged = this.staged.get(String(call.variables.id ?? ""));
      const price = call.variables.price as { amount?: string; currencyCode?: string } | undefined;
      const order = staged ? this.orders.get(staged.orderId) : undefined;
      if (!staged || !order) return { data: { orderEditAddCustomItem: { calculatedLineItem: null, userErrors: [{ field: ["id"], message: "The calculated order does not exist." }] } } };
      if (price?.currencyCode !== order.currency) {
        return { data: { orderEditAddCustomItem: { calculatedLineItem: null, userErrors: [{ field: ["price"], message: "Currency must match the order's currency." }] } } };
      }
      const line = { id: `gid://shopify/CalculatedLineItem/${++sequence}`, title: String(call.variables.title ?? ""), variantId: null, requiresShipping: call.variables.requiresShipping !== false, price: Number(price.amount), quantity: Number(call.variables.quantity ?? 1) };
      staged.lines.push(line);
      return { data: { orderEditAddCustomItem: { calculatedLineItem: { id: line.id }, userErrors: [] } } };
    };
  }

  orderEditCommit(): Handler {
    return (call) => {
      const id = String(call.variables.id ?? "");
      const staged = this.staged.get(id);
      const order = staged ? this.orders.get(staged.orderId) : undefined;
      if (!staged || !order) return { data: { orderEditCommit: { order: null, userErrors: [{ field: ["id"], message: "The calculated order does not exist." }] } } };
      this.staged.delete(id);
      order.lineItems.push(...staged.lines.map((l) => ({ ...l, id: l.id.replace("CalculatedLineItem", "LineItem") })));
      order.edits++;
      return { data: { orderEditCommit: { order: { id: order.id, totalOutstandingSet: this.view(order).totalOutstandingSet }, userErrors: [] } } };
    };
  }

  install(fake: FakeShopify): FakeShopify {
    return fake
      .on(OPERATIONS.cartCreate, this.cartCreate(), "storefront")
      .on(OPERATIONS.cartDiscountCodesUpdate, this.cartDiscountCodesUpdate(), "storefront")
      .on(OPERATIONS.depositDiscountCreate, this.discountCodeBasicCreate(), "admin")
      .on(OPERATIONS.orderBalanceLines, this.orderBalanceLines(), "admin")
      .on(OPERATIONS.orderEditBegin, this.orderEditBegin(), "admin")
      .on(OPERATIONS.orderEditAddCustomItem, this.orderEditAddCustomItem(), "admin")
      .on(OPERATIONS.orderEditCommit, this.orderEditCommit(), "admin");
  }
}

/** The first `times` calls get `failure`, the later ones `then`'s answer (Shopify down, then back). */
export function failTimes(times: number, failure: Handler, then: Handler): Handler {
  let n = 0;
  return (call) => (++n <= times ? failure(call) : then(call)) as HandlerResult | Promise<HandlerResult>;
}

/** orderEditBegin refused as Shopify refuses an order it will not edit. */
export function orderEditRefused(message = "The order cannot be edited."): Handler {
  return () => ({ data: { orderEditBegin: { calculatedOrder: null, userErrors: [{ field: ["id"], message }] } } });
}
