import * as dataRequest from "~/routes/webhooks.customers.data_request";
import * as customersRedact from "~/routes/webhooks.customers.redact";
import * as shopRedact from "~/routes/webhooks.shop.redact";
import * as requestRoute from "~/routes/proxy.api.address-correction[.]request";
import { prisma } from "~/core/db.server";
import { callRoute, signedRequest } from "../helpers/proxy";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useOutbox } from "../helpers/correction-sms";
import { FakeOrderStore, fakeOrder } from "../mocks/shopify/orders";
import { installShop, SHOP } from "../helpers/shops";
import { signedWebhook } from "../helpers/webhooks";

const PHONE = "+212600000005";
const OTHER = "+212600000006";
const ORDER = "gid://shopify/Order/9007199254740993777";

afterEach(() => vi.restoreAllMocks());

async function corrections() {
  const shop = await installShop();
  const base = { shopId: shop.id, tokenHash: "", source: "api", before: `{"address1":"Rue des Fleurs"}`, expiresAt: new Date(Date.now() + 3600_000) };
  await prisma.addressCorrection.create({ data: { ...base, tokenHash: "a".repeat(64), orderGid: ORDER, orderName: "#1001", phone: PHONE, after: `{"address1":"12 Rue des Fleurs"}`, status: "completed" } });
  await prisma.addressCorrection.create({ data: { ...base, tokenHash: "b".repeat(64), orderGid: "gid://shopify/Order/2", phone: PHONE } });
  await prisma.addressCorrection.create({ data: { ...base, tokenHash: "c".repeat(64), orderGid: "gid://shopify/Order/3", phone: OTHER } });
  return shop;
}

describe("address corrections under the compliance webhooks", () => {
  it("customers/data_request reports the customer's corrections (addresses before and after), never the token hash", async () => {
    await corrections();
    const raw = `{"shop_id":954889,"shop_domain":"${SHOP}","orders_requested":[9007199254740993777],"customer":{"id":1,"email":"a@example.com","phone":"${PHONE}"},"data_request":{"id":9999}}`;
    expect((await callRoute(dataRequest, signedWebhook("customers/data_request", null, { rawBody: raw }))).status).toBe(200);
    const { report } = await prisma.dataRequestReport.findFirstOrThrow({ where: { requestKey: "dr:9999" } });
    expect(report).toContain("12 Rue des Fleurs");
    expect(report).toContain("gid://shopify/Order/2");
    expect(report).not.toContain("gid://shopify/Order/3");
    expect(report).not.toContain("a".repeat(64));
  });

  it("customers/redact deletes them by phone and by order; shop/redact deletes the rest", async () => {
    await corrections();
    const raw = `{"shop_id":954889,"shop_domain":"${SHOP}","customer":{"id":1,"email":"a@example.com","phone":null},"orders_to_redact":[9007199254740993777]}`;
    expect((await callRoute(customersRedact, signedWebhook("customers/redact", null, { rawBody: raw }))).status).toBe(200);
    expect(await prisma.addressCorrection.findMany({ select: { phone: true } })).toEqual([{ phone: OTHER }]);
    // Shopify sends shop/redact 48 hours after the uninstall.
    await prisma.shop.update({ where: { domain: SHOP }, data: { uninstalledAt: new Date(Date.now() - 49 * 60 * 60 * 1000) } });
    expect((await callRoute(shopRedact, signedWebhook("shop/redact", { shop_id: 954889, shop_domain: SHOP }))).status).toBe(200);
    expect(await prisma.addressCorrection.count()).toBe(0);
  });
});

describe("customers/redact and the address-correction counters", () => {
  const fake = useFakeShopify();
  useOutbox();

  it("deletes every counter whose key names the customer's phone or a redacted order, and keeps the others", async () => {
    const shop = await installShop();
    const store = new FakeOrderStore();
    store.install(fake);
    const INDIAN = "+919876543210";
    const mine = store.add(fakeOrder());
    // Another shopper's order: every phone on it is theirs (the shipping address's too), so a search by
    // this shopper's phone can only find their own order, whichever was created last.
    const other = fakeOrder({ phone: "+919876543211", customer: { id: "gid://shopify/Customer/77", phone: "+919876543211" } });
    const theirs = store.add({ ...other, shippingAddress: { ...other.shippingAddress!, phone: "+919876543211" } });
    // The shopper asks by phone (counted per phone and per order), someone else by order.
    for (const body of [{ phone: INDIAN }, { orderId: theirs.id }]) {
      expect((await callRoute(requestRoute, signedRequest("/api/address-correction.request", { body }))).status).toBe(200);
    }
    const keysNaming = async (text: string) => (await prisma.rateCounter.findMany({ where: { key: { contains: text } } })).map((c) => c.key);
    expect(await keysNaming(INDIAN)).not.toEqual([]);
    expect(await keysNaming(mine.id)).not.toEqual([]);

    const orderId = mine.id.split("/").pop();
    const raw = `{"shop_id":1,"shop_domain":"${SHOP}","customer":{"id":1,"phone":"${INDIAN}"},"orders_to_redact":[${orderId}]}`;
    expect((await callRoute(customersRedact, signedWebhook("customers/redact", null, { rawBody: raw }))).status).toBe(200);
    expect(await keysNaming(INDIAN)).toEqual([]);
    expect(await keysNaming(mine.id)).toEqual([]);
    // The other shopper's counters and the shop's own stay.
    expect(await keysNaming("+919876543211")).not.toEqual([]);
    expect(await keysNaming(theirs.id)).not.toEqual([]);
    expect(await keysNaming(`ac:shop:${shop.id}`)).not.toEqual([]);
  });
});
