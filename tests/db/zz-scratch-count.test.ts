import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import { watchQueries } from "~/db.server";
import { watchDirectStatements } from "~/db/sql.server";
import { runDueJobs } from "~/jobs/queue.server";
import { JOB_KINDS } from "~/server-build";
import { callRoute, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";
import { useFakeShopify } from "../helpers/fake-shopify";
import * as handlers from "../mocks/shopify/handlers";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";

const fake = useFakeTwilio();
const shopify = useFakeShopify();
beforeEach(() => handlers.installDefaultHandlers(shopify, {}, new Map()));

async function watch(label: string, fn: () => Promise<unknown>) {
  const p = watchQueries();
  const d = watchDirectStatements();
  await fn();
  p.stop(); d.stop();
  console.log(`\n=== ${label}: ${d.roundTrips} round trips, ${d.statements.length} direct, ${p.queries.length} prisma`);
  for (const s of d.statements) console.log("  D " + s.replace(/\s+/g, " ").slice(0, 160));
  for (const s of p.queries) console.log("  P " + s.replace(/\s+/g, " ").slice(0, 160));
}

it("counts", async () => {
  await installShop();
  const send = (phone: string) => callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone } }));
  await send("+14155550101");
  await watch("send-otp", () => send("+14155550102"));
  const code = fake.twilio.codeFor("+14155550102");
  await watch("verify-otp right", () => callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body: { phone: "+14155550102", otp: code, selectedMode: "cod" } })));
  await send("+14155550103");
  const c3 = fake.twilio.codeFor("+14155550103");
  await watch("verify-otp wrong", () => callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body: { phone: "+14155550103", otp: c3 === "000000" ? "000001" : "000000" } })));
  await watch("orders/create", () => callRoute(ordersCreate, signedWebhook("orders/create", orderCreatedPayload({ phone: "+14155550102", payment_gateway_names: ["Cash on Delivery (COD)"], note_attributes: [], shipping_address: null, billing_address: null, customer: null }))));
  await watch("jobs", () => runDueJobs(JOB_KINDS, 50, 1));
});
