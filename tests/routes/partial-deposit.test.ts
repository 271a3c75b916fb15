import * as checkoutRoute from "~/routes/proxy.create-checkout";
import * as ordersRoute from "~/routes/webhooks.orders.create";
import { prisma } from "~/core/db.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import { forgetPaymentTermsTemplate } from "~/checkout/checkout.server";
import { BALANCE_LINE_TITLE, currencyDigits, depositSplit } from "~/shared/deposit";
import { BALANCE_HOLD, BALANCE_MAX_ATTEMPTS, BALANCE_MISSING_TAG } from "~/orders/deposit-balance.server";
import { issueProof } from "~/otp/proof.server";
import { shopifyCallLimits } from "~/core/shopify/graphql.server";
import { clock } from "~/core/utils/clock.server";
import { log } from "~/core/utils/log.server";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { FakeDepositStore, failTimes, orderEditRefused, type FakeCart, type FakeMoneyOrder } from "../mocks/shopify/deposits";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import { useFakeShopify } from "../helpers/fake-shopify";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";
import { JOB_KINDS } from "~/server-build";

const PHONE = "+212600000001";
const fake = useFakeShopify();
const tagged = new Map<string, Set<string>>();
let store: FakeDepositStore;
let enforcement: FakeEnforcementStore;

beforeEach(() => {
  tagged.clear();
  handlers.installDefaultHandlers(fake, {}, tagged);
  store = new FakeDepositStore();
  store.install(fake);
  enforcement = new FakeEnforcementStore(tagged);
  enforcement.install(fake);
  forgetPaymentTermsTemplate();
  shopifyCallLimits.timeoutMs = 4000;
});
afterEach(() => vi.restoreAllMocks());

const VARIANT = "gid://shopify/ProductVariant/5";

async function checkout(extra: Record<string, unknown> = {}) {
  const proof = issueProof(SHOP, { phone: PHONE, mode: "partial", selectionId: "fromverifyotp" }).token;
  const res = await callRoute(
    checkoutRoute,
    signedRequest("/create-checkout", { body: { phone: PHONE, selectedMode: "partial", lines: [{ variantId: "5", quantity: 2 }], proof, ...extra } }),
  );
  expect(res.status).toBe(200);
  return jsonOf(res);
}

/** The cart create-checkout left, as the shopper reaches checkout with it. */
function lastCart(): FakeCart {
  return [...store.carts.values()].at(-1)!;
}

/**
 * Shopify's orders/create delivery for an order placed in the fake (REST shape: discount_codes with string
 * amounts). `codeAmount`: what the delivery says the code took (default: the order's presentment figure).
 */
function deliverOrder(order: FakeMoneyOrder, cart: FakeCart, codeAmount = order.discount?.amount) {
  const payload = orderCreatedPayload({
    admin_graphql_api_id: order.id,
    phone: PHONE,
    gateway: "shopify_payments",
    payment_gateway_names: ["shopify_payments"],
    financial_status: "paid",
    currency: order.currency,
    presentment_currency: order.currency,
    note_attributes: cart.attributes.map((a) => ({ name: a.key, value: a.value })),
    discount_codes: order.discount ? [{ code: order.discount.code, amount: codeAmount!.toFixed(2), type: "fixed_amount" }] : [],
  });
  return callRoute(ordersRoute, signedWebhook("orders/create", payload));
}

/** Runs the balance job's tries, each after its backoff (the clock moved past it). */
async function runTries(n: number) {
  let t = Date.now();
  for (let i = 0; i < n; i++) {
    t += 2 * 3600_000;
    vi.spyOn(clock, "now").mockReturnValue(new Date(t));
    await runDueJobs(JOB_KINDS);
  }
}

const balanceLines = (o: FakeMoneyOrder) => o.lineItems.filter((l) => l.variantId === null && l.title === BALANCE_LINE_TITLE);
const ourHolds = (orderId: string) => enforcement.order(orderId).fulfillmentOrders.flatMap((fo) => fo.holds).filter((h) => h.handle === BALANCE_HOLD.handle);

