import { shopifyGraphql } from "~/core/shopify/graphql.server";
import { CART_CREATE, CART_LINES_UPDATE } from "~/core/shopify/checkout-operations";
import { CUSTOMERS_BY_PHONE, ORDER_BY_ID, TAGS_ADD } from "~/core/shopify/operations";
import { useFakeShopify } from "../helpers/fake-shopify";
import { installShop, SHOP } from "../helpers/shops";
import { FakeCustomerStore } from "../mocks/shopify/customers";
import { cartCreate, cartLinesUpdate, RETIRED_VARIANTS } from "../mocks/shopify/handlers";
import { FakeOrderStore, fakeOrder } from "../mocks/shopify/orders";
import { installedAccessToken } from "../mocks/shopify/tokens";

/**
 * Planted faults the fake Shopify refuses as Shopify does, each of which would fail the suite if the app
 * made it: a request with no access token or another shop's (HTTP 401, recorded as a refusal), a nested
 * field whose type needs a scope the app does not request (ACCESS_DENIED on that field, recorded), another
 * shop's order, customer or cart (it does not exist for this shop), and a cart line of a variant no store
 * sells (cartCreate's user error).
 */
const OTHER = "other-shop.myshopify.com";
const tagged = new Map<string, Set<string>>();
const orders = new FakeOrderStore();
const customers = new FakeCustomerStore([{ id: "gid://shopify/Customer/77", phone: "+919876543210" }], tagged);

