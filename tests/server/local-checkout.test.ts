import path from "node:path";
import Database from "better-sqlite3";
import { postSigned, startServer, type RunningServer, deliverOrderCreated } from "../helpers/server";


async function createCheckout(server: RunningServer, body: unknown) {
  const res = await postSigned(server, "/create-checkout", body, { "x-forwarded-for": "198.51.100.4" });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("local mode: create-checkout with no Shopify store", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ NODE_ENV: "development" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers as the fake Shopify's /answers tells it: a throttled or refused cartCreate gives { fallback: true }, then a checkout again", async () => {
    const set = (operation: string, answer: string) =>
      fetch(`${server.shopify!.origin}/answers`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ operation, answer }),
      });
    const order = { phone: "+14155550142", selectedMode: "prepaid", variantId: "44000000000002", quantity: 1 };
    expect((await set("cartCreate", "throttled")).status).toBe(200);
    expect(await createCheckout(server, order)).toEqual({ status: 200, body: { fallback: true } });
    expect((await set("cartCreate", "user_errors")).status).toBe(200);
    expect(await createCheckout(server, order)).toEqual({ status: 200, body: { fallback: true } });
    expect((await set("cartCreate", "ok")).status).toBe(200);
    expect((await createCheckout(server, order)).body.checkoutUrl).toMatch(/\/local\/checkout\?c=/);
    const bad = await set("cartCreate", "sometimes");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe("invalid_request");
    const state = (await (await fetch(`${server.shopify!.origin}/answers`)).json()) as { answers: Record<string, string> };
    expect(state.answers.cartCreate).toBe("ok");
  });

  it("the fake Shopify, reached through SHOPIFY_API_ORIGIN, builds a cart whose checkout URL is its local preview page", async () => {
    const { status, body } = await createCheckout(server, { phone: "+212600000009", selectedMode: "prepaid", variantId: "123", quantity: 2 });
    expect(status).toBe(200);
    const url = new URL(String(body.checkoutUrl));
    expect(url.origin).toBe(server.shopify!.origin);
    expect(url.pathname).toBe("/local/checkout");
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("gid://shopify/ProductVariant/123 × 2");
    expect(html).toContain("_cod_payment_mode");
  });

  it("partial gives a draft-order preview with the deposit due now and the rest on delivery", async () => {
    const { body } = await createCheckout(server, { phone: "+212600000009", selectedMode: "partial", variantId: "123", quantity: 2 });
    const html = await (await fetch(String(body.checkoutUrl))).text();
    expect(html).toContain("Due now (deposit): <strong>10.00</strong>");
    expect(html).toContain("Due on delivery: <strong>40.00</strong>");
  });

  it("partial on a store without draft-order deposits: pay the deposit on /local/checkout, deliver orders/create, and /orders shows total, paid and outstanding; the code is spent; a refused edit holds and tags the order", async () => {
    const shopify = server.shopify!.origin;
    const set = (operation: string, answer: string) =>
      fetch(`${shopify}/answers`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ operation, answer }) });
    // Shopify refuses the draft-order deposit, as it does below Plus: the app learns it and uses a deposit code.
    await set("draftOrderCreate", "user_errors");
    const first = await createCheckout(server, { phone: "+212600000019", selectedMode: "partial", variantId: "123", quantity: 2 });
    await set("draftOrderCreate", "ok");
    const checkoutUrl = String(first.body.checkoutUrl);
    const page = await (await fetch(checkoutUrl)).text();
    expect(page).toMatch(/Pay now \(deposit\): <strong>10\.00<\/strong>/);
    expect(page).toContain("<strong>40.00</strong>, to the order, due in cash on delivery");

    const pay = async (url: string) => {
      const c = new URL(url).searchParams.get("c")!;
      const res = await fetch(`${shopify}/local/checkout/pay?format=json&c=${c}`, { method: "POST" });
      return (await res.json()) as { order: { id: string; total: number; paid: number }; ordersCreate: Record<string, unknown> };
    };
    const orderOf = async (id: string) => {
      const all = (await (await fetch(`${shopify}/orders?format=json`)).json()) as { orders: { id: string; tags: string[]; fulfillmentOrders: { holds: { handle: string | null }[] }[]; money: { total: number; paid: number; outstanding: number } | null }[] };
      return all.orders.find((o) => o.id === id)!;
    };
    const until = async (check: () => Promise<boolean>) => {
      for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 200));
    };

    const placed = await pay(checkoutUrl);
    expect(placed.order).toMatchObject({ total: 10, paid: 10 });
    expect((await deliverOrderCreated(server, placed.ordersCreate)).status).toBe(200);
    await until(async () => (await orderOf(placed.order.id)).money?.outstanding === 40);
    expect((await orderOf(placed.order.id)).money).toMatchObject({ total: 50, paid: 10, outstanding: 40 });

    // The same code on another checkout: Shopify no longer applies it, the shopper pays everything.
    const again = await pay(checkoutUrl);
    expect(again.order).toMatchObject({ total: 50, paid: 50 });

    // Shopify refuses the edit: the order is held and tagged for the merchant instead.
    await set("orderEditBegin", "user_errors");
    const second = await createCheckout(server, { phone: "+212600000019", selectedMode: "partial", variantId: "123", quantity: 2 });
    const refused = await pay(String(second.body.checkoutUrl));
    expect((await deliverOrderCreated(server, refused.ordersCreate)).status).toBe(200);
    await until(async () => (await orderOf(refused.order.id)).tags.includes("cod-balance-missing"));
    const held = await orderOf(refused.order.id);
    expect(held.tags).toContain("cod-balance-missing");
    expect(held.fulfillmentOrders.flatMap((f) => f.holds).map((h) => h.handle)).toContain("cod-verify-balance");
    expect(held.money).toMatchObject({ total: 10, paid: 10, outstanding: 0 });
    await set("orderEditBegin", "ok");
  });

  it("the order from that checkout is linked by its attribute and tagged by the running worker", async () => {
    const { body } = await createCheckout(server, { phone: "+212600000010", selectedMode: "prepaid", variantId: "77" });
    const preview = JSON.parse(Buffer.from(new URL(String(body.checkoutUrl)).searchParams.get("c")!, "base64url").toString("utf8"));
    const selectionId = preview.attributes.find((a: { key: string }) => a.key === "_cod_selection").value;
    const orderGid = "gid://shopify/Order/9007199254740993777";
    const res = await deliverOrderCreated(server, {
      admin_graphql_api_id: orderGid,
      name: "#1042",
      payment_gateway_names: ["shopify_payments"],
      note_attributes: preview.attributes.map((a: { key: string; value: string }) => ({ name: a.key, value: a.value })),
    });
    expect(res.status).toBe(200);
    const db = new Database(path.join(server.dataDir, "app.db"), { readonly: true });
    try {
      expect(db.prepare(`SELECT "orderGid" FROM "Selection" WHERE id = ?`).get(selectionId)).toEqual({ orderGid });
      let job: { doneAt: unknown; payload: string } | undefined;
      for (let i = 0; i < 50 && !job?.doneAt; i++) {
        await new Promise((r) => setTimeout(r, 100));
        job = db.prepare(`SELECT "doneAt", payload FROM "Job" WHERE kind = 'order-tags' AND key = ?`).get(`demo-shop.myshopify.com|${orderGid}`) as typeof job;
      }
      expect(job).toMatchObject({ doneAt: expect.anything() });
      expect(JSON.parse(job!.payload)).toEqual({ orderGid, tags: ["payment-mode:prepaid"] });
    } finally {
      db.close();
    }
  });
});

describe("production never starts the fake Shopify", () => {
  it("a production server in local mode has no fake and no preview page", async () => {
    const server = await startServer();
    try {
      expect(server.shopify).toBeNull();
      expect(server.output()).not.toContain("fake Shopify");
      expect((await fetch(`${server.url}/local/checkout?c=e30`)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});
