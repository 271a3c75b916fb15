import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as sendOtp from "~/routes/proxy.send-otp";
import { prisma } from "~/core/db.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import { clock } from "~/core/utils/clock.server";
import { PHONE_LINKS_PER_DAY, PHONE_TEXTS_PER_DAY } from "~/sms/phone-cap.server";
import { JOB_KINDS } from "~/server-build";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/**
 * What one number can be sent by a shop in a day, whoever typed it (app/sms/phone-cap.server.ts):
 * confirmation links have a small cap of their own, and every text (codes included) one shared cap. An
 * order whose link the cap held back is never cancelled at its deadline: its shopper was never asked.
 */
const PHONE = "+212600000031";
const shopify = useFakeShopify();
const twilio = useFakeTwilio();
let tagged: Map<string, Set<string>>;

beforeEach(() => {
  vi.spyOn(clock, "now").mockReturnValue(new Date("2026-11-20T10:00:00Z"));
  tagged = new Map();
  const store = new FakeEnforcementStore(tagged);
  handlers.installDefaultHandlers(shopify, {}, tagged);
  store.install(shopify);
});

async function placeOrders(n: number) {
  for (let i = 0; i < n; i++) {
    const order = orderCreatedPayload({ id: 7000 + i, admin_graphql_api_id: `gid://shopify/Order/${7000 + i}`, name: `#${7000 + i}`, phone: PHONE });
    expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
  }
}
/** Runs the due jobs until a sweep finds none (ten orders queue more jobs than one sweep of 20 takes). */
async function work() {
  for (let sweep = 0; sweep < 20; sweep++) if ((await runDueJobs(JOB_KINDS)).claimed === 0) return;
}
const linksTo = (phone: string) => twilio.twilio.messages.filter((m) => m.to === phone && /\/vc\//.test(m.body));

describe("texts to one number", () => {
  it("ten COD orders with one number: the links cap sends three, the other seven are held back and never cancelled", async () => {
    await installShop({ cancelUnconfirmed: true, confirmDeadlineHours: 24 });
    await placeOrders(10);
    await work();
    expect(await prisma.orderConfirmation.count()).toBe(10);
    expect(linksTo(PHONE)).toHaveLength(PHONE_LINKS_PER_DAY);
    expect(await prisma.orderConfirmation.count({ where: { textCappedAt: { not: null } } })).toBe(10 - PHONE_LINKS_PER_DAY);
    // A redelivered step, or the deadline, sends nothing more.
    vi.spyOn(clock, "now").mockReturnValue(new Date("2026-11-21T10:30:00Z"));
    await work();
    expect(linksTo(PHONE)).toHaveLength(PHONE_LINKS_PER_DAY);
    // Every order is unconfirmed; only the three whose shopper was asked are cancelled.
    expect(await prisma.orderConfirmation.count({ where: { status: "unconfirmed" } })).toBe(10);
    expect(shopify.callsTo(OPERATIONS.orderCancel)).toHaveLength(PHONE_LINKS_PER_DAY);
  });

  it("codes and links share one cap per number: after three links, seven codes, then 429 to the networks that asked", async () => {
    await installShop({ otpResendCooldownSeconds: 0, otpSendLimit: 100 });
    await placeOrders(3);
    await work();
    expect(linksTo(PHONE)).toHaveLength(3);
    // Two networks (a network's slice of a number is 5 a day), the second asking once more past the number's 10.
    const networks = ["198.51.100.1", "198.51.100.1", "198.51.100.1", "198.51.100.1", "198.51.100.1", "203.0.113.1", "203.0.113.1", "203.0.113.1"];
    const statuses: number[] = [];
    for (const ip of networks) {
      statuses.push((await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE }, headers: { "x-forwarded-for": ip } }))).status);
    }
    expect(statuses).toEqual([...Array(PHONE_TEXTS_PER_DAY - 3).fill(200), 429]);
    const refused = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE }, headers: { "x-forwarded-for": "203.0.113.1" } }));
    expect(await jsonOf(refused)).toMatchObject({ code: "rate_limited" });
    expect(twilio.twilio.messages.filter((m) => m.to === PHONE)).toHaveLength(PHONE_TEXTS_PER_DAY);
    // A network that has not asked for the number yet still gets its first code (the number's owner: tests/routes/number-owner.test.ts).
    const owner = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: PHONE }, headers: { "x-forwarded-for": "100.64.9.1" } }));
    expect(owner.status).toBe(200);
    // Another number is not affected.
    expect((await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: "+212600000032" } }))).status).toBe(200);
  });
});
