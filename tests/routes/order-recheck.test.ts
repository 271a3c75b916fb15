import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import * as createCheckout from "~/routes/proxy.create-checkout";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import { prisma } from "~/core/db.server";
import { markPhoneVerified } from "~/otp/verified-phones.server";
import { recordSelection } from "~/otp/selection.server";
import { runDueJobs as runJobs } from "~/core/jobs/queue.server";
import { JOB_KINDS } from "~/server-build";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { issueProof } from "~/otp/proof.server";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

const runDueJobs = (limit?: number, concurrency?: number) => runJobs(JOB_KINDS, limit, concurrency);

/**
 * orders/create re-checks every order: `cod-verified` only when one of the order's phones is a phone
 * proven through us (a valid proof on the order, the linked selection, or a returning verified
 * customer), never because a selection or proof of another number got attached to it.
 */
const V = "+212600000021"; // verified by its owner
const Q = "+212600000099"; // the stranger's number
const shopify = useFakeShopify();
const twilio = useFakeTwilio();
const tagged = new Map<string, Set<string>>();

beforeEach(() => {
  tagged.clear();
  handlers.installDefaultHandlers(shopify, {}, tagged);
});

const post = (route: Parameters<typeof callRoute>[0], path: string, body: Record<string, unknown>) =>
  callRoute(route, signedRequest(path, { method: "POST", body }));

async function deliverAndTag(payload: ReturnType<typeof orderCreatedPayload>) {
  expect((await callRoute(ordersCreate, signedWebhook("orders/create", payload))).status).toBe(200);
  await runDueJobs();
  // The verification tags; the COD risk tag (cod-risk:<band>) is tested in tests/routes/risk-orders.test.ts.
  return [...(tagged.get(payload.admin_graphql_api_id) ?? [])].filter((t) => !t.startsWith("cod-risk:"));
}

describe("replaying the reuse of someone else's verification", () => {
  it("a stranger gets no skip, no cod checkout, and an order with their own phones carrying V's selection is not cod-verified", async () => {
    await installShop();
    // V's owner verifies.
    expect((await post(sendOtp, "/send-otp", { phone: V })).status).toBe(200);
    const owner = await jsonOf(await post(verifyOtp, "/verify-otp", { phone: V, otp: twilio.twilio.codeFor(V), selectedMode: "cod" }));
    expect(owner.success).toBe(true);
    const ownersSelection = await prisma.selection.findFirstOrThrow({ where: { phone: V } });

    // The stranger, without V's proof or device token.
    const sent = await post(sendOtp, "/send-otp", { phone: V });
    expect(await jsonOf(sent)).toMatchObject({ success: true, expiresIn: 600 }); // a code goes to V's owner, no skip
    const checkout = await post(createCheckout, "/create-checkout", { phone: V, selectedMode: "cod", variantId: "1" });
    expect(checkout.status).toBe(403);
    expect(await jsonOf(checkout)).toMatchObject({ code: "phone_not_verified" });

    // An order whose phones are all Q, pointing at V's selection (and even at V's proof).
    const order = orderCreatedPayload({
      phone: Q,
      shipping_address: { phone: Q, country_code: "MA" },
      billing_address: { phone: Q, country_code: "MA" },
      note_attributes: [
        { name: "_cod_selection", value: ownersSelection.id },
        { name: "_cod_phone_verified", value: "true" },
        { name: "_cod_proof", value: owner.proof },
      ],
    });
    const tags = await deliverAndTag(order);
    expect(tags).not.toContain("cod-verified");
    expect(tags).toContain("cod-pending");
  });

  it("the owner's own order (same proof, V on the shipping address) is cod-verified and their customer gets the verified tag", async () => {
    await installShop();
    await post(sendOtp, "/send-otp", { phone: V });
    const owner = await jsonOf(await post(verifyOtp, "/verify-otp", { phone: V, otp: twilio.twilio.codeFor(V) }));
    const order = orderCreatedPayload({
      shipping_address: { phone: "+212 600-000021", country_code: "MA" },
      customer: { id: 77, admin_graphql_api_id: "gid://shopify/Customer/77", phone: null, tags: "" },
      note_attributes: [{ name: "_cod_proof", value: owner.proof }],
    });
    expect(await deliverAndTag(order)).toEqual(["cod-verified", "payment-mode:cod"]);
    expect([...(tagged.get("gid://shopify/Customer/77") ?? [])]).toEqual(["cod-verified-customer"]);
  });
});

describe("orders/create: what counts as verification", () => {
  it("a valid proof on an order with no selection, for one of its phones: cod-verified", async () => {
    await installShop();
    const proof = issueProof(SHOP, { phone: V, mode: "cod", selectionId: "gone" }).token;
    const order = orderCreatedPayload({ billing_address: { phone: V }, note_attributes: [{ name: "_cod_proof", value: proof }] });
    expect(await deliverAndTag(order)).toEqual(["cod-verified"]);
  });

  it("a forged, foreign-shop or expired proof proves nothing", async () => {
    await installShop();
    const good = issueProof(SHOP, { phone: Q, mode: "cod", selectionId: "x" }).token;
    const proofs = [
      good.replace(Q.slice(1), V.slice(1)), // phone swapped: signature no longer matches
      issueProof("other-shop.myshopify.com", { phone: V, mode: "cod", selectionId: "x" }).token,
      issueProof(SHOP, { phone: V, mode: "cod", selectionId: "x" }, new Date(Date.now() - 3 * 3600_000)).token,
    ];
    for (const proof of proofs) {
      const order = orderCreatedPayload({ phone: V, note_attributes: [{ name: "_cod_proof", value: proof }] });
      expect(await deliverAndTag(order)).toEqual(["cod-pending"]);
    }
  });

  it("a linked selection verified more than a day before the order does not count", async () => {
    const shop = await installShop();
    const old = new Date(Date.now() - 25 * 3600_000);
    const selection = await recordSelection({ shopId: shop.id, phone: V, mode: "cod", source: "verify-otp", verified: true, verifiedAt: old });
    const order = orderCreatedPayload({ phone: V, note_attributes: [{ name: "_cod_selection", value: selection.id }] });
    expect(await deliverAndTag(order)).toEqual(["cod-pending", "payment-mode:cod"]);
  });

  it("a returning customer the app tagged, ordering with their verified phone within the window: cod-verified; with another phone: not", async () => {
    const shop = await installShop();
    await markPhoneVerified(shop.id, V, new Date(Date.now() - 30 * 86_400_000));
    const customer = { id: 78, admin_graphql_api_id: "gid://shopify/Customer/78", phone: V, tags: "vip, cod-verified-customer" };
    expect(await deliverAndTag(orderCreatedPayload({ customer }))).toEqual(["cod-verified"]);
    const elsewhere = { ...customer, phone: Q };
    expect(await deliverAndTag(orderCreatedPayload({ customer: elsewhere, shipping_address: { phone: Q } }))).toEqual(["cod-pending"]);
    // The tag alone, without a verified phone on the order, is not enough either.
    await prisma.verifiedCustomer.deleteMany();
    expect(await deliverAndTag(orderCreatedPayload({ customer }))).toEqual(["cod-pending"]);
    expect(shopify.callsTo(OPERATIONS.tagsAdd).length).toBeGreaterThan(0);
  });
});
