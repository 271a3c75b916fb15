import crypto from "node:crypto";
import * as flowAction from "~/routes/flow.actions.$action";
import { prisma } from "~/core/db.server";
import { env } from "~/core/env.server";
import { clock } from "~/core/utils/clock.server";
import { authenticate } from "~/core/shopify/app.server";
import * as handlers from "../mocks/shopify/handlers";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import { FakeFlow } from "../mocks/shopify/flow";
import { fakeOrder, FakeOrderStore } from "../mocks/shopify/orders";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { ADDRESS, codOrder, PHONE, placeOrder, work } from "../helpers/delivery";
import { expectConsoleErrors } from "../setup/worker";

/**
 * The Flow actions' runtime URLs from outside: each request signed as Flow signs it (X-Shopify-Hmac-Sha256,
 * base64 HMAC-SHA256 of the raw body under the app's secret), acting on the shop's own recorded order, once
 * per action run, and every refusal a JSON error Flow can act on.
 */
const shopify = useFakeShopify();
const twilio = useFakeTwilio();
let orders: FakeOrderStore;

beforeEach(() => {
  const tagged = new Map<string, Set<string>>();
  handlers.installDefaultHandlers(shopify, {}, tagged);
  new FakeEnforcementStore(tagged).install(shopify);
  orders = new FakeOrderStore();
  orders.install(shopify);
  new FakeFlow().install(shopify);
});
afterEach(() => vi.restoreAllMocks());

type Body = { shop_id?: string; shopify_domain?: string; action_run_id?: string; action_definition_id?: string; handle?: string; properties?: Record<string, unknown> };

function flowRequest(path: string, body: Body | string, options: { secret?: string; method?: string; hmac?: string | null } = {}) {
  const raw = typeof body === "string" ? body : JSON.stringify(body);
  const hmac = options.hmac === undefined ? crypto.createHmac("sha256", options.secret ?? env.SHOPIFY_API_SECRET).update(raw, "utf8").digest("base64") : options.hmac;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (hmac !== null) headers["x-shopify-hmac-sha256"] = hmac;
  return new Request(`https://app.example.com/flow/actions/${path}`, { method: options.method ?? "POST", headers, body: options.method === "GET" ? undefined : raw });
}

const run = (path: string, handle: string, orderId: string | number, extra: Body = {}) =>
  callRoute(
    flowAction,
    flowRequest(path, { shop_id: "690933842", shopify_domain: SHOP, action_run_id: crypto.randomUUID(), action_definition_id: handle, handle, properties: { order_id: orderId, step_reference: crypto.randomUUID() }, ...extra }),
    { action: path },
  );
const idOf = (gid: string) => gid.split("/").pop()!;

