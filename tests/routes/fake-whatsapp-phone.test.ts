import http from "node:http";
import type { AddressInfo } from "node:net";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import * as inbound from "~/routes/twilio.whatsapp";
import * as status from "~/routes/twilio.status";
import * as smsInbound from "~/routes/twilio.sms";
import { env } from "~/core/env.server";
import { prisma } from "~/core/db.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import { JOB_KINDS } from "~/server-build";
import * as handlers from "../mocks/shopify/handlers";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import { LOCAL_TEMPLATES, startFakeTwilio, sendingThrough, type FakeTwilio } from "../mocks/twilio";
import { useFakeShopify } from "../helpers/fake-shopify";
import { callRoute } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

/**
 * Local mode's fake phone (tests/mocks/twilio.ts GET /phone): it renders the confirmation template with
 * its buttons, and a press (or an SMS texted back) posts Twilio's signed inbound webhook to the app,
 * which the real route accepts.
 */
const PHONE = "+919876500077";
const shopify = useFakeShopify();
let fake: FakeTwilio;
let app: http.Server;
const saved = { ...env };
let tagged: Map<string, Set<string>>;

beforeAll(async () => {
  // The app's two Twilio routes behind a loopback server, as the local server serves them.
  app = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      const request = new Request(`${env.SHOPIFY_APP_URL}${req.url}`, { method: "POST", headers: req.headers as Record<string, string>, body: Buffer.concat(chunks) });
      const answer = await callRoute(req.url === "/twilio/status" ? status : req.url === "/twilio/sms" ? smsInbound : inbound, request);
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(await answer.text());
    });
  });
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  fake = await startFakeTwilio({ templates: LOCAL_TEMPLATES, appUrl });
  Object.assign(env, {
    SHOPIFY_APP_URL: appUrl,
    ...sendingThrough(fake),
    TWILIO_WHATSAPP_FROM: "+15005550007",
    TWILIO_WHATSAPP_CONFIRM_CONTENT_SID: "HX0000000000000000000000000000c0f1",
  });
});
afterAll(async () => {
  Object.assign(env, saved);
  await fake.close();
  await new Promise<void>((resolve) => app.close(() => resolve()));
});
beforeEach(() => {
  tagged = new Map();
  handlers.installDefaultHandlers(shopify, {}, tagged);
  new FakeEnforcementStore(tagged).install(shopify);
});

const work = async () => {
  await runDueJobs(JOB_KINDS);
  await runDueJobs(JOB_KINDS);
};

it("shows the question with its buttons; pressing Confirm on the page confirms the order, and a failed report sends the SMS link", async () => {
  await installShop({ whatsappConfirmation: "unverified" });
  const order = orderCreatedPayload({ phone: PHONE, customer: { id: 92, admin_graphql_api_id: "gid://shopify/Customer/92", phone: PHONE, tags: "" } });
  expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
  await work();

  const page = await (await fetch(`${fake.url}/phone`)).text();
  expect(page).toContain(`please confirm your cash-on-delivery order ${order.name}`);
  for (const title of ["Confirm", "Cancel", "Change address"]) expect(page).toContain(`>${title}</button>`);
  const [question] = fake.messages;

  // A failed delivery report from the page: the SMS link goes.
  const failed = await fetch(`${fake.url}/phone/status`, { method: "POST", body: new URLSearchParams({ sid: question.sid, status: "failed" }), redirect: "manual" });
  expect(failed.status).toBe(303);
  expect(decodeURIComponent(failed.headers.get("location")!)).toContain("200");
  await work();
  expect(fake.messages.filter((m) => m.channel === "sms").map((m) => m.body)).toEqual([expect.stringMatching(/\/vc\//)]);

  const pressed = await fetch(`${fake.url}/phone/press`, { method: "POST", body: new URLSearchParams({ sid: question.sid, button: "confirm" }), redirect: "manual" });
  expect(decodeURIComponent(pressed.headers.get("location")!)).toContain("200 recorded");
  // Twilio delivering the same press again (the page's replay): a duplicate, nothing more.
  const replayed = await fetch(`${fake.url}/phone/replay`, { method: "POST", redirect: "manual" });
  expect(decodeURIComponent(replayed.headers.get("location")!)).toContain("200 duplicate");
  await work();
  expect(await prisma.orderConfirmation.findFirstOrThrow()).toMatchObject({ status: "confirmed", answer: "confirm" });
  expect(await prisma.whatsappReply.count()).toBe(1);
  expect(fake.messages.filter((m) => m.channel === "whatsapp" && m.contentSid === null).map((m) => m.body)).toEqual([expect.stringContaining("is confirmed")]);
  expect([...(tagged.get(order.admin_graphql_api_id) ?? [])].filter((t) => t.startsWith("cod-v"))).toEqual(["cod-verified"]);
});

it("texting STOP back to an SMS from the page opts the number out once; the page's replay of it is a duplicate", async () => {
  const shop = await installShop({ whatsappConfirmation: "off" });
  const order = orderCreatedPayload({ phone: PHONE });
  expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
  await work();
  const page = await (await fetch(`${fake.url}/phone`)).text();
  expect(page).toContain('name="body" value="STOP"');
  const stopped = await fetch(`${fake.url}/phone/text`, { method: "POST", body: new URLSearchParams({ from: PHONE, body: "STOP" }), redirect: "manual" });
  expect(decodeURIComponent(stopped.headers.get("location")!)).toContain("200 opted_out");
  const replayed = await fetch(`${fake.url}/phone/replay-text`, { method: "POST", redirect: "manual" });
  expect(decodeURIComponent(replayed.headers.get("location")!)).toContain("200 duplicate");
  expect(await prisma.contactOptOut.findMany({ select: { shopId: true, phone: true, source: true } })).toEqual([{ shopId: shop.id, phone: PHONE, source: "sms_stop" }]);
});
