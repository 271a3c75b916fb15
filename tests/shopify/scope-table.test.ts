import fs from "node:fs";
import path from "node:path";
import { appDocuments } from "../helpers/app-documents";
import { documentRequirements, type Requirement } from "../mocks/shopify/document-scopes";
import { REPO_ROOT, requestedScopes, shopifySchema } from "../mocks/shopify/schemas";
import { CONFIG_SECTION_SCOPES, effectiveScopes, INPUT_FIELD_SCOPES, TYPE_SCOPES, WEBHOOK_TOPIC_SCOPES } from "../mocks/shopify/scopes";

/**
 * The access scopes the app requests (shopify.app.toml) are exactly the ones its documents and webhook
 * subscriptions need, derived from what each document selects by the scope table (tests/mocks/shopify/
 * scopes.ts and type-scopes.ts, a shopify.dev page per row): every scope needed is requested, and every
 * scope requested is needed (a `read_x` beside a needed `write_x` is the conventional pair).
 */
const toml = fs.readFileSync(path.join(REPO_ROOT, "shopify.app.toml"), "utf8");
const topics = [...toml.matchAll(/^\s*topics = \[ "([^"]+)" \]/gm)].map((m) => m[1]);
const requested = requestedScopes();
const granted = effectiveScopes(requested);

function webhookRequirements(): Requirement[] {
  const sections = Object.entries(CONFIG_SECTION_SCOPES)
    .filter(([section]) => new RegExp(`^\\[${section}\\]`, "m").test(toml))
    .map(([section, rule]) => ({ anyOf: rule.anyOf, why: `[${section}] in shopify.app.toml`, source: rule.source }));
  return [
    ...sections,
    ...topics.flatMap((t) => {
      const rule = WEBHOOK_TOPIC_SCOPES[t];
      return rule?.anyOf.length ? [{ anyOf: rule.anyOf, why: `webhook ${t}`, source: rule.source }] : [];
    }),
  ];
}

/** The requested scopes that satisfy a requirement: the scope itself, or the write_ scope that grants its read_. */
function satisfying(r: Requirement): string[] {
  return requested.filter((s) => r.anyOf.includes(s) || r.anyOf.includes(s.replace("write_", "read_")));
}

describe("the scopes the app requests", () => {
  const documents = appDocuments();
  const derived = documents.map((d) => ({ ...d, ...documentRequirements(d.api, d.document) }));
  const all = [...derived.flatMap((d) => d.requirements.map((r) => ({ ...r, why: `${d.operationName}: ${r.why}` }))), ...webhookRequirements()];

  it.each(derived.map((d) => [d.operationName, d] as const))("%s reaches only fields and types the scope table has a row for", (_name, d) => {
    expect(d.missing).toEqual([]);
  });

  it("cover every scope a document or webhook needs, nested objects included", () => {
    const unmet = all.filter((r) => !r.anyOf.some((s) => granted.has(s))).map((r) => `${r.why} needs ${r.anyOf.join(" or ")} (${r.source})`);
    expect(unmet).toEqual([]);
  });

  it("hold none the app does not need", () => {
    expect(requested).not.toContain("read_products");
    const used = new Set(all.flatMap(satisfying));
    const unused = requested.filter((s) => !used.has(s) && !(s.startsWith("read_") && used.has(s.replace("read_", "write_"))));
    expect(unused).toEqual([]);
  });

  it("every webhook topic subscribed to has its row", () => {
    expect(topics.length).toBeGreaterThanOrEqual(9);
    expect(topics.filter((t) => !WEBHOOK_TOPIC_SCOPES[t])).toEqual([]);
  });
});

describe("the scope table", () => {
  it("names types the schemas have, each with its shopify.dev page", () => {
    for (const api of ["admin", "storefront"] as const) {
      const schema = shopifySchema(api === "admin" ? "admin" : "storefront-graphql");
      for (const [type, rule] of Object.entries(TYPE_SCOPES[api])) {
        expect(schema.getType(type), `${api} type ${type}`).toBeDefined();
        expect(rule.source).toMatch(new RegExp(`^https://shopify\\.dev/docs/api/(admin-graphql|storefront)/2026-10/(objects|payloads|connections|interfaces|unions)/${type}$`));
      }
    }
    for (const rule of [...Object.values(INPUT_FIELD_SCOPES), ...Object.values(WEBHOOK_TOPIC_SCOPES)]) expect(rule.source).toMatch(/^https:\/\/shopify\.dev\/docs\/api\//);
  });

  it("derives a nested object's scope: a line item's variant needs read_products, which the app does not request", () => {
    const { requirements, missing } = documentRequirements("admin", `query Q($id: ID!) { order(id: $id) { lineItems(first: 5) { nodes { title variant { id } } } } }`);
    expect(missing).toEqual([]);
    const unmet = requirements.filter((r) => !r.anyOf.some((s) => granted.has(s)));
    expect(unmet).toEqual([expect.objectContaining({ anyOf: ["read_products"], why: "type ProductVariant", source: expect.stringContaining("/objects/ProductVariant") })]);
  });

  it("derives an input field's scope and a tags mutation's resource, and names a type with no row", () => {
    const draft = documentRequirements("admin", `mutation CreateDepositDraftOrder($input: DraftOrderInput!) { draftOrderCreate(input: $input) { draftOrder { id } } }`);
    expect(draft.requirements.map((r) => r.anyOf[0])).toEqual(expect.arrayContaining(["write_draft_orders", "read_draft_orders", "write_payment_terms"]));
    const tags = documentRequirements("admin", `mutation AddOrderTags($id: ID!, $tags: [String!]!) { tagsAdd(id: $id, tags: $tags) { userErrors { message } } }`);
    expect(tags.requirements.map((r) => `${r.why}: ${r.anyOf.join(" or ")}`)).toEqual(["tagsAdd on Order: write_orders", "tagsAdd on Customer: write_customers"]);
    expect(documentRequirements("admin", `query Q { shop { features { giftCards } } }`).missing).toEqual(["type ShopFeatures"]);
  });
});
