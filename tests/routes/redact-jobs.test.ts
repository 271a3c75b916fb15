import * as customersRedact from "~/routes/webhooks.customers.redact";
import { prisma } from "~/core/db.server";
import { enqueueJob, orderJobKey } from "~/core/jobs/queue.server";
import { customerVerifiedTagJob, orderTagsJob } from "~/orders/tag-jobs.server";
import { blockedCustomersJob } from "~/otp/blocked-customers.server";
import { callRoute } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { signedWebhook } from "../helpers/webhooks";

/**
 * customers/redact leaves no background job naming the shopper (docs/privacy.md): due, done or failed,
 * whatever its kind, by phone, order or customer. A job about several people keeps the others.
 */
const PHONE = "+919812377001";
const OTHER = "+919812377002";
const CUSTOMER = "gid://shopify/Customer/191167";
const ORDER = "gid://shopify/Order/9007199254740993001";
const OTHER_ORDER = "gid://shopify/Order/9007199254740993002";

describe("customers/redact and the job queue", () => {
  it("deletes every job naming the shopper, finished ones included, and keeps other shoppers' jobs and names", async () => {
    await installShop();
    // The verified-customer tag (finished: it ran weeks ago), keyed by the customer and carrying the phone.
    await enqueueJob(customerVerifiedTagJob, { shop: SHOP, key: orderJobKey(SHOP, CUSTOMER), payload: { customerGid: CUSTOMER, phone: PHONE } });
    await prisma.job.updateMany({ where: { kind: customerVerifiedTagJob.kind }, data: { doneAt: new Date() } });
    // A failed one about an order of the customer under a key that is not the order's.
    await enqueueJob(orderTagsJob, { shop: SHOP, key: "legacy-key", payload: { orderGid: ORDER, tags: ["cod-verified"] } });
    await prisma.job.updateMany({ where: { key: "legacy-key" }, data: { failedAt: new Date() } });
    // The blocklist's untagging of two numbers, still due; and another shopper's order job.
    await enqueueJob(blockedCustomersJob, { shop: SHOP, key: "block-1", payload: { phones: [PHONE, OTHER] } });
    await enqueueJob(orderTagsJob, { shop: SHOP, key: orderJobKey(SHOP, OTHER_ORDER), payload: { orderGid: OTHER_ORDER, tags: ["cod-verified"] } });
    // A customer whose order id shares the first digits is somebody else.
    await enqueueJob(orderTagsJob, { shop: SHOP, key: "prefix", payload: { orderGid: `${ORDER}9`, tags: [] } });

    const raw = `{"shop_id":954889,"shop_domain":"${SHOP}","customer":{"id":191167,"email":"john@example.com","phone":"${PHONE}"},"orders_to_redact":[9007199254740993001]}`;
    expect((await callRoute(customersRedact, signedWebhook("customers/redact", null, { rawBody: raw }))).status).toBe(200);

    const left = await prisma.job.findMany({ select: { key: true, payload: true }, orderBy: { key: "asc" } });
    for (const job of left) {
      expect(job.payload).not.toContain(PHONE);
      expect(job.payload).not.toContain(`"${ORDER}"`);
      expect(job.payload).not.toContain(CUSTOMER);
    }
    expect(left.map((j) => j.key).sort()).toEqual(["block-1", orderJobKey(SHOP, OTHER_ORDER), "prefix"].sort());
    expect(JSON.parse(left.find((j) => j.key === "block-1")!.payload)).toEqual({ phones: [OTHER] });
  });
});
