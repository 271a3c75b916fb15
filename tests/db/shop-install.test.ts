import { prisma } from "~/core/db.server";
import { getShop, upsertInstalledShop } from "~/core/settings/shop.server";

describe("installing and reinstalling a shop", () => {
  it("takes the store's language on the first install", async () => {
    await upsertInstalledShop("new-shop.myshopify.com", { name: "New", locale: "fr", currency: "EUR" });
    expect(await getShop("new-shop.myshopify.com")).toMatchObject({ name: "New", locale: "fr", currency: "EUR" });
  });

  it("keeps the language the merchant chose on a reinstall, refreshing the name and currency", async () => {
    await prisma.shop.create({ data: { domain: "back.myshopify.com", name: "Old", locale: "ar", currency: "MAD", uninstalledAt: new Date() } });
    await upsertInstalledShop("back.myshopify.com", { name: "Renamed", locale: "en", currency: "EUR" });
    expect(await prisma.shop.findUnique({ where: { domain: "back.myshopify.com" } })).toMatchObject({
      name: "Renamed",
      locale: "ar",
      currency: "EUR",
      uninstalledAt: null,
    });
  });
});
