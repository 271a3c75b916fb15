import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import { prisma } from "~/core/db.server";
import { blockPhone } from "~/otp/blocklist.server";
import { recordSelection } from "~/otp/selection.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import * as handlers from "../mocks/shopify/handlers";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { clearShopCache } from "~/core/settings/shop.server";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";
import { JOB_KINDS } from "~/server-build";

/**
 * orders/create decides with the order's own facts (docs/contract.md, "orders/create"): COD by the
 * checkout function's rule, evidence only from what the order carries, never a blocked phone, phones
 * read with the address's country.
 */
const A = "+212600000031"; // a shopper who verifies
const shopify = useFakeShopify();
const twilio = useFakeTwilio();
const tagged = new Map<string, Set<string>>();

beforeEach(() => {
  tagged.clear();
  handlers.installDefaultHandlers(shopify, {}, tagged);
});

const post = (route: Parameters<typeof callRoute>[0], path: string, body: Record<string, unknown>) =>
  callRoute(route, signedRequest(path, { method: "POST", body }));

/** A shopper proves `phone` through the storefront: send-otp, then verify-otp with the texted code. */
async function verify(phone: string, extra: Record<string, unknown> = {}) {
  expect((await post(sendOtp, "/send-otp", { phone })).status).toBe(200);
  const verified = await jsonOf(await post(verifyOtp, "/verify-otp", { phone, otp: twilio.twilio.codeFor(phone), selectedMode: "cod", ...extra }));
  expect(verified.success).toBe(true);
  return verified as { proof: string };
}

async function deliver(payload: ReturnType<typeof orderCreatedPayload>) {
  expect((await callRoute(ordersCreate, signedWebhook("orders/create", payload))).status).toBe(200);
  await runDueJobs(JOB_KINDS);
  // The verification tags; the COD risk tag (cod-risk:<band>) is tested in tests/routes/risk-orders.test.ts.
  return [...(tagged.get(payload.admin_graphql_api_id) ?? [])].filter((t) => !t.startsWith("cod-risk:"));
}

const recordOf = (orderGid: string) => prisma.orderRecord.findFirstOrThrow({ where: { orderGid } });
const confirmationOf = (orderGid: string) => prisma.orderConfirmation.findFirst({ where: { orderGid } });
const customer = (id: number) => ({ id, admin_graphql_api_id: `gid://shopify/Customer/${id}`, phone: null, tags: "" });
/** Well formed, signed by nobody: what anyone can put on a cart. */
const forgedProof = (phone: string) => `v1.${phone.slice(1)}.cod.${Math.floor(Date.now() / 1000) + 3600}.cm1abcdefghij0123.${"0f".repeat(16)}`;

describe("a renamed or translated COD method is COD on the order side too", () => {
  const renamed = ["Pago contra entrega", "Paiement à la livraison", "الدفع عند الاستلام"];

  it("an order paid by a method the shop lists, with a forged proof, goes to confirmation (4 of 4 escaped before); unlisted, it is not COD, as at checkout", async () => {
    const shop = await installShop({ codMethodNames: renamed.join("\n") });
    for (const gateway of [...renamed, "Cash on Delivery (COD)"]) {
      const order = orderCreatedPayload({
        phone: A,
        gateway,
        payment_gateway_names: [gateway],
        note_attributes: [{ name: "_cod_proof", value: forgedProof(A) }],
      });
      expect(await deliver(order), gateway).toEqual(["cod-pending"]);
      expect(await recordOf(order.admin_graphql_api_id)).toMatchObject({ cod: true, status: "pending" });
      expect(await confirmationOf(order.admin_graphql_api_id)).toMatchObject({ status: "pending", phone: A });
    }

    await prisma.shop.update({ where: { id: shop.id }, data: { codMethodNames: "Cash on Delivery (COD)" } });
    clearShopCache();
    const unlisted = orderCreatedPayload({ phone: A, gateway: renamed[0], payment_gateway_names: [renamed[0]] });
    expect(await deliver(unlisted)).toEqual([]);
    expect(await recordOf(unlisted.admin_graphql_api_id)).toMatchObject({ cod: false });
    expect(await confirmationOf(unlisted.admin_graphql_api_id)).toBeNull();
  });
});

