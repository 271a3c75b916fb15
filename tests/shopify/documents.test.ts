import fs from "node:fs";
import path from "node:path";
import { Kind, parse, validate, type OperationDefinitionNode } from "graphql";
import { APP_DIR, apisByDocument, DOCUMENTS, operations, sourceFiles } from "../helpers/app-documents";
import { checkRequest, nestedDenials, setGrantedScopes } from "../mocks/shopify/rules";
import { requestedScopes, shopifySchema } from "../mocks/shopify/schemas";
import { effectiveScopes, ROOT_FIELD_SCOPES } from "../mocks/shopify/scopes";

/**
 * Every GraphQL document the app sends (app/core/shopify/operations.ts and checkout's
 * checkout-operations.ts beside it: each written once) against the
 * published schema of the API it goes to, the API read from the code that sends it; and the access
 * scopes its root fields need against the scopes the app requests (shopify.app.toml), by the table in
 * tests/mocks/shopify/scopes.ts. No network: shopify-schemas/ holds the schemas.
 */
const APP = APP_DIR;
/** The two homes of the app's documents (app/core/shopify/). */
const HOMES = ["operations.ts", "checkout-operations.ts"].map((f) => path.join("core", "shopify", f));

describe("the GraphQL documents in app/", () => {
  const apis = apisByDocument();

  it("are the ones operations.ts and checkout-operations.ts hold: every GraphQL template in app/ is there", () => {
    const elsewhere = sourceFiles(APP)
      .filter((f) => !HOMES.some((home) => f.endsWith(home)))
      .filter((f) => /`#graphql|gql`/.test(fs.readFileSync(f, "utf8")));
    expect(elsewhere.map((f) => path.relative(APP, f))).toEqual([]);
    expect(DOCUMENTS.length).toBeGreaterThanOrEqual(31);
  });

  it("a document passed through a variable goes to the Admin API (the only API with such wrappers)", () => {
    // The wrappers (holds, address-correction orders) call shopifyGraphql("admin", shop, query): a
    // storefront call must name its document, so the test knows which schema it goes to.
    expect([...apis].filter(([name, set]) => set.has("storefront") && !(name in operations)).map(([name]) => name)).toEqual([]);
  });

  it.each(DOCUMENTS)("%s is valid against the schema of the API it goes to", (name, document) => {
    const api = apis.get(name)?.has("storefront") ? "storefront" : "admin";
    expect(apis.get(name)?.size ?? 1, `${name} goes to one API`).toBe(1);
    const errors = validate(shopifySchema(api === "admin" ? "admin" : "storefront-graphql"), parse(document));
    expect(errors.map((e) => e.message)).toEqual([]);
  });

  it.each(DOCUMENTS)("%s needs only scopes the app requests, by the scope table", (name, document) => {
    expect(scopeProblems(name, document)).toEqual([]);
  });

  function scopeProblems(name: string, document: string): string[] {
    const api = apis.get(name)?.has("storefront") ? "storefront" : "admin";
    const op = parse(document).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
    const granted = effectiveScopes(requestedScopes());
    const problems: string[] = [];
    for (const selection of op.selectionSet.selections) {
      if (selection.kind !== Kind.FIELD) continue;
      const rule = ROOT_FIELD_SCOPES[api][selection.name.value];
      if (!rule) {
        problems.push(`${api} ${selection.name.value} has no row in the scope table`);
        continue;
      }
      if (!/^https:\/\/shopify\.dev\/docs\/api\//.test(rule.source)) problems.push(`${selection.name.value}: no shopify.dev source`);
      if (rule.anyOf?.length && !rule.anyOf.some((s) => granted.has(s))) {
        problems.push(`${selection.name.value} needs ${rule.anyOf.join(" or ")}, which the app does not request`);
      }
      // Resource-dependent (tags, metafields): some resource must be allowed; which one the fake checks per request, from the IDs.
      if (rule.byResource && !Object.values(rule.byResource.scopes).some((anyOf) => anyOf.some((s) => granted.has(s)))) {
        problems.push(`${selection.name.value}: no resource the app may write`);
      }
    }
    // Nested fields of a type that needs a scope of its own (TYPE_SCOPES).
    for (const n of nestedDenials(shopifySchema(api === "admin" ? "admin" : "storefront-graphql"), parse(document), api, granted)) {
      problems.push(`${n.path.join(".")} needs ${n.access}`);
    }
    return problems;
  }
});

describe("the scope table", () => {
  it("names only fields and types the schemas have, each with its shopify.dev page", () => {
    for (const api of ["admin", "storefront"] as const) {
      const schema = shopifySchema(api === "admin" ? "admin" : "storefront-graphql");
      const roots = { ...schema.getQueryType()!.getFields(), ...schema.getMutationType()!.getFields() };
      for (const [field, rule] of Object.entries(ROOT_FIELD_SCOPES[api])) {
        expect(roots[field], `${api} root field ${field}`).toBeDefined();
        expect(rule.source).toMatch(new RegExp(`^https://shopify\\.dev/docs/api/(admin-graphql|storefront)/2026-10/(queries|mutations)/${field}$`));
      }
    }
  });
});

describe("the checks are real", () => {
  afterEach(() => setGrantedScopes(null));

  it("a field the schema lacks, a wrong variable type and a missing scope are each refused, as Shopify refuses them", () => {
    const badField = checkRequest("admin", "2026-10", `query Q { shop { name notAField } }`, {}, "Q");
    expect(badField.ok).toBe(false);
    const badVariable = checkRequest("admin", "2026-10", operations.TAGS_ADD, { id: "gid://shopify/Order/1", tags: [{ not: "a string" }] }, operations.OPERATIONS.tagsAdd);
    expect(badVariable.ok).toBe(false);
    const missingVariable = checkRequest("admin", "2026-10", operations.TAGS_ADD, { tags: ["x"] }, operations.OPERATIONS.tagsAdd);
    expect(missingVariable.ok).toBe(false);
    setGrantedScopes(requestedScopes().filter((s) => s !== "write_orders"));
    const denied = checkRequest("admin", "2026-10", operations.TAGS_ADD, { id: "gid://shopify/Order/1", tags: ["x"] }, operations.OPERATIONS.tagsAdd);
    expect(denied).toMatchObject({
      ok: false,
      body: {
        data: { tagsAdd: null },
        errors: [
          {
            message: "Access denied for tagsAdd field. Required access: `write_orders` access scope.",
            extensions: { code: "ACCESS_DENIED", documentation: "https://shopify.dev/api/usage/access-scopes", requiredAccess: "`write_orders` access scope." },
            path: ["tagsAdd"],
          },
        ],
      },
    });
    // The same mutation on a customer needs write_customers, which is still granted.
    expect(checkRequest("admin", "2026-10", operations.TAGS_ADD, { id: "gid://shopify/Customer/1", tags: ["x"] }, operations.OPERATIONS.tagsAdd).ok).toBe(true);
  });

  it("a nested field whose type needs a scope of its own is refused too (an order's fulfillment holds without a fulfillment-orders scope)", () => {
    setGrantedScopes(requestedScopes().filter((s) => !s.endsWith("_merchant_managed_fulfillment_orders")));
    const refused = checkRequest("admin", "2026-10", operations.ORDER_FULFILLMENT_ORDERS, { id: "gid://shopify/Order/1" }, operations.OPERATIONS.orderFulfillmentOrders);
    expect(refused).toMatchObject({
      ok: false,
      body: {
        data: null,
        errors: [
          { extensions: { code: "ACCESS_DENIED", requiredAccess: expect.stringContaining("`read_merchant_managed_fulfillment_orders` access scope") }, path: ["order", "fulfillmentOrders", "nodes"] },
          { extensions: { code: "ACCESS_DENIED", requiredAccess: expect.stringContaining("`read_merchant_managed_fulfillment_orders` access scope") }, path: ["order", "fulfillmentOrders", "nodes", "fulfillmentHolds"] },
        ],
      },
    });
  });

  it("variables are coerced as Shopify coerces them: an ID may be a number, an Int may not be a string", () => {
    expect(checkRequest("admin", "2026-10", `query Q($id: ID!) { order(id: $id) { id } }`, { id: 12 }, "Q").ok).toBe(true);
    expect(checkRequest("admin", "2026-10", `query Q($n: Int!) { orders(first: $n) { nodes { id } } }`, { n: "5" }, "Q").ok).toBe(false);
  });

  it("a root field the scope table does not know is refused, so a new operation needs its row", () => {
    const unknown = checkRequest("admin", "2026-10", `query Q { products(first: 1) { nodes { id } } }`, {}, "Q");
    expect(unknown).toMatchObject({ ok: false, reason: expect.stringContaining("no scope row for admin field products") });
  });
});
