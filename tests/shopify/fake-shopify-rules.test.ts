import { unauthenticated } from "~/core/shopify/app.server";
import { shopifyGraphql } from "~/core/shopify/graphql.server";
import { OPERATIONS, TAGS_ADD } from "~/core/shopify/operations";
import { useFakeShopify } from "../helpers/fake-shopify";
import { installShop, SHOP } from "../helpers/shops";
import { setGrantedScopes } from "../mocks/shopify/rules";
import { requestedScopes } from "../mocks/shopify/schemas";
import { fakeShopifyRefusals } from "../mocks/shopify/server";

/**
 * The fake Shopify holds every request to Shopify's rules over HTTP, through the library's own clients:
 * a document or variables Shopify's schema refuses, and a root field whose scope the app does not
 * request, get Shopify's answer and are recorded as refusals (which fail whatever test caused them:
 * tests/setup/worker.ts); its own answers are shaped to the query's selection, and an answer Shopify
 * could not send is recorded too.
 */
describe("the fake Shopify plays by Shopify's rules", () => {
  const fake = useFakeShopify((f) =>
    f
      .on(OPERATIONS.tagsAdd, () => ({ data: { tagsAdd: { node: { id: "gid://shopify/Order/1" }, userErrors: [], notAsked: true } } }), "admin")
      .on("ShopName", () => ({ data: { shop: { name: "Fake Shop", currencyCode: "NOT_A_CURRENCY" } } }), "admin"),
  );
  afterEach(() => setGrantedScopes(null));

  /** The GraphQL errors Shopify's answer carries, through the library's own Admin client (which throws on them). */
  async function graphQLErrorsOf(query: string, variables?: Record<string, unknown>): Promise<unknown> {
    const { admin } = await unauthenticated.admin(SHOP);
    const body = await admin
      .graphql(query, { variables })
      .then(() => null)
      .catch((error: { body?: { errors?: { graphQLErrors?: unknown } } }) => error.body?.errors?.graphQLErrors);
    return body;
  }

  it("a field the schema lacks: Shopify's validation error, no data, and a refusal recorded", async () => {
    await installShop();
    const result = await shopifyGraphql("admin", SHOP, `query ShopName { shop { name notAField } }`);
    expect(result).toMatchObject({ ok: false, cause: "graphql_errors" });
    // graphql-ruby's wording and code, as Shopify answers it (not graphql-js's "Cannot query field ...").
    expect(await graphQLErrorsOf(`query ShopName { shop { name notAField } }`)).toEqual([
      { message: "Field 'notAField' doesn't exist on type 'Shop'", locations: [{ line: 1, column: 30 }], extensions: { code: "undefinedField", typeName: "Shop", fieldName: "notAField" } },
    ]);
    const [refusal] = fake.takeRefusals();
    expect(refusal).toMatchObject({ api: "admin", operationName: "ShopName", reason: expect.stringContaining("Field 'notAField' doesn't exist on type 'Shop'") });
    expect(fake.callsTo("ShopName")[0].refused).toBeTruthy();
  });

  it("variables that do not coerce to the operation's types are refused before anything runs", async () => {
    await installShop();
    const result = await shopifyGraphql("admin", SHOP, TAGS_ADD, { variables: { id: "gid://shopify/Order/1", tags: [{ tag: "x" }] } });
    expect(result).toMatchObject({ ok: false, cause: "graphql_errors" });
    expect(await graphQLErrorsOf(TAGS_ADD, { id: "gid://shopify/Order/1", tags: [{ tag: "x" }] })).toEqual([
      expect.objectContaining({
        message: "Variable $tags of type [String!]! was provided invalid value for 0",
        extensions: { code: "INVALID_VARIABLE", value: [{ tag: "x" }], problems: [{ path: [0], explanation: expect.any(String) }] },
      }),
    ]);
    const refused = expect.objectContaining({ reason: expect.stringContaining("Variable $tags of type [String!]! was provided invalid value") });
    expect(fake.takeRefusals()).toEqual([refused, refused]);
  });

  it("a root field whose scope the app does not request: ACCESS_DENIED on the field, as Shopify answers it", async () => {
    await installShop();
    setGrantedScopes(requestedScopes().filter((s) => s !== "write_orders"));
    const { admin } = await unauthenticated.admin(SHOP);
    const body = await admin
      .graphql(TAGS_ADD, { variables: { id: "gid://shopify/Order/1", tags: ["cod-verified"] } })
      .then(() => null)
      .catch((error: { body?: unknown }) => error.body);
    expect(body).toMatchObject({
      errors: {
        graphQLErrors: [
          {
            message: "Access denied for tagsAdd field. Required access: `write_orders` access scope.",
            extensions: { code: "ACCESS_DENIED", documentation: "https://shopify.dev/api/usage/access-scopes", requiredAccess: "`write_orders` access scope." },
            path: ["tagsAdd"],
          },
        ],
      },
    });
    expect(fake.takeRefusals()).toEqual([expect.objectContaining({ reason: expect.stringContaining("tagsAdd needs `write_orders` access scope") })]);
  });

  it("the refusal fails the test that caused it, unless taken: the list the test setup checks holds it", async () => {
    await installShop();
    await shopifyGraphql("admin", SHOP, `query ShopName { shop { nope } }`);
    expect(fakeShopifyRefusals()).toHaveLength(1);
    fake.takeRefusals();
    expect(fakeShopifyRefusals()).toHaveLength(0);
  });

  it("answers only what the query selected, and records an answer Shopify could not send", async () => {
    await installShop();
    const tagged = await shopifyGraphql<{ tagsAdd: Record<string, unknown> }>("admin", SHOP, TAGS_ADD, { variables: { id: "gid://shopify/Order/1", tags: ["x"] } });
    expect(tagged).toEqual({ ok: true, data: { tagsAdd: { node: { id: "gid://shopify/Order/1" }, userErrors: [] } } });
    const shop = await shopifyGraphql("admin", SHOP, `query ShopName { shop { name currencyCode } }`);
    // Shop.currencyCode is non-null: the wrong value nulls the whole (non-null) shop, as GraphQL does.
    expect(shop).toMatchObject({ ok: false });
    expect(fake.takeAnswerProblems()).toEqual([expect.stringContaining("Enum \"CurrencyCode\" cannot represent value: \"NOT_A_CURRENCY\"")]);
  });
});