describe("the 'block the order's phone' action", () => {
  it("blocks the phone the app recorded for the order, once per action run", async () => {
    await installShop({ otpEnabled: false });
    const o = codOrder();
    await placeOrder(o);
    const runId = crypto.randomUUID();
    const body = { shop_id: "1", shopify_domain: SHOP, action_run_id: runId, handle: "cod-block-phone", properties: { order_id: idOf(o.admin_graphql_api_id) } };
    const res = await callRoute(flowAction, flowRequest("block-phone", body), { action: "block-phone" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "done" });
    expect(await prisma.blockedPhone.findMany({ select: { phone: true, reason: true } })).toEqual([{ phone: PHONE, reason: `Blocked from order ${o.name}` }]);
    // Flow's retry of the same run: answered as done, nothing done again.
    await prisma.blockedPhone.deleteMany();
    const again = await callRoute(flowAction, flowRequest("block-phone", body), { action: "block-phone" });
    expect(await again.json()).toEqual({ status: "already_done" });
    expect(await prisma.blockedPhone.count()).toBe(0);
  });

  it("refuses, as JSON errors: a wrong or missing signature (401), another action's body (400), a GET (405), malformed JSON (400), an unknown order (404), a shop without the app (403), a body over 16 KiB (413)", async () => {
    await installShop({ otpEnabled: false });
    const o = codOrder();
    await placeOrder(o);
    const body: Body = { shopify_domain: SHOP, action_run_id: "r1", handle: "cod-block-phone", properties: { order_id: idOf(o.admin_graphql_api_id) } };
    const expectError = async (res: Response, status: number, code: string) => {
      expect(res.status).toBe(status);
      expect(await res.json()).toMatchObject({ code, error: expect.any(String) });
    };
    await expectError(await callRoute(flowAction, flowRequest("block-phone", body, { secret: "not-the-secret" }), { action: "block-phone" }), 401, "invalid_hmac");
    await expectError(await callRoute(flowAction, flowRequest("block-phone", body, { hmac: null }), { action: "block-phone" }), 401, "invalid_hmac");
    await expectError(await callRoute(flowAction, flowRequest("send-confirmation", body), { action: "send-confirmation" }), 400, "handle_mismatch");
    await expectError(await callRoute(flowAction, flowRequest("block-phone", "", { method: "GET" }), { action: "block-phone" }), 405, "method_not_allowed");
    await expectError(await callRoute(flowAction, flowRequest("block-phone", "{not json"), { action: "block-phone" }), 400, "invalid_request");
    await expectError(await callRoute(flowAction, flowRequest("block-phone", { ...body, handle: undefined }), { action: "block-phone" }), 400, "invalid_request");
    await expectError(await run("block-phone", "cod-block-phone", "999"), 404, "order_not_found");
    await expectError(await run("block-phone", "cod-block-phone", "gid://shopify/Customer/1"), 400, "invalid_order");
    await expectError(await run("block-phone", "cod-block-phone", idOf(o.admin_graphql_api_id), { shopify_domain: "other-shop.myshopify.com" }), 403, "app_not_installed");
    await expectError(await run("block-phone", "cod-block-phone", idOf(o.admin_graphql_api_id), { properties: { order_id: idOf(o.admin_graphql_api_id), note: "x".repeat(17 * 1024) } }), 413, "payload_too_large");
    await expectError(await callRoute(flowAction, flowRequest("delete-everything", body), { action: "delete-everything" }), 404, "not_found");
    expect(await prisma.blockedPhone.count()).toBe(0);
  });
});

describe("the 'send the confirmation now' action", () => {
  it("texts the pending confirmation's link again, but not twice within a minute (409)", async () => {
    await installShop();
    const o = codOrder({ phone: PHONE });
    await placeOrder(o);
    await work();
    const links = () => twilio.twilio.messages.filter((m) => m.to === PHONE && /\/vc\//.test(m.body));
    expect(links()).toHaveLength(1);
    expect((await run("send-confirmation", "cod-send-confirmation", idOf(o.admin_graphql_api_id))).status).toBe(409);
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 5 * 60_000));
    const res = await run("send-confirmation", "cod-send-confirmation", idOf(o.admin_graphql_api_id));
    expect(res.status).toBe(200);
    await work();
    expect(links()).toHaveLength(2);
  });
});

/** Shopify's copy of a recorded order: the same id and name, its own phone on every field (not the one the app recorded). */
const SHOPIFY_PHONE = "+919876543210";
function shopifyCopyOf(o: ReturnType<typeof codOrder>, overrides: Parameters<typeof fakeOrder>[0] = {}) {
  const copy = fakeOrder({ id: o.admin_graphql_api_id, name: o.name, phone: SHOPIFY_PHONE, ...overrides });
  return orders.add(copy);
}
const addressLinks = () => twilio.twilio.messages.filter((m) => /\/ac\//.test(m.body));

describe("the 'request an address correction' action", () => {
  it("texts the address form's link to the phone the app recorded (not Shopify's copy) for an unfulfilled order; a shipped one is refused (409)", async () => {
    await installShop({ otpEnabled: false });
    const o = codOrder({ phone: PHONE });
    await placeOrder(o);
    shopifyCopyOf(o);
    const res = await run("request-address-correction", "cod-request-address-fix", idOf(o.admin_graphql_api_id));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "done" });
    expect(addressLinks().map((m) => m.to)).toEqual([PHONE]);
    const shipped = codOrder({ phone: PHONE });
    await placeOrder(shipped);
    shopifyCopyOf(shipped, { displayFulfillmentStatus: "FULFILLED" });
    const refused = await run("request-address-correction", "cod-request-address-fix", idOf(shipped.admin_graphql_api_id));
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: "order_not_editable" });
  });

  it("refuses an order the app recorded with no phone (422 no_phone) even when Shopify's copy has one, texting no one", async () => {
    await installShop({ otpEnabled: false });
    const noPhone = { ...ADDRESS, phone: null };
    const o = codOrder({ phone: null, shipping_address: noPhone, billing_address: noPhone });
    await placeOrder(o);
    expect(await prisma.orderRecord.findFirst({ select: { phone: true } })).toEqual({ phone: null });
    shopifyCopyOf(o);
    const res = await run("request-address-correction", "cod-request-address-fix", idOf(o.admin_graphql_api_id));
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: "no_phone" });
    expect(addressLinks()).toEqual([]);
  });

  it("refuses an order the app recorded but Shopify no longer has (404 order_not_in_shopify, saying so), texting no one", async () => {
    await installShop({ otpEnabled: false });
    const o = codOrder({ phone: PHONE });
    await placeOrder(o);
    const res = await run("request-address-correction", "cod-request-address-fix", idOf(o.admin_graphql_api_id));
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "order_not_in_shopify", error: expect.stringMatching(/recorded this order, but Shopify no longer has it/) });
    expect(addressLinks()).toEqual([]);
  });
});

