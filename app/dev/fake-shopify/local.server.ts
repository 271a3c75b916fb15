import { env } from "~/env.server";
import { FakeShopify } from "~/dev/fake-shopify/server";
import {
  cartCreate,
  cartCreateUserErrors,
  cartLinesUpdate,
  draftOrderCalculate,
  draftOrderCreate,
  draftOrderCreateUserErrors,
  graphqlErrors,
  installDefaultHandlers,
  OPERATIONS,
  paymentTermsTemplates,
  serverError,
  slow,
  tagsAdd,
  throttled,
  tooManyRequests,
} from "~/dev/fake-shopify/handlers";
import type { Handler } from "~/dev/fake-shopify/server";
import { FakeOrderStore, fakeOrder } from "~/dev/fake-shopify/handlers/orders";
import { redirectShopifyApi } from "~/shopify-api-origin.server";

/** The local checkout preview page that the fake's checkout URLs point at (app/routes/local.checkout.ts). */
export const LOCAL_CHECKOUT_PATH = "/local/checkout";

/**
 * Local mode with no Shopify store: an in-process fake Shopify answers the Admin and Storefront
 * calls, and its checkouts lead to a local preview page. Only in development with LOCAL_MODE on and
 * no SHOPIFY_API_ORIGIN; never in production (NODE_ENV=production) and never under tests, which start
 * their own fake.
 */
export const localFakeShopifyWanted = env.localMode && env.NODE_ENV === "development" && !env.SHOPIFY_API_ORIGIN;

declare global {
  var __codLocalShopify: Promise<FakeShopify> | undefined;
}

const links = () => ({ checkoutBase: `${env.SHOPIFY_APP_URL}${LOCAL_CHECKOUT_PATH}` });
const tagged = new Map<string, Set<string>>();

export const localShopifyReady: Promise<unknown> = localFakeShopifyWanted
  ? (globalThis.__codLocalShopify ??= (async () => {
      const fake = installDefaultHandlers(new FakeShopify(), links(), tagged);
      // A demo order (#1001, id 1001) whose address the address-correction flow can fix.
      new FakeOrderStore([fakeOrder({ id: "gid://shopify/Order/1001", name: "#1001" })]).install(fake);
      const origin = await fake.start();
      redirectShopifyApi(origin);
      process.stdout.write(`local mode: fake Shopify at ${origin} answers Admin and Storefront calls\n`);
      return fake;
    })())
  : Promise.resolve();

/** How local mode's fake Shopify answers one operation; set through POST /dev/fake-shopify. */
export const LOCAL_FAKE_OPERATIONS = Object.keys(OPERATIONS) as (keyof typeof OPERATIONS)[];
export const LOCAL_FAKE_ANSWERS = ["ok", "user_errors", "graphql_errors", "throttled", "http_429", "http_503", "timeout", "dropped"] as const;
export type LocalFakeAnswer = (typeof LOCAL_FAKE_ANSWERS)[number];

const current = new Map<keyof typeof OPERATIONS, LocalFakeAnswer>(LOCAL_FAKE_OPERATIONS.map((op) => [op, "ok"]));

function goodAnswer(operation: keyof typeof OPERATIONS): Handler {
  switch (operation) {
    case "cartCreate":
      return cartCreate(links());
    case "draftOrderCreate":
      return draftOrderCreate(links());
    case "draftOrderCalculate":
      return draftOrderCalculate();
    case "paymentTermsTemplates":
      return paymentTermsTemplates();
    case "tagsAdd":
      return tagsAdd(tagged);
    case "cartLinesUpdate":
      return cartLinesUpdate();
  }
}

function userErrors(operation: keyof typeof OPERATIONS): Handler {
  if (operation === "cartCreate") return cartCreateUserErrors();
  if (operation === "draftOrderCreate") return draftOrderCreateUserErrors();
  if (operation === "cartLinesUpdate") {
    return () => ({ data: { cartLinesUpdate: { cart: null, userErrors: [{ field: ["lines", "0", "quantity"], message: "Quantity is invalid" }] } } });
  }
  if (operation === "tagsAdd") {
    return () => ({ data: { tagsAdd: { node: null, userErrors: [{ field: ["id"], message: "Order does not exist" }] } } });
  }
  if (operation === "draftOrderCalculate") {
    return () => ({
      data: { draftOrderCalculate: { calculatedDraftOrder: null, userErrors: [{ field: ["input", "lineItems"], message: "Variant is not available" }] } },
    });
  }
  // paymentTermsTemplates is a query: it has no user errors, only GraphQL errors.
  return graphqlErrors("Access denied for paymentTermsTemplates field.");
}

function handlerFor(operation: keyof typeof OPERATIONS, answer: LocalFakeAnswer): Handler {
  switch (answer) {
    case "ok":
      return goodAnswer(operation);
    case "user_errors":
      return userErrors(operation);
    case "graphql_errors":
      return graphqlErrors();
    case "throttled":
      return throttled();
    case "http_429":
      return tooManyRequests();
    case "http_503":
      return serverError(503);
    case "timeout":
      // Longer than the app's bound on a Shopify call, so the call is abandoned.
      return slow(env.SHOPIFY_CALL_TIMEOUT_MS + 2_000, goodAnswer(operation));
    case "dropped":
      return () => {
        throw new Error("connection dropped");
      };
  }
}

/** Makes local mode's fake Shopify answer `operation` well or in one of the ways Shopify fails. */
export async function setLocalFakeAnswer(operation: keyof typeof OPERATIONS, answer: LocalFakeAnswer) {
  const fake = await globalThis.__codLocalShopify;
  if (!fake) throw new Error("local mode's fake Shopify is not running");
  fake.on(OPERATIONS[operation], handlerFor(operation, answer), operation === "cartCreate" || operation === "cartLinesUpdate" ? "storefront" : "admin");
  current.set(operation, answer);
}

export function localFakeAnswers(): Record<string, LocalFakeAnswer> {
  return Object.fromEntries(current);
}
