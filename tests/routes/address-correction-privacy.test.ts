import * as dataRequest from "~/routes/webhooks.customers.data_request";
import * as customersRedact from "~/routes/webhooks.customers.redact";
import * as shopRedact from "~/routes/webhooks.shop.redact";
import { prisma } from "~/db.server";
import { callRoute } from "../helpers/proxy";
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
    await callRoute(shopRedact, signedWebhook("shop/redact", { shop_id: 954889, shop_domain: SHOP }));
    expect(await prisma.addressCorrection.count()).toBe(0);
  });
});
