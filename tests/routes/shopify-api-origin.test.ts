import { unauthenticated } from "~/core/shopify/app.server";
import { useFakeShopify } from "../helpers/fake-shopify";
import { installShop, SHOP } from "../helpers/shops";

describe("the fake Shopify at the HTTP edge", () => {
  const fake = useFakeShopify((f) =>
    f.on("ShopName", () => ({ data: { shop: { name: "Fake Shop" } } }), "admin").on("Products", () => ({
      data: { products: { nodes: [] } },
    })),
  );

  it("receives the library's Admin API calls, with the shop's token, and answers them", async () => {
    await installShop();
    const { admin } = await unauthenticated.admin(SHOP);
    const res = await admin.graphql(`#graphql
      query ShopName { shop { name } }`);
    expect(await res.json()).toMatchObject({ data: { shop: { name: "Fake Shop" } } });
    const [call] = fake.callsTo("ShopName");
    expect(call).toMatchObject({ api: "admin", shop: SHOP, apiVersion: "2026-10" });
    expect(call.headers["x-shopify-access-token"]).toBe("shpat_test_token");
  });

  it("receives Storefront API calls too", async () => {
    await installShop();
    const { storefront } = await unauthenticated.storefront(SHOP);
    const res = await storefront.graphql(`#graphql
      query Products { products(first: 1) { nodes { id } } }`);
    expect(await res.json()).toMatchObject({ data: { products: { nodes: [] } } });
    expect(fake.callsTo("Products")[0].api).toBe("storefront");
  });
});
