import * as requestRoute from "~/routes/proxy.api.address-correction[.]request";
import * as statusRoute from "~/routes/proxy.api.address-correction[.]status";
import { prisma } from "~/core/db.server";
import { FakeOrderStore, fakeOrder } from "../mocks/shopify/orders";
import { useFakeShopify } from "../helpers/fake-shopify";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";

/**
 * The correction link's text when Twilio is slow or refuses: an answer that comes after SMS_TIMEOUT_MS
 * is an unknown outcome (the text may have gone, and here it has), so the correction and its counted
 * hits stay; only a definite refusal forgets the correction and gives the hits back.
 */
const PHONE = "+919876543210";
let store = new FakeOrderStore();
const fake = useFakeShopify();
const twilio = useFakeTwilio({ SMS_TIMEOUT_MS: 1000 });
beforeEach(() => {
  store = new FakeOrderStore();
  store.install(fake);
});

function requestCorrection(body: Record<string, unknown>) {
  return callRoute(requestRoute, signedRequest("/api/address-correction.request", { body }));
}

const counters = async () => Object.fromEntries((await prisma.rateCounter.findMany()).map((c) => [c.key.split(":").slice(0, 2).join(":"), c.count]));

describe("an address-correction text whose outcome is unknown", () => {
  it("answered after the timeout: the correction and its counted hits stay, and the next request sends no second link", async () => {
    await installShop();
    const order = store.add(fakeOrder());
    twilio.twilio.fail("late", { delayMs: 1500 });
    const res = await requestCorrection({ orderId: order.id });
    expect(res.status).toBe(502);
    expect(await jsonOf(res)).toMatchObject({ code: "sms_unavailable" });

    // The text went all the same: its link works.
    await vi.waitFor(() => expect(twilio.twilio.messages).toHaveLength(1));
    const token = /\/ac\/([A-Za-z0-9_-]{32})/.exec(twilio.twilio.messages[0].body)![1];
    const status = await callRoute(statusRoute, signedRequest("/api/address-correction.status", { query: { token } }));
    expect(await jsonOf(status)).toMatchObject({ status: "pending" });
    expect(await prisma.addressCorrection.count({ where: { status: "pending" } })).toBe(1);
    expect(await counters()).toMatchObject({ "ac:shop": 1, "ac:order": 1, "ac:phone": 1 });

    const again = await requestCorrection({ orderId: order.id });
    expect(again.status).toBe(200);
    expect(await jsonOf(again)).toMatchObject({ status: "already_pending" });
    await new Promise((r) => setTimeout(r, 1600)); // the late answer of any second send would have landed
    expect(twilio.twilio.attempts.filter((a) => a.to === PHONE)).toHaveLength(1);
  });

  it("refused by Twilio (a definite answer): the correction goes and the hits are given back", async () => {
    await installShop();
    const order = store.add(fakeOrder());
    twilio.twilio.fail("server_error", { times: 1 });
    const res = await requestCorrection({ orderId: order.id });
    expect(res.status).toBe(502);
    expect(await prisma.addressCorrection.count()).toBe(0);
    expect(await counters()).toMatchObject({ "ac:shop": 0, "ac:order": 0, "ac:phone": 0 });

    expect((await jsonOf(await requestCorrection({ orderId: order.id }))).status).toBe("sent");
    expect(twilio.twilio.messages).toHaveLength(1);
  });
});
