import fs from "node:fs";
import path from "node:path";
import { getNamedType, Kind, parse, TypeInfo, validate, visit, visitWithTypeInfo, type GraphQLSchema } from "graphql";
import * as checkoutOperations from "~/core/shopify/checkout-operations";
import * as operationsTable from "~/core/shopify/operations";
import { shopifySchema } from "../helpers/shopify-schemas";

/**
 * docs/deploy.md's "Protected customer data approval" names each kind of protected customer data the app reads
 * through the Admin API (Shopify's level 2: name, address, phone, email), with why. This test reads what every
 * Admin API document selects, field by field against the published 2026-10 schema, and holds the list to it: a
 * document that starts selecting an email fails until the list says why, and a kind the list names that no
 * document selects any more fails until it leaves the list.
 */
type Kind2 = "Name" | "Address" | "Phone" | "Email";

const DEPLOY = fs.readFileSync(path.resolve(__dirname, "../../docs/deploy.md"), "utf8");
const operations = { ...operationsTable, ...checkoutOperations };
const DOCUMENTS = Object.entries(operations).filter((e): e is [string, string] => typeof e[1] === "string" && e[1].startsWith("#graphql"));

/** The parts of a postal address (a MailingAddress's fields that are neither a name nor a phone). */
const ADDRESS_TYPES = new Set(["MailingAddress", "CustomerAddress"]);
const NAME_FIELDS = new Set(["firstName", "lastName", "name", "displayName"]);
/** The types whose names are a person's (an Order's or a Product's `name` is not). */
const PERSON_TYPES = new Set(["MailingAddress", "CustomerAddress", "Customer", "StaffMember"]);

/** Which kind of protected data a selected field is, or null. */
function protectedKind(parent: string, field: string): Kind2 | null {
  if (/phone/i.test(field)) return "Phone";
  if (/email/i.test(field)) return "Email";
  if (PERSON_TYPES.has(parent) && NAME_FIELDS.has(field)) return "Name";
  if (ADDRESS_TYPES.has(parent) && field !== "id" && field !== "__typename") return "Address";
  return null;
}

/** Every protected field a document selects, as `Type.field`, by kind. */
function protectedSelections(schema: GraphQLSchema, document: string): Map<Kind2, Set<string>> {
  const found = new Map<Kind2, Set<string>>();
  const typeInfo = new TypeInfo(schema);
  visit(
    parse(document),
    visitWithTypeInfo(typeInfo, {
      [Kind.FIELD]: (node) => {
        const parent = typeInfo.getParentType();
        if (!parent) return;
        const kind = protectedKind(getNamedType(parent).name, node.name.value);
        if (kind) found.set(kind, (found.get(kind) ?? new Set()).add(`${parent.name}.${node.name.value}`));
      },
    }),
  );
  return found;
}

/** The kinds the deploy guide's approval list names: its `- **Kind**:` items (an item saying "not requested" names none). */
function listedKinds(guide = DEPLOY): Set<Kind2> {
  const section = /\*\*Protected customer data approval\.\*\*([\s\S]*?)\n\d+\. \*\*/.exec(guide)?.[1] ?? "";
  const kinds = [...section.matchAll(/^\s+- \*\*(Name|Address|Phone|Email)\*\*: (.*)$/gm)].filter((m) => !/not requested/i.test(m[2])).map((m) => m[1] as Kind2);
  return new Set(kinds);
}

describe("the protected customer data the Admin API documents select", () => {
  const admin = shopifySchema("admin");
  const adminDocuments = DOCUMENTS.filter(([, document]) => validate(admin, parse(document)).length === 0);

  function selectedKinds() {
    const byKind = new Map<Kind2, string[]>();
    for (const [name, document] of adminDocuments) {
      for (const [kind, fields] of protectedSelections(admin, document)) byKind.set(kind, [...(byKind.get(kind) ?? []), `${name}: ${[...fields].join(", ")}`]);
    }
    return byKind;
  }

  it("are exactly the kinds docs/deploy.md asks Shopify's approval for", () => {
    expect(adminDocuments.length).toBeGreaterThanOrEqual(30);
    const selected = selectedKinds();
    const listed = listedKinds();
    const unlisted = [...selected].filter(([kind]) => !listed.has(kind)).map(([kind, where]) => `${kind} (${where.join("; ")})`);
    expect(unlisted, "selected by a document but not in docs/deploy.md's approval list").toEqual([]);
    expect([...listed].filter((kind) => !selected.has(kind)), "in the approval list but selected by no document").toEqual([]);
  });

  it("the classifier sees each kind where Shopify puts it, and not in an order's or a product's name", () => {
    const found = protectedSelections(admin, `query { order(id: "gid://shopify/Order/1") { name email phone customer { displayName defaultEmailAddress { emailAddress } } shippingAddress { firstName zip phone } lineItems(first: 1) { nodes { name } } } }`);
    expect(Object.fromEntries([...found].map(([k, v]) => [k, [...v].sort()]))).toEqual({
      Email: ["Customer.defaultEmailAddress", "CustomerEmailAddress.emailAddress", "Order.email"],
      Phone: ["MailingAddress.phone", "Order.phone"],
      Name: ["Customer.displayName", "MailingAddress.firstName"],
      Address: ["MailingAddress.zip"],
    });
  });

  it("a list that leaves out a selected kind, or says it is not requested, is seen to (the check is real)", () => {
    expect(listedKinds().has("Email")).toBe(true);
    expect(listedKinds(DEPLOY.replace("- **Email**: ", "- Email: ")).has("Email")).toBe(false);
    expect(listedKinds(DEPLOY.replace("- **Email**: ", "- **Email**: not requested. ")).has("Email")).toBe(false);
    expect(selectedKinds().has("Email")).toBe(true);
  });
});
