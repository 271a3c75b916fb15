import { maybeRequestCorrectionForNewOrder, type NewOrderToCheck } from "~/address-correction/auto-check.server";
import { prisma } from "~/core/db.server";
import { readOutbox, useOutbox } from "../helpers/correction-sms";
import { installShop } from "../helpers/shops";
import { useFakeShopify } from "../helpers/fake-shopify";
import { installDefaultHandlers } from "../mocks/shopify/handlers";

const outbox = useOutbox();
const fake = useFakeShopify();
beforeEach(() => installDefaultHandlers(fake));

/** A well-formed Indian address with a house number: only its PIN against its place can make it suspect. */
function order(n: number, address: { zip: string; province_code: string; province: string; city: string }): NewOrderToCheck {
  return {
    admin_graphql_api_id: `gid://shopify/Order/48000${n}`,
    name: `#48${n}`,
    phone: `+9198765432${10 + n}`,
    cancelled_at: null,
    closed_at: null,
    fulfillment_status: null,
    customer: null,
    shipping_address: { first_name: "Asha", last_name: "Verma", phone: null, address1: "44 MG Road", address2: null, country_code: "IN", ...address },
  };
}

describe("the automatic correction request: India's PIN codes against their place", () => {
  it("asks for a correction for an unknown PIN, a PIN of another state and one of another city, and none for a right one", async () => {
    const shop = await installShop({ autoAddressCorrection: true });
    const right = await maybeRequestCorrectionForNewOrder(shop, order(1, { zip: "411001", province_code: "MH", province: "Maharashtra", city: "Pune" }));
    expect(right).toEqual({ requested: false, reason: "address_ok" });
    const cases = [
      [2, { zip: "999999", province_code: "MH", province: "Maharashtra", city: "Pune" }, "pin_unknown"],
      [3, { zip: "560029", province_code: "MH", province: "Maharashtra", city: "Pune" }, "pin_other_state"],
      [4, { zip: "411001", province_code: "MH", province: "Maharashtra", city: "Nagpur" }, "pin_other_district"],
    ] as const;
    for (const [n, address, check] of cases) {
      const result = await maybeRequestCorrectionForNewOrder(shop, order(n, address));
      expect(result, check).toMatchObject({ requested: true, check, outcome: { ok: true, status: "sent" } });
      expect(await prisma.addressCorrection.findFirstOrThrow({ where: { orderGid: `gid://shopify/Order/48000${n}` } })).toMatchObject({ source: "auto", reason: check });
    }
    expect(readOutbox(outbox.dir)).toHaveLength(3);
  });

  it("leaves other countries' addresses to the basic checks", async () => {
    const shop = await installShop({ autoAddressCorrection: true });
    const abroad = { ...order(5, { zip: "560029", province_code: "MH", province: "Maharashtra", city: "Pune" }) };
    abroad.shipping_address = { ...abroad.shipping_address!, country_code: "NG", zip: "560029" };
    expect(await maybeRequestCorrectionForNewOrder(shop, abroad)).toEqual({ requested: false, reason: "address_ok" });
  });
});
