import * as deliveries from "~/routes/app.deliveries";
import { prisma } from "~/core/db.server";
import { clock } from "~/core/utils/clock.server";
import * as handlers from "../mocks/shopify/handlers";
import { FakeDeliveryStore } from "../mocks/shopify/delivery";
import { FakeFlow } from "../mocks/shopify/flow";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { installShop, SHOP } from "../helpers/shops";
import { ADDRESS, carrierEvent, codOrder, PHONE, placeOrder, work } from "../helpers/delivery";
import { verificationStatus } from "~/enforcement/pause.server";

/** /app/deliveries: "Deliveries at risk" with each one's state, and the delivery settings (only their columns written). */
const shopify = useFakeShopify();
useFakeTwilio();
beforeEach(() => {
  handlers.installDefaultHandlers(shopify);
  new FakeDeliveryStore().install(shopify);
  new FakeFlow().install(shopify);
});
afterEach(() => vi.restoreAllMocks());

type Loaded = { rows: { orderName: string; cause: string; state: string; choice: string | null; notified: boolean; notTexted: string | null }[]; total: number; values: Record<string, string> };
const load = async () => callAdminRoute<Loaded>(deliveries, await adminRequest("/app/deliveries"));
const save = async (form: Record<string, string>) => callAdminRoute<Loaded & { status: string; errors: Record<string, string> }>(deliveries, await adminRequest("/app/deliveries", { form }));
const FORM = { deliveryReminder: "on", deliveryRecovery: "on", deliveryFailureTags: "NDR", storeContact: "" };

describe("/app/deliveries", () => {
  it("lists the failed deliveries with their state, newest first", async () => {
    await installShop({ otpEnabled: false, timezone: "Asia/Kolkata" });
    vi.spyOn(clock, "now").mockReturnValue(new Date("2026-11-27T10:00:00Z"));
    expect((await load()).data).toMatchObject({ rows: [], total: 0, values: { ...FORM, deliveryFailureTags: "NDR" } });
    const o = codOrder();
    await placeOrder(o);
    await carrierEvent(o, "attempted_delivery");
    await work();
    expect((await load()).data?.rows).toEqual([expect.objectContaining({ orderName: o.name, cause: "attempted_delivery", state: "open", choice: null, notified: true, notTexted: null })]);
  });

  it("says why a shopper got no text: the number asked to stop, the allowance used up", async () => {
    const shop = await installShop({ otpEnabled: false, timezone: "Asia/Kolkata" });
    vi.spyOn(clock, "now").mockReturnValue(new Date("2026-11-27T10:00:00Z"));
    await prisma.contactOptOut.create({ data: { shopId: shop.id, phone: PHONE, channel: "all", source: "sms_stop" } });
    const stopped = codOrder({ id: 8101, admin_graphql_api_id: "gid://shopify/Order/8101", name: "#8101" });
    await placeOrder(stopped);
    await carrierEvent(stopped, "attempted_delivery");
    await work();
    expect((await load()).data?.rows).toEqual([expect.objectContaining({ orderName: "#8101", state: "open", notified: false, notTexted: "Not texted: the number asked to stop" })]);
    expect(await prisma.deliveryRecovery.findFirstOrThrow({ select: { notTexted: true, notifiedAt: true } })).toEqual({ notTexted: "opted_out", notifiedAt: null });

    // The allowance used up: another number's recovery is not texted either, and says why.
    const { allowance } = await verificationStatus(shop);
    await prisma.dailyStat.create({ data: { shopId: shop.id, metric: "otp_verified", day: "2026-11-01", dimension: "", count: allowance } });
    const other = codOrder({ id: 8102, admin_graphql_api_id: "gid://shopify/Order/8102", name: "#8102", shipping_address: { ...ADDRESS, phone: "098123 45699" }, billing_address: { ...ADDRESS, phone: "098123 45699" } });
    await placeOrder(other);
    await carrierEvent(other, "failure");
    await work();
    const rows = (await load()).data?.rows ?? [];
    expect(rows.map((r) => [r.orderName, r.notified, r.notTexted])).toEqual([
      ["#8102", false, "Not texted: the allowance is used up"],
      ["#8101", false, "Not texted: the number asked to stop"],
    ]);

    // Nothing was sent to either number, and nothing was counted.
    expect(await prisma.messageDelivery.count({ where: { purpose: "delivery_recovery" } })).toBe(0);
    expect(await prisma.dailyStat.count({ where: { metric: "otp_verified", dimension: "recovery" } })).toBe(0);
  });

  it("saves the delivery settings, and refuses a contact that is not a phone or email or a switch that is neither on nor off (422) without writing", async () => {
    await installShop();
    const refused = await save({ ...FORM, deliveryReminder: "maybe", storeContact: "https://evil.example" });
    expect(refused.status).toBe(422);
    expect(refused.data?.errors).toEqual({ deliveryReminder: "Choose on or off.", storeContact: "Enter a phone number or an email address." });
    expect((await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } })).storeContact).toBeNull();
    const saved = await save({ ...FORM, deliveryReminder: "off", deliveryFailureTags: "NDR, Undelivered\nndr", storeContact: "help@shop.example" });
    expect(saved.status).toBe(200);
    expect(await prisma.shop.findUniqueOrThrow({ where: { domain: SHOP }, select: { deliveryReminder: true, deliveryFailureTags: true, storeContact: true } })).toEqual({
      deliveryReminder: false,
      deliveryFailureTags: "ndr\nundelivered",
      storeContact: "help@shop.example",
    });
  });
});
