import * as route from "~/routes/app.blocklist";
import { prisma } from "~/core/db.server";
import { runDueJobs } from "~/core/jobs/queue.server";
import { clock } from "~/core/utils/clock.server";
import { OPERATIONS } from "../mocks/shopify/handlers";
import * as handlers from "../mocks/shopify/handlers";
import { FakeCustomerStore } from "../mocks/shopify/customers";
import { FakeEnforcementStore } from "../mocks/shopify/enforcement";
import { useFakeShopify } from "../helpers/fake-shopify";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { installShop } from "../helpers/shops";
import { JOB_KINDS } from "~/server-build";

/**
 * Blocking a number takes `cod-verified-customer` off the customers carrying it (issue 25 item 3): a
 * durable job queued by the Blocked numbers page (one number or an import), which finds the customers by
 * phone through the Admin API and removes the tag, retried while Shopify fails.
 */
const TAG = "cod-verified-customer";
const BLOCKED = "+919812345678";
const OTHER = "+971501234567";
const THIRD = "+14155550199";
const tagged = new Map<string, Set<string>>();
const customers = new FakeCustomerStore(
  [
    { id: "gid://shopify/Customer/1", phone: BLOCKED },
    { id: "gid://shopify/Customer/2", phone: OTHER },
    { id: "gid://shopify/Customer/3", phone: THIRD },
    { id: "gid://shopify/Customer/4", phone: null },
  ],
  tagged,
);
const fake = useFakeShopify();

beforeEach(() => {
  tagged.clear();
  for (const c of customers.customers) tagged.set(c.id, new Set([TAG, "vip"]));
  new FakeEnforcementStore(tagged).install(fake);
  customers.install(fake);
});
afterEach(() => vi.restoreAllMocks());

const post = async (form: Record<string, string>) => callAdminRoute<Record<string, unknown>>(route, await adminRequest("/app/blocklist", { form }));
const tagsOf = (n: number) => customers.tagsOf(`gid://shopify/Customer/${n}`);

describe("blocking a number un-tags its verified customers", () => {
  it("GIVEN a verified customer WHEN the merchant blocks its number THEN a job is stored, and running it removes only that customer's cod-verified-customer", async () => {
    await installShop();
    expect(await post({ intent: "block", phone: "+91 98123-45678", reason: "refused parcels" })).toMatchObject({ status: 200 });
    // Durable: the work is a row before anything is sent to Shopify.
    expect(await prisma.job.findMany({ select: { kind: true, doneAt: true } })).toEqual([{ kind: "blocklist.untag-customers", doneAt: null }]);
    expect(fake.callsTo(OPERATIONS.tagsRemove)).toHaveLength(0);

    expect(await runDueJobs(JOB_KINDS)).toMatchObject({ done: 1 });
    expect(fake.callsTo(OPERATIONS.customersByPhone)[0].variables.query).toBe(`phone:"${BLOCKED}"`);
    expect(fake.callsTo(OPERATIONS.tagsRemove).map((c) => c.variables)).toEqual([{ id: "gid://shopify/Customer/1", tags: [TAG] }]);
    expect(tagsOf(1)).toEqual(["vip"]);
    expect(tagsOf(2)).toEqual([TAG, "vip"]);
  });

  it("an import un-tags every number of the list, those blocked before included", async () => {
    await installShop();
    await post({ intent: "block", phone: THIRD });
    await runDueJobs(JOB_KINDS);
    tagged.get("gid://shopify/Customer/3")!.add(TAG); // tagged again since
    const answer = await post({ intent: "import", list: `${BLOCKED}\nnope\n${OTHER}\n${THIRD}` });
    expect(answer).toMatchObject({ status: 200, data: { added: 2, alreadyBlocked: 1 } });
    await runDueJobs(JOB_KINDS);
    expect([tagsOf(1), tagsOf(2), tagsOf(3)]).toEqual([["vip"], ["vip"], ["vip"]]);
  });

  it("keeps the job and retries it while Shopify fails; it finishes once Shopify answers", async () => {
    await installShop();
    fake.on(OPERATIONS.customersByPhone, handlers.serverError(503), "admin");
    await post({ intent: "block", phone: BLOCKED });
    expect(await runDueJobs(JOB_KINDS)).toMatchObject({ retried: 1 });
    expect(tagsOf(1)).toEqual([TAG, "vip"]);
    const job = await prisma.job.findFirstOrThrow();
    expect(job).toMatchObject({ doneAt: null, failedAt: null, lastError: expect.stringContaining("http_error") });

    customers.install(fake);
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 10 * 60_000));
    expect(await runDueJobs(JOB_KINDS)).toMatchObject({ done: 1 });
    expect(tagsOf(1)).toEqual(["vip"]);
  });
});