describe("partial on a store without draft-order deposits: a single-use deposit code on a normal cart", () => {
  it("builds a cart with a code made for this selection alone: once, one customer, 2 hours, these variants, this subtotal", async () => {
    await installShop({ depositsAvailable: false, depositType: "percentage", depositValue: 20, currency: "USD", discountCodePartial: "MERCHANT" });
    const before = Date.now();
    const body = await checkout();
    expect(Object.keys(body)).toEqual(["checkoutUrl"]);
    expect(fake.callsTo(OPERATIONS.draftOrderCreate)).toHaveLength(0);

    const [create] = fake.callsTo(OPERATIONS.depositDiscountCreate);
    const input = create.variables.basicCodeDiscount as { endsAt: string };
    const selection = await prisma.selection.findFirstOrThrow();
    expect(input).toMatchObject({
      code: selection.depositCode,
      usageLimit: 1,
      appliesOncePerCustomer: true,
      context: { all: "ALL" },
      minimumRequirement: { subtotal: { greaterThanOrEqualToSubtotal: "50.00" } },
      customerGets: { value: { discountAmount: { amount: "40.00", appliesOnEachItem: false } }, items: { products: { productVariantsToAdd: [VARIANT] } } },
    });
    const ends = Date.parse(input.endsAt) - before;
    expect(ends).toBeGreaterThan(2 * 3600_000 - 60_000);
    expect(ends).toBeLessThan(2 * 3600_000 + 60_000);
    expect(selection).toMatchObject({ mode: "partial", depositAmount: 10, balanceAmount: 40, depositCurrency: "USD", checkoutUrl: body.checkoutUrl });
    // The cart carries our code only (not the merchant's), and Shopify applies it.
    expect(lastCart().discountCodes).toEqual([selection.depositCode]);
    expect(fake.callsTo(OPERATIONS.cartCreate)[0].variables.input).not.toHaveProperty("discountCodes");
    // No proof on the cart: the checkout function hides cash on delivery, so the deposit is paid online.
    expect(lastCart().attributes.map((a) => a.key)).toEqual(["_cod_selection", "_cod_payment_mode", "_cod_phone_verified", "_cod_phone"]);

    // A second checkout gets its own code.
    await checkout();
    const codes = fake.callsTo(OPERATIONS.depositDiscountCreate).map((c) => (c.variables.basicCodeDiscount as { code: string }).code);
    expect(new Set(codes).size).toBe(2);
  });

  it("a fixed deposit: the code takes the subtotal less the deposit, in the cart's currency (the fake prices in USD)", async () => {
    await installShop({ depositsAvailable: false, depositType: "fixed", depositValue: 15, currency: "USD" });
    await checkout();
    const input = fake.callsTo(OPERATIONS.depositDiscountCreate)[0].variables.basicCodeDiscount as { customerGets: { value: { discountAmount: { amount: string } } } };
    expect(input.customerGets.value.discountAmount.amount).toBe("35.00");
    expect(await prisma.selection.findFirstOrThrow()).toMatchObject({ depositAmount: 15, balanceAmount: 35 });
  });

  it("a store whose plan is not known yet: the draft-order deposit is tried, refused, and the same request builds the deposit code", async () => {
    await installShop({ depositsAvailable: null });
    fake.on(OPERATIONS.draftOrderCreate, handlers.draftOrderCreateUserErrors(), "admin");
    expect(Object.keys(await checkout())).toEqual(["checkoutUrl"]);
    expect(fake.callsTo(OPERATIONS.depositDiscountCreate)).toHaveLength(1);
    expect((await prisma.shop.findFirstOrThrow()).depositsAvailable).toBe(false);
  });

  it("a Plus store keeps Shopify's draft-order deposit and creates no code", async () => {
    await installShop({ depositsAvailable: true });
    await checkout();
    expect(fake.callsTo(OPERATIONS.draftOrderCreate)).toHaveLength(1);
    expect(fake.callsTo(OPERATIONS.depositDiscountCreate)).toHaveLength(0);
  });

  it.each([
    ["the code refused", () => fake.on(OPERATIONS.depositDiscountCreate, () => ({ data: { discountCodeBasicCreate: { codeDiscountNode: null, userErrors: [{ field: ["code"], message: "Code must be unique." }] } } }), "admin")],
    ["Shopify down for the code", () => fake.on(OPERATIONS.depositDiscountCreate, handlers.serverError(503), "admin")],
    ["the code not applicable to the cart", () => fake.on(OPERATIONS.cartDiscountCodesUpdate, (call) => ({ data: { cartDiscountCodesUpdate: { cart: { id: call.variables.cartId, checkoutUrl: "https://x.test/c", discountCodes: [{ code: "X", applicable: false }] }, userErrors: [] } } }), "storefront")],
    ["the cart refused", () => fake.on(OPERATIONS.cartCreate, handlers.cartCreateUserErrors(), "storefront")],
  ])("answers { fallback: true } when %s", async (_, breakIt) => {
    await installShop({ depositsAvailable: false });
    breakIt();
    const body = await checkout();
    expect(body).toMatchObject({ fallback: true });
    expect(body).not.toHaveProperty("checkoutUrl");
  });
});

