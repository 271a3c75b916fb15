import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as confirmPage from "~/routes/proxy.vc.$token";
import * as sendOtp from "~/routes/proxy.send-otp";
import { runDueJobs } from "~/core/jobs/queue.server";
import { shareLimit } from "~/otp/otp.server";
import { JOB_KINDS } from "~/server-build";
import * as handlers from "../mocks/shopify/handlers";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { callRoute, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/**
 * The confirmation page's "text me a code" (/vc/:token, after purchase) counts against the asking IP and
 * its network like send-otp: one IP cannot text more codes through order links than through the modal,
 * and both doors draw on the same share of the shop's daily cap.
 */
const shopify = useFakeShopify();
const twilio = useFakeTwilio();
const CAP = 100; // the IP's share is its floor: 5 a day
const IP = "203.0.113.9";

beforeEach(() => handlers.installDefaultHandlers(shopify));

/** n numbers, each in a block of its own, each with an unverified COD order whose link was texted. */
async function ordersWithLinks(n: number): Promise<{ phone: string; token: string }[]> {
  const phones = Array.from({ length: n }, (_, i) => `+1415${5_550_000 + i * 1000}`);
  for (const phone of phones) {
    const order = orderCreatedPayload({ phone, customer: { id: 90, admin_graphql_api_id: "gid://shopify/Customer/90", phone, tags: "" } });
    expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
  }
  await runDueJobs(JOB_KINDS, 200);
  return phones.map((phone) => {
    const sms = twilio.twilio.messages.filter((m) => m.to === phone && /\/vc\//.test(m.body));
    return { phone, token: /\/vc\/([A-Za-z0-9_-]{32})/.exec(sms[sms.length - 1].body)![1] };
  });
}

const form = (fields: Record<string, string>) => ({
  method: "POST",
  body: new URLSearchParams(fields).toString(),
  headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": IP },
});

async function askCode(token: string, ip = IP): Promise<number> {
  const opened = await (await callRoute(confirmPage, signedRequest(`/vc/${token}`, { headers: { "x-forwarded-for": ip } }), { token })).text();
  const nonce = /name="nonce" value="([^"]+)"/.exec(opened)![1];
  const init = form({ intent: "send", nonce });
  init.headers["x-forwarded-for"] = ip;
  return (await callRoute(confirmPage, signedRequest(`/vc/${token}`, init), { token })).status;
}

const codesTo = (phone: string) => twilio.twilio.messages.filter((m) => m.to === phone && !/\/vc\//.test(m.body));

describe("/vc's text me a code counts against the IP", () => {
  it("one IP gets its share of codes through order links, then 429; send-otp from it is refused too; another network is served", async () => {
    await installShop({ dailySendCap: CAP, otpResendCooldownSeconds: 0 });
    const limit = shareLimit("ip", CAP);
    const links = await ordersWithLinks(limit + 2);
    const statuses: number[] = [];
    for (const { token } of links.slice(0, limit + 1)) statuses.push(await askCode(token));
    expect(statuses).toEqual([...Array(limit).fill(200), 429]);
    expect(links.slice(0, limit).every(({ phone }) => codesTo(phone).length === 1)).toBe(true);
    expect(codesTo(links[limit].phone)).toHaveLength(0);

    // The same share as the modal's: send-otp from that IP is refused, to a number it never asked before.
    const viaModal = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone: "+14159990001" }, headers: { "x-forwarded-for": IP } }));
    expect(viaModal.status).toBe(429);

    // The last order's shopper, from their own network, still gets their code.
    expect(await askCode(links[limit + 1].token, "198.51.100.44")).toBe(200);
    expect(codesTo(links[limit + 1].phone)).toHaveLength(1);
  });
});
