import * as createCheckout from "~/routes/proxy.create-checkout";
import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import { prisma } from "~/core/db.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { useFakeShopify } from "../helpers/fake-shopify";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";
import { JOB_KINDS } from "~/server-build";

/**
 * A selection is reused for the same shopping journey (verify-otp, then create-checkout), but a caller
 * who has not proven the number never takes over a verified one: create-checkout would otherwise put the
 * verified selection's id (and its own cart token) on a cart anyone can make for that number, and the
 * order from that cart would carry someone else's verification (issue 25 item 2's hole, by another door).
 */
const VICTIM = "+212600000055";
const twilio = useFakeTwilio();
const tagged = new Map<string, Set<string>>();
const shopify = useFakeShopify();
beforeEach(() => {
  tagged.clear();
  handlers.installDefaultHandlers(shopify, {}, tagged);
});

const post = (route: Parameters<typeof callRoute>[0], path: string, body: Record<string, unknown>) =>
  callRoute(route, signedRequest(path, { method: "POST", body }));

/** The attributes create-checkout put on the cart it just built. */
function lastCartAttributes(): Record<string, string> {
  const input = shopify.callsTo(OPERATIONS.cartCreate).at(-1)!.variables.input as { attributes: { key: string; value: string }[] };
  return Object.fromEntries(input.attributes.map((a) => [a.key, a.value]));
}

/** Well formed, signed by nobody: what anyone can put on a cart (the checkout function shows COD for it). */
const forgedProof = (phone: string) => `v1.${phone.slice(1)}.cod.${Math.floor(Date.now() / 1000) + 3600}.cm1abcdefghij0123.${"0f".repeat(16)}`;

describe("a verified selection and a caller who proved nothing", () => {
  it("GIVEN a shopper who verified and left WHEN anyone makes a prepaid cart for that number THEN the cart names a new selection, and a COD order from it is not verified", async () => {
    await installShop();
    expect((await post(sendOtp, "/send-otp", { phone: VICTIM })).status).toBe(200);
    expect((await post(verifyOtp, "/verify-otp", { phone: VICTIM, otp: twilio.twilio.codeFor(VICTIM), selectedMode: "cod" })).status).toBe(200);
    const victims = await prisma.selection.findFirstOrThrow({ where: { phone: VICTIM } });
    expect(victims.verified).toBe(true);

    const res = await post(createCheckout, "/create-checkout", { phone: VICTIM, selectedMode: "prepaid", variantId: "1", cartToken: "attacker-cart" });
    expect(await jsonOf(res)).toHaveProperty("checkoutUrl");
    const attributes = lastCartAttributes();
    expect(attributes._cod_selection).toBeDefined();
    expect(attributes._cod_selection).not.toBe(victims.id);
    expect(await prisma.selection.findUniqueOrThrow({ where: { id: victims.id } })).toMatchObject({ verified: true, cartToken: null, mode: "cod" });

    // The order from that cart, paid cash on delivery with a forged proof (the function shows COD for it).
    const order = orderCreatedPayload({
      phone: VICTIM,
      cart_token: "attacker-cart",
      customer: { id: 55, admin_graphql_api_id: "gid://shopify/Customer/55", phone: VICTIM, tags: "" },
      note_attributes: [
        { name: "_cod_selection", value: attributes._cod_selection },
        { name: "_cod_proof", value: forgedProof(VICTIM) },
      ],
    });
    expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
    await runDueJobs(JOB_KINDS);
    expect([...(tagged.get(order.admin_graphql_api_id) ?? [])]).not.toContain("cod-verified");
    expect(await prisma.orderRecord.findFirstOrThrow({ where: { orderGid: order.admin_graphql_api_id } })).toMatchObject({ status: "pending" });
    expect(tagged.get("gid://shopify/Customer/55")).toBeUndefined();
  });

  it("the same journey with the proof reuses the verified selection, as before", async () => {
    await installShop();
    expect((await post(sendOtp, "/send-otp", { phone: VICTIM })).status).toBe(200);
    const { proof } = (await jsonOf(await post(verifyOtp, "/verify-otp", { phone: VICTIM, otp: twilio.twilio.codeFor(VICTIM), selectedMode: "cod" }))) as { proof: string };
    const verified = await prisma.selection.findFirstOrThrow({ where: { phone: VICTIM } });
    expect((await post(createCheckout, "/create-checkout", { phone: VICTIM, selectedMode: "cod", variantId: "1", proof })).status).toBe(200);
    expect(lastCartAttributes()._cod_selection).toBe(verified.id);
    expect(await prisma.selection.count()).toBe(1);
  });
});