describe("partial in another currency than the shop's (Shopify converts a code's fixed amount at its own rate)", () => {
  /** The buyer's market prices the cart in `currency`: each unit at `unitPrice` (the shop's is 25 USD). */
  function market(currency: string, unitPrice: number, rate: number) {
    store = new FakeDepositStore({}, { currency, unitPrice, rate });
    store.install(fake);
  }

  it.each([
    // EUR at 0.92: 2 × €23.00; JPY at 150 (no decimals): 2 × ¥3,999, where 20 % is ¥1,599.6.
    ["EUR", 23, 0.92, 46, { deposit: 9.2, balance: 36.8 }],
    ["JPY", 3999, 150, 7998, { deposit: 1600, balance: 6398 }],
  ] as const)("%s: a percentage code (80 %% off the selection's lines, at least their quantity); the shopper pays the deposit the modal showed and the order owes the full price", async (currency, unitPrice, rate, subtotal, split) => {
    market(currency, unitPrice, rate);
    await installShop({ depositsAvailable: false, depositType: "percentage", depositValue: 20, currency: "USD" });
    await checkout();
    // The modal's rule (app/shared/money.ts) on the cart's amount, in the cart's currency.
    expect(depositSplit("percentage", 20, subtotal, currencyDigits(currency))).toEqual({ subtotal, ...split });
    const input = fake.callsTo(OPERATIONS.depositDiscountCreate)[0].variables.basicCodeDiscount as Record<string, unknown>;
    expect(input).toMatchObject({
      usageLimit: 1,
      appliesOncePerCustomer: true,
      minimumRequirement: { quantity: { greaterThanOrEqualToQuantity: "2" } },
      customerGets: { value: { percentage: 0.8 }, items: { products: { productVariantsToAdd: [VARIANT] } } },
    });
    expect(input.customerGets).not.toHaveProperty("value.discountAmount");
    expect(await prisma.selection.findFirstOrThrow()).toMatchObject({ depositAmount: split.deposit, balanceAmount: split.balance, depositCurrency: currency });

    const cart = lastCart();
    const order = store.placeOrder(cart);
    // At checkout: the items less what the code took = the deposit the modal showed.
    expect([order.currency, order.paid]).toEqual([currency, split.deposit]);
    expect((await deliverOrder(order, cart)).status).toBe(200);
    await runDueJobs(JOB_KINDS);
    expect(balanceLines(order)).toEqual([expect.objectContaining({ price: split.balance })]);
    expect([FakeDepositStore.total(order), FakeDepositStore.outstanding(order)]).toEqual([subtotal, split.balance]);
    expect(tagged.get(order.id)).not.toContain("cod-deposit-mismatch");
  });

  // Shopify's REST reference does not say which currency orders/create's discount_codes[].amount is in on
  // a converted order: the balance is read from the order's own allocations in presentment money.
  it.each([
    ["the shop's currency (USD 40.00)", 40],
    ["the order's currency (EUR 36.80)", 36.8],
    ["neither (a figure the balance must not follow)", 12.34],
  ])("a EUR order on a USD shop, the delivery's code amount in %s: the balance line is the code's presentment allocation, in EUR", async (_, webhookAmount) => {
    market("EUR", 23, 0.92);
    await installShop({ depositsAvailable: false, depositType: "percentage", depositValue: 20, currency: "USD" });
    await checkout();
    const cart = lastCart();
    const order = store.placeOrder(cart);
    // What the order says the code took: 80 % of 2 × €23.00 = €36.80, which is 40.00 in the shop's USD.
    const allocation = FakeDepositStore.moneyBag(order, order.lineItems[0].discount!);
    expect(allocation).toEqual({ presentmentMoney: { amount: "36.80", currencyCode: "EUR" }, shopMoney: { amount: "40.00", currencyCode: "USD" } });
    expect((await deliverOrder(order, cart, webhookAmount)).status).toBe(200);
    await runDueJobs(JOB_KINDS);
    expect(fake.callsTo(OPERATIONS.orderEditAddCustomItem)[0].variables).toMatchObject({ price: { amount: "36.80", currencyCode: "EUR" } });
    expect(balanceLines(order)).toEqual([expect.objectContaining({ price: 36.8, quantity: 1 })]);
    expect([FakeDepositStore.total(order), order.paid, FakeDepositStore.outstanding(order)]).toEqual([46, 9.2, 36.8]);
    expect(tagged.get(order.id)).not.toContain("cod-deposit-mismatch");
    expect(tagged.get(order.id)).not.toContain(BALANCE_MISSING_TAG);
  });

  it("the order shows no allocation of the deposit code (whatever the delivery said): no balance line is guessed; the order is held and tagged for the merchant", async () => {
    market("EUR", 23, 0.92);
    await installShop({ depositsAvailable: false, depositType: "percentage", depositValue: 20, currency: "USD" });
    await checkout();
    const cart = lastCart();
    const order = store.placeOrder(cart);
    const delivered = order.lineItems.map((l) => l.discount);
    for (const l of order.lineItems) delete l.discount;
    expect((await deliverOrder(order, cart, 36.8)).status).toBe(200);
    vi.spyOn(log, "error").mockImplementation(() => {});
    await runDueJobs(JOB_KINDS);
    expect(delivered).toEqual([36.8]);
    expect(fake.callsTo(OPERATIONS.orderEditBegin)).toHaveLength(0);
    expect(balanceLines(order)).toHaveLength(0);
    expect(ourHolds(order.id)).toHaveLength(1);
    expect(tagged.get(order.id)).toContain(BALANCE_MISSING_TAG);
    const job = await prisma.job.findFirstOrThrow({ where: { kind: "partial.add-balance" } });
    expect(job).toMatchObject({ failedAt: expect.any(Date), doneAt: null });
    expect(job.lastError).toMatch(/no allocation of the deposit code/);
  });

  it("a fixed deposit (an amount of the shop's currency) on a cart in another currency falls back and creates no code", async () => {
    market("EUR", 23, 0.92);
    await installShop({ depositsAvailable: false, depositType: "fixed", depositValue: 10, currency: "USD" });
    const body = await checkout();
    expect(body).toMatchObject({ fallback: true });
    expect(fake.callsTo(OPERATIONS.depositDiscountCreate)).toHaveLength(0);
    expect(await prisma.selection.findFirstOrThrow()).toMatchObject({ depositCode: null });
  });

  it("a cart in the shop's own currency keeps the exact fixed-amount code", async () => {
    market("USD", 25, 1);
    await installShop({ depositsAvailable: false, depositType: "percentage", depositValue: 20, currency: "USD" });
    await checkout();
    const input = fake.callsTo(OPERATIONS.depositDiscountCreate)[0].variables.basicCodeDiscount as Record<string, unknown>;
    expect(input).toMatchObject({ customerGets: { value: { discountAmount: { amount: "40.00" } } }, minimumRequirement: { subtotal: { greaterThanOrEqualToSubtotal: "50.00" } } });
  });
});

