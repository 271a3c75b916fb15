import * as blocklistRoute from "~/routes/app.blocklist";
import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import * as ordersCreate from "~/routes/webhooks.orders.create";
import { databaseProvider, prisma } from "~/core/db.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import { clock } from "~/core/utils/clock.server";
import * as handlers from "../mocks/shopify/handlers";
import { OPERATIONS } from "../mocks/shopify/handlers";
import type { Handler } from "../mocks/shopify/server";
import { FakeCustomerStore } from "../mocks/shopify/customers";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import { useFakeShopify } from "../helpers/fake-shopify";
import { useFakeTwilio } from "../helpers/twilio";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { orderCreatedPayload, signedWebhook } from "../helpers/webhooks";
import { JOB_KINDS } from "~/server-build";

/**
 * A block and the customer tag: `cod-verified-customer` is added only if the phone that earned it is not
 * blocked when the tag job runs (a job still waiting when the merchant blocks the number must not put
 * the tag back after the block's untag job ran), and a stored block always has its untag job (both are
 * written in one transaction: a failure of either stores neither).
 */
const TAG = "cod-verified-customer";
const PHONE = "+212600000077";
const CUSTOMER = "gid://shopify/Customer/77";
const tagged = new Map<string, Set<string>>();
const customers = new FakeCustomerStore([{ id: CUSTOMER, phone: PHONE }], tagged);
const shopify = useFakeShopify();
const twilio = useFakeTwilio();
let offsetMs = 0;

beforeEach(() => {
  tagged.clear();
  offsetMs = 0;
  handlers.installDefaultHandlers(shopify, {}, tagged);
  new FakeEnforcementStore(tagged).install(shopify);
  customers.install(shopify);
});
afterEach(() => vi.restoreAllMocks());

function later(ms: number) {
  offsetMs += ms;
  vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + offsetMs));
}

const block = async (phone: string) =>
  callAdminRoute<Record<string, unknown>>(blocklistRoute, await adminRequest("/app/blocklist", { form: { intent: "block", phone } }));

/** The shopper proves the number through the storefront and orders with the proof on the cart. */
async function verifiedOrder() {
  const post = (route: Parameters<typeof callRoute>[0], path: string, body: Record<string, unknown>) =>
    callRoute(route, signedRequest(path, { method: "POST", body }));
  expect((await post(sendOtp, "/send-otp", { phone: PHONE })).status).toBe(200);
  const { proof } = (await jsonOf(await post(verifyOtp, "/verify-otp", { phone: PHONE, otp: twilio.twilio.codeFor(PHONE), selectedMode: "cod" }))) as { proof: string };
  const order = orderCreatedPayload({
    phone: PHONE,
    customer: { id: 77, admin_graphql_api_id: CUSTOMER, phone: PHONE, tags: "" },
    note_attributes: [{ name: "_cod_proof", value: proof }],
  });
  expect((await callRoute(ordersCreate, signedWebhook("orders/create", order))).status).toBe(200);
  return order;
}

/** tagsAdd on the customer fails `times` times (Shopify 503), on orders it works. */
function customerTagFails(times: number) {
  const ok = handlers.tagsAdd(tagged);
  const down = handlers.serverError(503);
  let left = times;
  const handler: Handler = (call) => (call.variables.id === CUSTOMER && left-- > 0 ? down(call) : ok(call));
  shopify.on(OPERATIONS.tagsAdd, handler, "admin");
}

describe("a customer tag job still waiting when the number is blocked", () => {
  it("does not put cod-verified-customer back after the block's untag job ran", async () => {
    await installShop();
    customerTagFails(1);
    const order = await verifiedOrder();
    await runDueJobs(JOB_KINDS);
    expect([...(tagged.get(order.admin_graphql_api_id) ?? [])]).toContain("cod-verified");
    expect(customers.tagsOf(CUSTOMER)).toEqual([]); // its tag job waits for a retry

    expect(await block(PHONE)).toMatchObject({ status: 200 });
    await runDueJobs(JOB_KINDS); // the untag job: nothing to remove yet
    later(60 * 60_000);
    await runDueJobs(JOB_KINDS); // the customer's tag job's retry
    await runDueJobs(JOB_KINDS);
    expect(customers.tagsOf(CUSTOMER)).toEqual([]);
    expect(await prisma.job.count({ where: { doneAt: null } })).toBe(0);
  });

  it("tags the customer when the number is not blocked (the same retry)", async () => {
    await installShop();
    customerTagFails(1);
    await verifiedOrder();
    await runDueJobs(JOB_KINDS);
    later(60 * 60_000);
    await runDueJobs(JOB_KINDS);
    expect(customers.tagsOf(CUSTOMER)).toEqual([TAG]);
  });
});

/** A database that refuses to store the untag job (what a crash or a full disk between the two writes means). */
async function refuseUntagJobs(on: boolean) {
  if (databaseProvider === "sqlite") {
    await prisma.$executeRawUnsafe(on
      ? `CREATE TRIGGER "refuse_untag" BEFORE INSERT ON "Job" WHEN NEW."kind" = 'blocklist.untag-customers' BEGIN SELECT RAISE(ABORT, 'refused'); END`
      : `DROP TRIGGER IF EXISTS "refuse_untag"`);
    return;
  }
  if (on) {
    await prisma.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION refuse_untag() RETURNS trigger AS $$
      BEGIN IF NEW."kind" = 'blocklist.untag-customers' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await prisma.$executeRawUnsafe(`CREATE TRIGGER "refuse_untag" BEFORE INSERT ON "Job" FOR EACH ROW EXECUTE FUNCTION refuse_untag()`);
  } else {
    await prisma.$executeRawUnsafe(`DROP TRIGGER IF EXISTS "refuse_untag" ON "Job"`);
  }
}

describe("a block and its untag job", () => {
  afterEach(() => refuseUntagJobs(false));

  it("are stored together or not at all", async () => {
    await installShop();
    await refuseUntagJobs(true);
    await expect(block(PHONE)).rejects.toThrow();
    expect(await prisma.blockedPhone.count()).toBe(0);

    await refuseUntagJobs(false);
    expect(await block(PHONE)).toMatchObject({ status: 200 });
    expect(await prisma.blockedPhone.count()).toBe(1);
    expect(await prisma.job.findMany({ where: { kind: "blocklist.untag-customers" }, select: { payload: true } })).toEqual([{ payload: JSON.stringify({ phones: [PHONE] }) }]);
  });
});