describe("someone else's verification, found by phone alone, proves nothing", () => {
  it("A verifies and leaves; an order with A's number and no proof or attribute is not verified and tags no customer; A's own order is", async () => {
    const shop = await installShop();
    const { proof } = await verify(A);
    const attacker = orderCreatedPayload({ phone: A, shipping_address: { phone: A, country_code: "MA" }, customer: customer(501) });
    // The selection is linked by phone, and names the mode only.
    expect(await deliver(attacker)).toEqual(["cod-pending", "payment-mode:cod"]);
    expect((await prisma.selection.findFirstOrThrow({ where: { phone: A } })).orderGid).toBe(attacker.admin_graphql_api_id);
    expect(tagged.get("gid://shopify/Customer/501")).toBeUndefined();
    expect(await recordOf(attacker.admin_graphql_api_id)).toMatchObject({ status: "pending", verifiedBy: null });

    // A's own order carries what the attacker's did not: the proof, or the selection by our attribute.
    const own = orderCreatedPayload({ phone: A, customer: customer(502), note_attributes: [{ name: "_cod_proof", value: proof }] });
    expect(await deliver(own)).toEqual(["cod-verified"]);
    expect([...(tagged.get("gid://shopify/Customer/502") ?? [])]).toEqual(["cod-verified-customer"]);
    const selection = await recordSelection({ shopId: shop.id, phone: A, mode: "cod", source: "verify-otp", verified: true });
    const byAttribute = orderCreatedPayload({ phone: A, note_attributes: [{ name: "_cod_selection", value: selection.id }] });
    expect(await deliver(byAttribute)).toEqual(["cod-verified", "payment-mode:cod"]);
    await verify(A, { cartToken: "cart-of-a" });
    expect(await deliver(orderCreatedPayload({ phone: A, cart_token: "cart-of-a" }))).toEqual(["cod-verified", "payment-mode:cod"]);
  });
});

describe("a number blocked after it verified", () => {
  it("is never evidence: its proof and its selection leave the order pending, and its customer untagged", async () => {
    const shop = await installShop();
    const { proof } = await verify(A, { cartToken: "cart-blocked" });
    await blockPhone(shop, A, "refused parcels");
    const withCart = orderCreatedPayload({ phone: A, cart_token: "cart-blocked", customer: customer(503) });
    expect(await deliver(withCart)).toEqual(["cod-pending", "payment-mode:cod"]);
    expect(tagged.get("gid://shopify/Customer/503")).toBeUndefined();
    expect(await recordOf(withCart.admin_graphql_api_id)).toMatchObject({ status: "pending" });

    const withProof = orderCreatedPayload({ phone: A, customer: customer(504), note_attributes: [{ name: "_cod_proof", value: proof }] });
    expect(await deliver(withProof)).toEqual(["cod-pending"]);
    expect(tagged.get("gid://shopify/Customer/504")).toBeUndefined();
    expect(await recordOf(withProof.admin_graphql_api_id)).toMatchObject({ status: "pending" });
  });
});

describe("national phones on orders", () => {
  it("a shopper who verified +1 415 365 6949 and typed (415) 365-6949 with a US address is verified and linked", async () => {
    await installShop();
    const { proof } = await verify("+14153656949", { cartToken: "cart-us" });
    const order = orderCreatedPayload({
      phone: null,
      cart_token: "cart-us",
      shipping_address: { first_name: "Ann", phone: "(415) 365-6949", country_code: "US" },
      billing_address: { first_name: "Ann", phone: null, country_code: "US" },
      note_attributes: [{ name: "_cod_proof", value: proof }],
    });
    expect(await deliver(order)).toEqual(["cod-verified", "payment-mode:cod"]);
    expect((await prisma.selection.findFirstOrThrow({ where: { phone: "+14153656949" } })).orderGid).toBe(order.admin_graphql_api_id);
    expect(await recordOf(order.admin_graphql_api_id)).toMatchObject({ status: "verified", phone: "+14153656949" });
    expect(await confirmationOf(order.admin_graphql_api_id)).toBeNull();
  });

  it("an unverified order in national form gets its confirmation texted to the number in E.164", async () => {
    await installShop();
    const order = orderCreatedPayload({ shipping_address: { phone: "06 00 00 00 31", country_code: "MA" } });
    expect(await deliver(order)).toEqual(["cod-pending"]);
    expect(await confirmationOf(order.admin_graphql_api_id)).toMatchObject({ phone: A });
  });
});

describe("the address check takes the facts' phone", () => {
  it("a suspect address with a national phone gets its correction link texted to the number in E.164", async () => {
    await installShop({ autoAddressCorrection: true });
    const order = orderCreatedPayload({
      shipping_address: { first_name: "Amina", address1: "Rue des Fleurs", city: "Casablanca", zip: "20000", country_code: "MA", phone: "06 00 00 00 31" },
    });
    await deliver(order);
    expect(await prisma.addressCorrection.findFirst({ where: { orderGid: order.admin_graphql_api_id } })).toMatchObject({ phone: A, reason: "missing_house_number" });
  });
});

describe("the gateway decides the mode", () => {
  it("a COD order linked to a prepaid selection gets the COD treatment", async () => {
    const shop = await installShop();
    const prepaid = await recordSelection({ shopId: shop.id, phone: A, mode: "prepaid", source: "create-checkout", verified: false, cartToken: "cart-p" });
    const order = orderCreatedPayload({ phone: A, cart_token: "cart-p" });
    expect(await deliver(order)).toEqual(["cod-pending", "payment-mode:cod"]);
    expect((await prisma.selection.findUniqueOrThrow({ where: { id: prepaid.id } })).orderGid).toBe(order.admin_graphql_api_id);
    expect(await recordOf(order.admin_graphql_api_id)).toMatchObject({ cod: true, mode: "cod", status: "pending" });
    expect(await confirmationOf(order.admin_graphql_api_id)).toMatchObject({ status: "pending" });
  });
});