describe("every action acts only on an order the app recorded for the requesting shop", () => {
  const ACTIONS = [
    ["block-phone", "cod-block-phone"],
    ["send-confirmation", "cod-send-confirmation"],
    ["request-address-correction", "cod-request-address-fix"],
  ] as const;

  /** Nothing the actions could have done: no block, no confirmation text, no address link, no correction. */
  async function expectNothingDone() {
    expect(await prisma.blockedPhone.count()).toBe(0);
    expect(await prisma.addressCorrection.count()).toBe(0);
    expect(twilio.twilio.messages).toEqual([]);
  }

  it.each(ACTIONS)("%s: an order Shopify has (with a phone) but the app never recorded is 404 order_not_found, and nothing is done", async (path, handle) => {
    await installShop({ otpEnabled: false });
    const unseen = orders.add(fakeOrder({ phone: PHONE }));
    const res = await run(path, handle, idOf(unseen.id));
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "order_not_found", error: expect.stringMatching(/no record of this order in this shop/) });
    await expectNothingDone();
  });

  it.each(ACTIONS)("%s: another shop's recorded order is 404 order_not_found for this shop, and nothing is done", async (path, handle) => {
    await installShop();
    await installShop({ domain: "other-shop.myshopify.com", otpEnabled: false });
    const theirs = codOrder({ phone: PHONE });
    await placeOrder(theirs);
    shopifyCopyOf(theirs);
    twilio.twilio.messages.length = 0;
    await prisma.job.deleteMany();
    const res = await run(path, handle, idOf(theirs.admin_graphql_api_id), { shopify_domain: "other-shop.myshopify.com" });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "order_not_found" });
    await work();
    await expectNothingDone();
  });
});

describe("the signature check agrees with the library's authenticate.flow", () => {
  it("accepts what the library accepts and refuses what it refuses", async () => {
    await installShop({ otpEnabled: false });
    const o = codOrder();
    await placeOrder(o);
    const body: Body = { shopify_domain: SHOP, action_run_id: crypto.randomUUID(), handle: "cod-block-phone", properties: { order_id: idOf(o.admin_graphql_api_id) } };
    const verdicts = async (options: { secret?: string; hmac?: string | null }, raw: Body | string = body) => {
      // The library logs each refusal at error level; expected here.
      const restore = expectConsoleErrors();
      const library = await authenticate.flow(flowRequest("block-phone", raw, options)).finally(restore).then(
        () => "accepted",
        (thrown: unknown) => (thrown instanceof Response ? `refused ${thrown.status}` : `threw ${String(thrown)}`),
      );
      const ours = (await callRoute(flowAction, flowRequest("block-phone", raw, options), { action: "block-phone" })).status;
      return [library, ours === 200 ? "accepted" : `refused ${ours}`];
    };
    expect(await verdicts({})).toEqual(["accepted", "accepted"]);
    expect(await verdicts({ secret: "not-the-secret" })).toEqual(["refused 400", "refused 401"]);
    expect(await verdicts({ hmac: null })).toEqual(["refused 400", "refused 401"]);
    const tampered = crypto.createHmac("sha256", env.SHOPIFY_API_SECRET).update(JSON.stringify(body), "utf8").digest("base64");
    expect(await verdicts({ hmac: tampered }, { ...body, properties: { order_id: "1" } })).toEqual(["refused 400", "refused 401"]);
  });
});