describe("partial without draft-order deposits: after payment, the balance is added to the one order", () => {
  async function paidOrder(currency = "USD") {
    await installShop({ depositsAvailable: false, depositType: "percentage", depositValue: 20, currency });
    await checkout();
    const cart = lastCart();
    const order = store.placeOrder(cart, { shipping: 5, currency });
    // At checkout: the items (50) less the code (40), plus shipping (5), all paid.
    expect([FakeDepositStore.total(order), order.paid]).toEqual([15, 15]);
    expect((await deliverOrder(order, cart)).status).toBe(200);
    return { order, cart };
  }

  it("adds the balance line without telling the shopper: total = full price, paid = deposit (+ shipping), outstanding = balance", async () => {
    const { order } = await paidOrder();
    await runDueJobs(JOB_KINDS);
    expect(balanceLines(order)).toEqual([expect.objectContaining({ price: 40, quantity: 1 })]);
    expect([FakeDepositStore.total(order), order.paid, FakeDepositStore.outstanding(order)]).toEqual([55, 15, 40]);
    const [add] = fake.callsTo(OPERATIONS.orderEditAddCustomItem);
    expect(add.variables).toMatchObject({ price: { amount: "40.00", currencyCode: "USD" }, quantity: 1, taxable: true, requiresShipping: false });
    expect(fake.callsTo(OPERATIONS.orderEditCommit)[0].variables).toMatchObject({ notifyCustomer: false });
    expect(await prisma.selection.findFirstOrThrow()).toMatchObject({ balanceAddedAt: expect.any(Date), balanceHeldAt: null });
    expect(ourHolds(order.id)).toEqual([]);
    expect(tagged.get(order.id)).not.toContain("cod-deposit-mismatch");
    // Linked to the verified selection by its attribute, though the cart carried no proof.
    expect([...(tagged.get(order.id) ?? [])]).toContain("payment-mode:partial");
    expect(await prisma.orderRecord.findFirstOrThrow({ where: { orderGid: order.id } })).toMatchObject({ mode: "partial", status: "verified" });
  });

  it("a currency without decimals: the balance line's price is written as Shopify takes it (¥40, not 40.00)", async () => {
    const { order } = await paidOrder("JPY");
    await runDueJobs(JOB_KINDS);
    expect(fake.callsTo(OPERATIONS.orderEditAddCustomItem)[0].variables).toMatchObject({ price: { amount: "40", currencyCode: "JPY" } });
    expect(FakeDepositStore.outstanding(order)).toBe(40);
  });

  it("the edit fails 3 times, then succeeds: held and tagged meanwhile, the balance added exactly once, then released", async () => {
    fake.on(OPERATIONS.orderEditBegin, failTimes(3, handlers.serverError(503), store.orderEditBegin()), "admin");
    // The commit works but its answer is lost once: the next try must see the line and not add another.
    let lost = 0;
    const commit = store.orderEditCommit();
    fake.on(OPERATIONS.orderEditCommit, async (call) => (await commit(call), ++lost === 1 ? handlers.serverError(503)(call) : commit(call)), "admin");
    const { order } = await paidOrder();

    await runTries(1);
    expect(balanceLines(order)).toHaveLength(0);
    expect(ourHolds(order.id)).toHaveLength(1);
    expect(tagged.get(order.id)).toContain(BALANCE_MISSING_TAG);
    expect((await prisma.selection.findFirstOrThrow()).balanceHeldAt).toEqual(expect.any(Date));

    await runTries(5);
    expect(balanceLines(order)).toHaveLength(1);
    expect(order.edits).toBe(1);
    expect(FakeDepositStore.outstanding(order)).toBe(40);
    expect(ourHolds(order.id)).toHaveLength(0);
    expect(tagged.get(order.id)).not.toContain(BALANCE_MISSING_TAG);
    const job = await prisma.job.findFirstOrThrow({ where: { kind: "partial.add-balance" } });
    expect(job.doneAt).not.toBeNull();
    expect(await prisma.selection.findFirstOrThrow()).toMatchObject({ balanceAddedAt: expect.any(Date), balanceHeldAt: null });
    // A replayed delivery queues nothing new: the job is keyed by the order.
    expect(await prisma.job.count({ where: { kind: "partial.add-balance" } })).toBe(1);
  });

  it("the edit is never accepted: after the last try the job has failed and the order stays held and tagged, never at the deposit price unflagged", async () => {
    fake.on(OPERATIONS.orderEditBegin, orderEditRefused(), "admin");
    const errors = vi.spyOn(log, "error").mockImplementation(() => {});
    const { order } = await paidOrder();
    await runTries(BALANCE_MAX_ATTEMPTS + 2);
    const job = await prisma.job.findFirstOrThrow({ where: { kind: "partial.add-balance" } });
    expect(job).toMatchObject({ failedAt: expect.any(Date), doneAt: null, attempts: BALANCE_MAX_ATTEMPTS });
    expect(job.lastError).toMatch(/orderEditBegin refused: The order cannot be edited/);
    expect(balanceLines(order)).toHaveLength(0);
    expect(ourHolds(order.id)).toHaveLength(1);
    expect(tagged.get(order.id)).toContain(BALANCE_MISSING_TAG);
    expect(await prisma.selection.findFirstOrThrow()).toMatchObject({ balanceAddedAt: null, balanceHeldAt: expect.any(Date) });
    expect(errors).toHaveBeenCalledWith("background job failed; giving up", expect.objectContaining({ kind: "partial.add-balance" }));
  });
});

