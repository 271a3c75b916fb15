import * as requestRoute from "~/routes/proxy.api.address-correction[.]request";
import { prisma } from "~/core/db.server";
import { clock } from "~/core/utils/clock.server";
import { FakeOrderStore, fakeOrder } from "../mocks/shopify/orders";
import type { Handler } from "../mocks/shopify/server";
import { OPERATIONS } from "~/core/shopify/operations";
import { useFakeShopify } from "../helpers/fake-shopify";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { readOutbox, useOutbox } from "../helpers/correction-sms";

/**
 * At most one pending correction per order, held by the database (a partial unique index), not by a
 * read before the insert: a burst of requests for one order texts one link.
 */
let store = new FakeOrderStore();
const fake = useFakeShopify();
const outbox = useOutbox();
beforeEach(() => {
  store = new FakeOrderStore();
  store.install(fake);
});

function requestCorrection(body: Record<string, unknown>) {
  return callRoute(requestRoute, signedRequest("/api/address-correction.request", { body }));
}

/**
 * Shopify slower than the clicks: the order lookup answers only once `n` requests are waiting on it,
 * so they all reach the database together, as double clicks on a real store do.
 */
function answerOrderLookupsTogether(n: number) {
  const inner = store.orderById();
  const waiting: (() => void)[] = [];
  const together: Handler = (call) =>
    new Promise((resolve) => {
      waiting.push(() => resolve(inner(call)));
      if (waiting.length === n) for (const release of waiting.splice(0)) release();
    });
  fake.on(OPERATIONS.orderById, together, "admin");
}

async function burst(n: number, body: Record<string, unknown>) {
  const responses = await Promise.all(Array.from({ length: n }, () => requestCorrection(body)));
  return Promise.all(responses.map(async (r) => ({ status: r.status, body: await jsonOf(r) })));
}

describe("concurrent address-correction requests for one order", () => {
  it("20 at once: one link texted, one pending row; the others already_pending or over the per-order limit", async () => {
    await installShop();
    const order = store.add(fakeOrder());
    answerOrderLookupsTogether(3);
    const answers = await burst(20, { orderId: order.id });

    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    const statuses = answers.map((a) => (a.status === 200 ? String(a.body.status) : String(a.body.code)));
    // The per-order limit (3 a day) lets three through to the database; one of those wins.
    expect(statuses.filter((s) => s === "sent")).toHaveLength(1);
    expect(statuses.filter((s) => s === "already_pending")).toHaveLength(2);
    expect(statuses.filter((s) => s === "rate_limited")).toHaveLength(17);
    expect(await prisma.addressCorrection.count({ where: { orderGid: order.id, status: "pending" } })).toBe(1);
    expect(readOutbox(outbox.dir)).toHaveLength(1);
  });

  it("a double click: one link, and the losing click does not use up the number's limit", async () => {
    await installShop();
    const order = store.add(fakeOrder());
    answerOrderLookupsTogether(2);
    const answers = await Promise.all([requestCorrection({ orderId: order.id }), requestCorrection({ orderId: order.id })]);
    store.install(fake);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    expect((await Promise.all(answers.map(jsonOf))).map((b) => b.status).sort()).toEqual(["already_pending", "sent"]);
    expect(await prisma.addressCorrection.count({ where: { status: "pending" } })).toBe(1);
    expect(readOutbox(outbox.dir)).toHaveLength(1);
    // Only the one text counted against the number (3 an hour): two more orders can still be texted.
    for (let i = 0; i < 2; i++) {
      const next = store.add(fakeOrder());
      expect((await jsonOf(await requestCorrection({ orderId: next.id }))).status).toBe("sent");
    }
  });

  it("an expired pending correction does not block a new one, and only one new one is made", async () => {
    await installShop({ addressCorrectionTtlHours: 24 });
    const order = store.add(fakeOrder());
    expect((await jsonOf(await requestCorrection({ orderId: order.id }))).status).toBe("sent");
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 25 * 3600_000));
    answerOrderLookupsTogether(2);
    const answers = await Promise.all([requestCorrection({ orderId: order.id }), requestCorrection({ orderId: order.id })]);
    const statuses = (await Promise.all(answers.map(jsonOf))).map((b) => b.status).sort();
    expect(statuses).toEqual(["already_pending", "sent"]);
    expect(readOutbox(outbox.dir)).toHaveLength(2);
    const rows = await prisma.addressCorrection.findMany({ where: { orderGid: order.id }, orderBy: { createdAt: "asc" } });
    expect(rows).toHaveLength(2);
    expect(rows[1].expiresAt.getTime()).toBeGreaterThan(clock.now().getTime());
  });
});