describe("the fake Shopify refuses what Shopify refuses", () => {
  const fake = useFakeShopify((f) => {
    orders.install(f);
    customers.install(f);
    f.on("CreateCheckoutCart", cartCreate(), "storefront").on("SetCodFeeQuantity", cartLinesUpdate(), "storefront");
  });
  const post = (shop: string, headers: Record<string, string>, query: string) =>
    fetch(`${fake.origin}/${shop}/admin/api/2026-10/graphql.json`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ query }) });

  it("no access token, or another shop's: HTTP 401 with Shopify's body, before the document is read; a refusal that fails the test", async () => {
    const none = await post(SHOP, {}, `query ShopName { shop { name } }`);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" });
    const theirs = await post(SHOP, { "x-shopify-access-token": installedAccessToken(OTHER) }, `query ShopName { shop { name } }`);
    expect(theirs.status).toBe(401);
    const mine = await post(SHOP, { "x-shopify-access-token": installedAccessToken(SHOP) }, `query ShopName { shop { name } }`);
    expect(mine.status).not.toBe(401);
    expect(fake.takeRefusals().map((r) => r.reason)).toEqual(["unauthorized: no access token", `unauthorized: the access token was not issued for ${SHOP}`]);
  });

  it("the app's client with a session token Shopify never issued: the call fails and is refused", async () => {
    await installShop();
    const { prisma } = await import("~/core/db.server");
    await prisma.session.update({ where: { id: `offline_${SHOP}` }, data: { accessToken: "shpat_revoked" } });
    const result = await shopifyGraphql("admin", SHOP, ORDER_BY_ID, { variables: { id: "gid://shopify/Order/1" } });
    expect(result.ok).toBe(false);
    expect(fake.takeRefusals()).toEqual([expect.objectContaining({ reason: `unauthorized: the access token was not issued for ${SHOP}` })]);
  });

  it("a nested field whose type needs a scope the app does not request: a line item's variant (read_products) is ACCESS_DENIED", async () => {
    await installShop();
    const result = await shopifyGraphql("admin", SHOP, `query DepositOrderBalance($id: ID!) { order(id: $id) { id lineItems(first: 5) { nodes { title variant { id } } } } }`, { variables: { id: "gid://shopify/Order/1" } });
    expect(result).toMatchObject({ ok: false, cause: "graphql_errors" });
    const [refusal] = fake.takeRefusals();
    expect(refusal.reason).toContain("order.lineItems.nodes.variant needs `read_products` access scope.");
    const body = await (await post(SHOP, { "x-shopify-access-token": installedAccessToken(SHOP) }, `query V { order(id: "gid://shopify/Order/1") { lineItems(first: 1) { nodes { variant { id } } } } }`)).json();
    expect(body.errors).toEqual([
      {
        message: "Access denied for variant field. Required access: `read_products` access scope.",
        extensions: { code: "ACCESS_DENIED", documentation: "https://shopify.dev/api/usage/access-scopes", requiredAccess: "`read_products` access scope." },
        path: ["order", "lineItems", "nodes", "variant"],
      },
    ]);
    fake.takeRefusals();
  });

  it("another shop's order does not exist for this shop: read as null, tagged with Shopify's user error, and never found by a search", async () => {
    await installShop();
    await installShop({ domain: OTHER });
    const order = orders.add(fakeOrder());
    fake.own(SHOP, order.id);
    const read = (shop: string) => shopifyGraphql<{ order: { id: string } | null }>("admin", shop, ORDER_BY_ID, { variables: { id: order.id } });
    expect(await read(OTHER)).toEqual({ ok: true, data: { order: null } });
    expect(await read(SHOP)).toMatchObject({ ok: true, data: { order: { id: order.id } } });
    const tag = await shopifyGraphql<{ tagsAdd: { userErrors: unknown[] } }>("admin", OTHER, TAGS_ADD, { variables: { id: order.id, tags: ["cod-pending"] } });
    expect(tag).toMatchObject({ ok: true, data: { tagsAdd: { userErrors: [expect.objectContaining({ field: ["id"] })] } } });
    expect(order.tags).toEqual([]);
    fake.own(SHOP, "gid://shopify/Customer/77");
    const found = (shop: string) => shopifyGraphql<{ customers: { nodes: unknown[] } }>("admin", shop, CUSTOMERS_BY_PHONE, { variables: { query: 'phone:"+919876543210"' } });
    expect(await found(OTHER)).toEqual({ ok: true, data: { customers: { nodes: [] } } });
    expect(await found(SHOP)).toMatchObject({ ok: true, data: { customers: { nodes: [expect.objectContaining({ id: "gid://shopify/Customer/77" })] } } });
  });

  it("a cart belongs to the shop whose storefront created it; a variant no store sells gets cartCreate's user error and no cart", async () => {
    await installShop();
    await installShop({ domain: OTHER });
    const line = (merchandiseId: string) => ({ input: { lines: [{ merchandiseId, quantity: 1 }] } });
    const created = await shopifyGraphql<{ cartCreate: { cart: { id: string } } }>("storefront", SHOP, CART_CREATE, { variables: line("gid://shopify/ProductVariant/44556677") });
    if (!created.ok) throw new Error(created.detail);
    const cartId = created.data.cartCreate.cart.id;
    const update = (shop: string) => shopifyGraphql<{ cartLinesUpdate: { cart: unknown; userErrors: unknown[] } }>("storefront", shop, CART_LINES_UPDATE, { variables: { cartId, lines: [{ id: "gid://shopify/CartLine/1", quantity: 2 }] } });
    expect(await update(OTHER)).toMatchObject({ ok: true, data: { cartLinesUpdate: { cart: null, userErrors: [{ code: "INVALID", field: ["cartId"], message: "The specified cart does not exist." }] } } });
    expect(await update(SHOP)).toMatchObject({ ok: true, data: { cartLinesUpdate: { cart: { id: cartId }, userErrors: [] } } });

    RETIRED_VARIANTS.add("gid://shopify/ProductVariant/404");
    try {
      const refused = await shopifyGraphql("storefront", SHOP, CART_CREATE, { variables: line("gid://shopify/ProductVariant/404") });
      expect(refused).toEqual({
        ok: true,
        data: { cartCreate: { cart: null, userErrors: [{ code: "INVALID", field: ["input", "lines", "0", "merchandiseId"], message: "The merchandise with id gid://shopify/ProductVariant/404 does not exist." }], warnings: [] } },
      });
    } finally {
      RETIRED_VARIANTS.delete("gid://shopify/ProductVariant/404");
    }
  });

  it("Shopify's wording of a document that does not parse or names no required argument", async () => {
    await installShop();
    const body = async (query: string) => (await post(SHOP, { "x-shopify-access-token": installedAccessToken(SHOP) }, query)).json();
    expect((await body(`query Q { shop { name }`)).errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/^Parse error on .* at \[1, \d+\]$/), extensions: { code: "parseError" } })]);
    expect((await body(`query Q { order { id } }`)).errors).toEqual([
      expect.objectContaining({ message: "Field 'order' is missing required arguments: id", extensions: expect.objectContaining({ code: "missingRequiredArguments" }) }),
    ]);
    fake.takeRefusals();
  });
});