describe("partial without draft-order deposits: no free money", () => {
  it("the code is refused on another cart once used, and that cart's order pays the full price", async () => {
    await installShop({ depositsAvailable: false });
    await checkout();
    const cart = lastCart();
    store.placeOrder(cart);
    const other = { lines: cart.lines, discountCodes: cart.discountCodes };
    expect(store.applicable(cart.discountCodes[0], other)).toBe(false);
    const second = store.placeOrder(other);
    expect(second.discount).toBeNull();
    expect(FakeDepositStore.total(second)).toBe(50);
  });

  it("the code is refused on a cart of other items, or below the selection's subtotal", async () => {
    await installShop({ depositsAvailable: false });
    await checkout();
    const code = lastCart().discountCodes[0];
    expect(store.applicable(code, { lines: [{ merchandiseId: "gid://shopify/ProductVariant/6", quantity: 9 }] })).toBe(false);
    expect(store.applicable(code, { lines: [{ merchandiseId: VARIANT, quantity: 1 }] })).toBe(false);
    expect(store.applicable(code, { lines: [{ merchandiseId: VARIANT, quantity: 2 }] })).toBe(true);
  });

  it("a code of ours on an order that is not its selection's (carried to another cart) still gets the balance it took added", async () => {
    await installShop({ depositsAvailable: false });
    await checkout();
    const cart = lastCart();
    const order = store.placeOrder({ lines: [{ merchandiseId: VARIANT, quantity: 3 }], discountCodes: cart.discountCodes });
    const res = await deliverOrder(order, { ...cart, attributes: [] });
    expect(res.status).toBe(200);
    await runDueJobs(JOB_KINDS);
    expect(balanceLines(order)).toEqual([expect.objectContaining({ price: 40 })]);
    expect(FakeDepositStore.total(order)).toBe(75);
    expect(tagged.get(order.id)).toContain("cod-deposit-mismatch");
  });

  it("a forged cart attribute grants nothing: an order that names a partial selection but used no deposit code queues no edit and owes nothing extra", async () => {
    await installShop({ depositsAvailable: false });
    await checkout();
    const cart = lastCart();
    const order = store.placeOrder({ lines: cart.lines, discountCodes: [] });
    await deliverOrder(order, { ...cart, attributes: [...cart.attributes, { key: "_cod_deposit", value: "40" }] });
    await runDueJobs(JOB_KINDS);
    expect(await prisma.job.count({ where: { kind: "partial.add-balance" } })).toBe(0);
    expect(fake.callsTo(OPERATIONS.orderEditBegin)).toHaveLength(0);
    expect(order.paid).toBe(50);
  });
});
