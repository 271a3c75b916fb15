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
import { carrierEvent, codOrder, placeOrder, work } from "../helpers/delivery";

/** /app/deliveries: "Deliveries at risk" with each one's state, and the delivery settings (only their columns written). */
const shopify = useFakeShopify();
useFakeTwilio();
beforeEach(() => {
  handlers.installDefaultHandlers(shopify);
  new FakeDeliveryStore().install(shopify);
  new FakeFlow().install(shopify);
});
afterEach(() => vi.restoreAllMocks());

type Loaded = { rows: { orderName: string; cause: string; state: string; choice: string | null; notified: boolean }[]; total: number; values: Record<string, string> };
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
    expect((await load()).data?.rows).toEqual([expect.objectContaining({ orderName: o.name, cause: "attempted_delivery", state: "open", choice: null, notified: true })]);
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
