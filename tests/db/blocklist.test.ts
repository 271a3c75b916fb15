import { blockPhone, listBlockedPhones, unblockPhone } from "~/otp/blocklist.server";
import { installShop } from "../helpers/shops";

describe("the phone blocklist", () => {
  it("blocks a number in its normalised form, lists it, and unblocks it", async () => {
    const shop = await installShop();
    expect(await blockPhone(shop, "+91 98765-43210", "pumping")).toEqual({ ok: true, phone: "+919876543210", expiresAt: null });
    expect(await blockPhone(shop, "+919876543210", "again")).toMatchObject({ ok: true });
    expect((await listBlockedPhones(shop.id)).rows.map((b) => [b.phone, b.reason])).toEqual([["+919876543210", "again"]]);
    expect(await unblockPhone(shop.id, "00919876543210")).toBe(true);
    expect(await unblockPhone(shop.id, "+919876543210")).toBe(false);
    expect((await listBlockedPhones(shop.id)).rows).toEqual([]);
  });

  it("refuses a number that is not E.164", async () => {
    const shop = await installShop();
    expect(await blockPhone(shop, "12345")).toEqual({ ok: false, code: "invalid_phone" });
  });
});
