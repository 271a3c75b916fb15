import { outboxCode } from "../helpers/outbox";
import { postSigned, startServer, type RunningServer, deliverOrderCreated } from "../helpers/server";

/**
 * Local mode shows enforcement from outside: /local/checkout runs the checkout function on the cart the
 * app built (COD hidden for an unverified shopper, offered for the verified phone and only for it), and
 * the fake store's /orders shows what the app did to each order.
 */
async function json(res: Response) {
  return (await res.json()) as Record<string, unknown>;
}


/** The payment methods line of the preview: "Cash on Delivery (COD): offered|hidden". */
async function codAtCheckout(url: string): Promise<string> {
  const html = await (await fetch(url)).text();
  return /<li>Cash on Delivery \(COD\): <strong>(\w+)<\/strong><\/li>/.exec(html)?.[1] ?? "missing";
}

describe("local mode: the checkout function and the store's record of orders", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ NODE_ENV: "development" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("before verifying COD is hidden; after verifying it is offered for the verified phone only", async () => {
    const phone = "+14155550177";
    const unverified = await json(await postSigned(server, "/create-checkout", { phone, selectedMode: "prepaid", variantId: "44000000000002" }));
    expect(await codAtCheckout(String(unverified.checkoutUrl))).toBe("hidden");

    expect((await postSigned(server, "/send-otp", { phone })).status).toBe(200);
    const verified = await json(await postSigned(server, "/verify-otp", { phone, otp: outboxCode(server.dataDir, phone), selectedMode: "cod" }));
    const cart = await json(await postSigned(server, "/create-checkout", { phone, selectedMode: "cod", variantId: "44000000000002", proof: verified.proof }));
    const url = String(cart.checkoutUrl);
    expect(await codAtCheckout(url)).toBe("offered");
    expect(await codAtCheckout(`${url}&phone=${encodeURIComponent("+14155550199")}`)).toBe("hidden");
  });

  it("GET /orders on the fake store shows the tags the app added", async () => {
    const id = `gid://shopify/Order/${Date.now()}`;
    const res = await deliverOrderCreated(server, {
      id: 1,
      admin_graphql_api_id: id,
      name: "#2001",
      phone: "+14155550188",
      gateway: "Cash on Delivery (COD)",
      payment_gateway_names: ["Cash on Delivery (COD)"],
      note_attributes: [],
    });
    expect(res.status).toBe(200);
    await expect
      .poll(async () => {
        const state = (await (await fetch(`${server.shopify!.origin}/orders?format=json`)).json()) as { orders: { id: string; tags: string[] }[] };
        // The verification tags; the COD risk tag (cod-risk:<band>) is tested in tests/routes/risk-orders.test.ts.
        return (state.orders.find((o) => o.id === id)?.tags ?? []).filter((t) => !t.startsWith("cod-risk:"));
      }, { timeout: 20_000 })
      .toEqual(["cod-pending"]);
    const html = await (await fetch(`${server.shopify!.origin}/orders`)).text();
    expect(html).toContain(id);
    expect(html).toContain("cod-pending");
  });
});
