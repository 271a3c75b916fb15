import { signedProxyQuery } from "../../scripts/lib/app-proxy-signature.mjs";
import { startServer, type RunningServer } from "../helpers/server";

async function createCheckout(server: RunningServer, body: unknown) {
  const q = signedProxyQuery({ secret: "local-dev-api-secret" });
  const res = await fetch(`${server.url}/proxy/create-checkout?${q}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.4" },
    body: JSON.stringify(body),
  });
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

  it("the in-process fake Shopify builds a cart whose checkout URL is the local preview page", async () => {
    const { status, body } = await createCheckout(server, { phone: "+212600000009", selectedMode: "prepaid", variantId: "123", quantity: 2 });
    expect(status).toBe(200);
    expect(server.output()).toMatch(/local mode: fake Shopify at http:\/\/127\.0\.0\.1:\d+/);
    const url = new URL(String(body.checkoutUrl));
    expect(url.pathname).toBe("/local/checkout");
    const page = await fetch(`${server.url}${url.pathname}${url.search}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("gid://shopify/ProductVariant/123 × 2");
    expect(html).toContain("_cod_payment_mode");
  });

  it("partial gives a draft-order preview with the deposit due now and the rest on delivery", async () => {
    const { body } = await createCheckout(server, { phone: "+212600000009", selectedMode: "partial", variantId: "123", quantity: 2 });
    const url = new URL(String(body.checkoutUrl));
    const html = await (await fetch(`${server.url}${url.pathname}${url.search}`)).text();
    expect(html).toContain("Due now (deposit): <strong>10.00</strong>");
    expect(html).toContain("Due on delivery: <strong>40.00</strong>");
  });
});

describe("production never starts the fake Shopify", () => {
  it("a production server in local mode has no fake and no preview page", async () => {
    const server = await startServer();
    try {
      expect(server.output()).not.toContain("fake Shopify");
      expect((await fetch(`${server.url}/local/checkout?c=e30`)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});
