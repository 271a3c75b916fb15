import fs from "node:fs";
import path from "node:path";
import { Prisma } from "../../prisma/generated/sqlite/index.js";
import * as uninstalled from "~/routes/webhooks.app.uninstalled";
import * as dataRequest from "~/routes/webhooks.customers.data_request";
import * as customersRedact from "~/routes/webhooks.customers.redact";
import * as shopRedact from "~/routes/webhooks.shop.redact";
import { prisma } from "~/core/db.server";
import { looksPersonal, PRIVACY_COVERAGE } from "~/privacy/coverage";
import { REPORT_SECTIONS } from "~/privacy/report-sections";
import { markPhoneVerified } from "~/otp/verified-phones.server";
import { sendLimitKey } from "~/otp/otp.server";
import { hitRateLimit } from "~/core/rate-limit/rate-limit.server";
import { orderJobKey, runDueJobs, scheduleRecurringJobs } from "~/core/jobs/queue.server";
import { clock } from "~/core/utils/clock.server";
import { RETENTION_KIND, scheduleRetention } from "~/privacy/retention.server";
import { JOB_KINDS } from "~/server-build";
import { callRoute } from "../helpers/proxy";
import { installShop, SHOP } from "../helpers/shops";
import { signedWebhook } from "../helpers/webhooks";

/**
 * Nothing escapes redact. The models are read from the generated client's DMMF (the schema itself), so a
 * new table or column is seen here the day it is added: each must be declared in app/privacy/coverage.ts,
 * and each table that holds a shopper's data must lose the shopper's rows to a real customers/redact
 * delivery and the shop's rows to a real shop/redact delivery (seeded below, one seeder per table).
 */
const models = Prisma.dmmf.datamodel.models;
const SCHEMA = fs.readFileSync(path.resolve(__dirname, "../../prisma/schema.prisma"), "utf8");
const PHONE = "+212600000003";
const OTHER = "+212600000004";
const ORDER_ID = "9007199254740993001";
const gid = (id: string) => `gid://shopify/Order/${id}`;
const CUSTOMER_ID = 191167;

type Customer = { phone: string; orderId: string; customerId: number; tag: string };
type Seeded = { shopId: string; domain: string };
/** Seeds one row of a table for a customer of a shop, and returns the filter that finds that customer's rows. */
type Seeder = (shop: Seeded, who: Customer) => Promise<Record<string, unknown>>;

const address = (line: string) => JSON.stringify({ address1: line, city: "Casablanca", zip: "20000", country: "MA" });

/** One per table that holds a shopper's data; a new such table without one fails the test below. */
const SEEDERS: Record<string, Seeder> = {
  Shop: async (s, c) => {
    // The Risk page's prepaid-only numbers: a list of shoppers' phones in the shop's settings.
    const { riskPrepaidPhones } = await prisma.shop.findUniqueOrThrow({ where: { id: s.shopId } });
    await prisma.shop.update({ where: { id: s.shopId }, data: { riskPrepaidPhones: [riskPrepaidPhones, c.phone].filter(Boolean).join("\n") } });
    return { id: s.shopId, riskPrepaidPhones: { contains: c.phone } };
  },
  VerifiedCustomer: async (s, c) => {
    await markPhoneVerified(s.shopId, c.phone);
    return { shopId: s.shopId, phone: c.phone };
  },
  Selection: async (s, c) => {
    // One linked to the order, one the phone made before (unlinked).
    await prisma.selection.create({ data: { shopId: s.shopId, phone: c.phone, mode: "cod", verified: true, source: "verify-otp", orderGid: gid(c.orderId), items: JSON.stringify([{ variantId: "gid://shopify/ProductVariant/1", quantity: 1 }]), riskBehaviour: JSON.stringify({ msToType: 200_000, unusualHour: false }) } });
    await prisma.selection.create({ data: { shopId: s.shopId, phone: c.phone, mode: "prepaid", source: "create-checkout", cartToken: `cart-${c.tag}`, checkoutUrl: `https://shop.example/cart/c/${c.tag}` } });
    return { shopId: s.shopId, phone: c.phone };
  },
  RateCounter: async (s, c) => {
    await hitRateLimit(sendLimitKey(s.shopId, c.phone), 3, 600);
    return { key: sendLimitKey(s.shopId, c.phone) };
  },
  Job: async (s, c) => {
    await prisma.job.create({
      data: { kind: "order-tags", key: orderJobKey(s.domain, gid(c.orderId)), shop: s.domain, payload: JSON.stringify({ orderGid: gid(c.orderId), phone: c.phone }), nextAttemptAt: new Date() },
    });
    return { key: orderJobKey(s.domain, gid(c.orderId)) };
  },
  OtpChallenge: async (s, c) => {
    await prisma.otpChallenge.create({ data: { id: `otp-${s.shopId}-${c.tag}`, shopId: s.shopId, phone: c.phone, codeHash: "00", sentAt: 1n, expiresAt: 2n, maxAttempts: 5 } });
    return { shopId: s.shopId, phone: c.phone };
  },
  BlockedPhone: async (s, c) => {
    // A block the merchant gave an end (90 days); one without an end stays until they unblock it (tests/db/retention.test.ts).
    await prisma.blockedPhone.create({ data: { shopId: s.shopId, phone: c.phone, reason: "refused", expiresAt: new Date(Date.now() + 90 * 86_400_000) } });
    return { shopId: s.shopId, phone: c.phone };
  },
  AddressCorrection: async (s, c) => {
    // Sent to another number than the customer's: found by the order alone.
    await prisma.addressCorrection.create({
      data: { shopId: s.shopId, orderGid: gid(c.orderId), phone: `${c.phone}9`, tokenHash: `ac-${s.shopId}-${c.tag}`, source: "api", before: address("1 Rue A"), after: address("2 Rue B"), digipin: "39J-49L-L8T4", expiresAt: new Date(Date.now() + 3600_000) },
    });
    return { shopId: s.shopId, orderGid: gid(c.orderId) };
  },
  OrderConfirmation: async (s, c) => {
    await prisma.orderConfirmation.create({
      data: { id: `oc-${s.shopId}-${c.tag}`, shopId: s.shopId, orderGid: gid(c.orderId), phone: c.phone, customerGid: `gid://shopify/Customer/${c.customerId}`, tokenHash: `oc-${s.shopId}-${c.tag}`, deadlineAt: new Date(Date.now() + 86_400_000) },
    });
    return { shopId: s.shopId, orderGid: gid(c.orderId) };
  },
  ConfirmationRung: async (s, c) => {
    // A voice rung of a confirmation found by the order alone (sent to another number): gone with its confirmation.
    const id = `ocr-${s.shopId}-${c.tag}`;
    await prisma.orderConfirmation.create({ data: { id, shopId: s.shopId, orderGid: gid(c.orderId), phone: `${c.phone}8`, tokenHash: id, deadlineAt: new Date(Date.now() + 86_400_000) } }).catch(() => null);
    const confirmation = await prisma.orderConfirmation.findFirstOrThrow({ where: { shopId: s.shopId, orderGid: gid(c.orderId) } });
    await prisma.confirmationRung.create({ data: { id: `${confirmation.id}:voice`, confirmationId: confirmation.id, shopId: s.shopId, rung: "voice", state: "answered", detail: "1", providerId: `CA${c.tag}${s.shopId}`, dueAt: new Date() } });
    return { shopId: s.shopId, confirmationId: confirmation.id };
  },
  ContactOptOut: async (s, c) => {
    await prisma.contactOptOut.create({ data: { shopId: s.shopId, phone: c.phone, channel: "voice", source: "voice_digit" } });
    return { shopId: s.shopId, phone: c.phone };
  },
  MessageDelivery: async (s, c) => {
    await prisma.messageDelivery.create({ data: { shopId: s.shopId, phone: c.phone, purpose: "otp", channel: "whatsapp", status: "sent", fallbackBody: "sealed", orderGid: gid(c.orderId) } });
    return { shopId: s.shopId, phone: c.phone };
  },
  WhatsappReply: async (s, c) => {
    // A shopper's WhatsApp answer: the sender may be a business-scoped id, so it is found by the order.
    await prisma.whatsappReply.create({ data: { id: `SM${s.shopId}${c.tag}`, shopId: s.shopId, orderGid: gid(c.orderId), repliedTo: "SMx", action: "confirm", sender: `whatsapp:${c.phone}` } });
    return { shopId: s.shopId, orderGid: gid(c.orderId) };
  },
  OrderRecord: async (s, c) => {
    await prisma.orderRecord.create({ data: { shopId: s.shopId, orderGid: gid(c.orderId), orderName: "#1001", phone: c.phone, mode: "cod", cod: true, status: "verified", placedAt: new Date(), ipHash: `ip-${c.tag}`, postalCode: "20000", products: JSON.stringify([`Kurta ${c.tag}`]), trafficSource: "instagram", trafficMedium: "social", trafficCampaign: "diwali" } });
    return { shopId: s.shopId, orderGid: gid(c.orderId) };
  },
  PrepaidOffer: async (s, c) => {
    await prisma.prepaidOffer.create({ data: { id: `po${s.shopId}${c.tag}`, shopId: s.shopId, orderGid: gid(c.orderId), phone: c.phone, tokenHash: `th-${s.shopId}-${c.tag}`, status: "sent" } });
    return { shopId: s.shopId, orderGid: gid(c.orderId) };
  },
  OrderOutcome: async (s, c) => {
    await prisma.orderOutcome.create({ data: { shopId: s.shopId, orderGid: gid(c.orderId), phone: c.phone, postalCode: "20000", outcome: "failed", decidedAt: new Date() } });
    return { shopId: s.shopId, orderGid: gid(c.orderId) };
  },
  DeliveryReminder: async (s, c) => {
    await prisma.deliveryReminder.create({ data: { shopId: s.shopId, orderGid: gid(c.orderId), phone: c.phone, status: "sent" } });
    return { shopId: s.shopId, orderGid: gid(c.orderId) };
  },
  DeliveryRecovery: async (s, c) => {
    // The order's phone is another number: found by the order, and by the number the shopper gave.
    await prisma.deliveryRecovery.create({
      data: { id: `dr-${s.shopId}-${c.tag}`, shopId: s.shopId, orderGid: gid(c.orderId), phone: `${c.phone}9`, newPhone: c.phone, tokenHash: `dr-${s.shopId}-${c.tag}`, cause: "failure", status: "answered", choice: "fix_phone", digipin: "4P3-JK8-52C9", expiresAt: new Date(Date.now() + 3600_000) },
    });
    return { shopId: s.shopId, newPhone: c.phone };
  },
  ExperimentAssignment: async (s, c) => {
    const experimentId = `exp-${s.shopId}-${c.tag}`;
    await prisma.experiment.create({ data: { id: experimentId, shopId: s.shopId, holdoutShare: 0.1, startedAt: new Date(), horizon: 100, baseline: 0.2, drop: 0.1 } });
    await prisma.experimentAssignment.create({ data: { experimentId, shopId: s.shopId, phone: c.phone, arm: "holdout", assignedAt: new Date() } });
    return { shopId: s.shopId, phone: c.phone };
  },
  DataRequestReport: async (s, c) => {
    // Through a real delivery: the report of an earlier request names the customer and holds their data.
    const raw = `{"shop_id":1,"shop_domain":"${s.domain}","orders_requested":[${c.orderId}],"customer":{"id":${c.customerId},"email":"${c.tag}@example.com","phone":"${c.phone}"},"data_request":{"id":${c.customerId + 7}}}`;
    expect((await callRoute(dataRequest, signedWebhook("customers/data_request", null, { rawBody: raw, shop: s.domain }))).status).toBe(200);
    return { shopId: s.shopId, customerId: String(c.customerId) };
  },
};

/** The rows of a shop in each table that holds personal data (shop/redact must leave none). */
const SHOP_ROWS: Record<string, (s: Seeded) => Record<string, unknown>> = {
  Shop: (s) => ({ domain: s.domain }),
  Session: (s) => ({ shop: s.domain }),
  RateCounter: (s) => ({ key: { contains: `:${s.shopId}:` } }),
  Job: (s) => ({ shop: s.domain }),
};
const shopRows = (model: string, s: Seeded) => (SHOP_ROWS[model] ?? ((x: Seeded) => ({ shopId: x.shopId })))(s);

type Delegate = { count: (args: { where: Record<string, unknown> }) => Promise<number> };
const table = (model: string) => (prisma as unknown as Record<string, Delegate>)[model[0].toLowerCase() + model.slice(1)];

const personalModels = Object.entries(PRIVACY_COVERAGE).flatMap(([name, c]) => (c.personal ? [{ name, ...c }] : []));

describe("every model is declared in the privacy coverage table", () => {
  it("names each model of the schema, and no model that is gone", () => {
    expect(Object.keys(PRIVACY_COVERAGE).sort()).toEqual(models.map((m) => m.name).sort());
  });

  it.each(models.map((m) => [m.name, m] as const))("%s: every field that looks personal is declared as held or as not personal", (name, model) => {
    const coverage = PRIVACY_COVERAGE[name];
    expect(coverage, `${name} is missing from app/privacy/coverage.ts`).toBeDefined();
    const declared = new Set([...(coverage.personal ? coverage.holds : []), ...(coverage.notPersonal ?? [])]);
    const scalars = model.fields.filter((f) => f.kind === "scalar").map((f) => f.name);
    const undeclared = scalars.filter((f) => looksPersonal(f) && !declared.has(f));
    expect(undeclared, `${name}: declare these in app/privacy/coverage.ts`).toEqual([]);
    // What is declared exists (a renamed column is not silently dropped from the table).
    expect([...declared].filter((f) => !scalars.includes(f))).toEqual([]);
  });

  it("gives every table and field that holds personal data a retention period", () => {
    for (const m of personalModels) expect(m.retention.trim(), `${m.name}: how long is it kept?`).not.toBe("");
  });

  it("names where the data-request report shows every table that holds a shopper's data", () => {
    const unplaced = personalModels.filter((m) => m.customerRedact !== null && m.report === null && !m.notReported).map((m) => m.name);
    expect(unplaced).toEqual([]);
  });

  it("leaves out of the report only the report itself", () => {
    expect(personalModels.filter((m) => m.customerRedact !== null && m.report === null).map((m) => m.name)).toEqual(["DataRequestReport"]);
  });

  it("names what keeps every personal table to its period: a job's step, the deletion of the row it belongs to (a cascade in the schema), or, for a short list of the merchant's own, the merchant", () => {
    for (const m of personalModels) {
      if (!("cascadeFrom" in m.enforcedBy)) continue;
      const parent = m.enforcedBy.cascadeFrom;
      // The generated client's DMMF drops referential actions: the schema's text says it.
      const block = new RegExp(`\\nmodel ${m.name} \\{([^}]*)\\}`).exec(SCHEMA)?.[1] ?? "";
      expect(block, `${m.name} is deleted with its ${parent}`).toMatch(new RegExp(`\\s${parent}\\s+@relation\\([^)]*onDelete: Cascade`));
      expect(PRIVACY_COVERAGE[parent]).toMatchObject({ personal: true, enforcedBy: { job: "privacy.retention" } });
    }
    // Kept until the merchant acts (or uninstall and redact): the prepaid-only list they keep by hand on the Risk page.
    expect(personalModels.filter((m) => "byMerchant" in m.enforcedBy).map((m) => m.name).sort()).toEqual(["Shop"]);
  });

  it("has a seeder for every table that holds a shopper's data", () => {
    const shoppers = personalModels.filter((m) => m.customerRedact !== null).map((m) => m.name);
    expect(shoppers.filter((m) => !SEEDERS[m])).toEqual([]);
  });
});

/** Seeds the customer and another one in every table; `orderId` differs per shop (order ids are global). */
async function seedEverything(shop: Seeded, orderId = ORDER_ID) {
  const target: Customer = { phone: PHONE, orderId, customerId: CUSTOMER_ID, tag: "target" };
  const other: Customer = { phone: OTHER, orderId: `${orderId.slice(0, -1)}9`, customerId: CUSTOMER_ID + 1, tag: "other" };
  const filters: Record<string, { target: Record<string, unknown>; other: Record<string, unknown> }> = {};
  for (const [model, seed] of Object.entries(SEEDERS)) filters[model] = { target: await seed(shop, target), other: await seed(shop, other) };
  return filters;
}

describe("the jobs keep every personal table to its period", () => {
  afterEach(() => vi.restoreAllMocks());

  it("three years on, the retention and housekeeping jobs, run from the jobs table, have deleted every row a job keeps to a period; the merchant's lists stay", async () => {
    const row = await installShop();
    const shop = { shopId: row.id, domain: SHOP };
    const filters = await seedEverything(shop);
    // The background work about the order ran (a job's payload is kept 30 days after it is done).
    await prisma.job.updateMany({ where: { kind: "order-tags" }, data: { doneAt: new Date() } });
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() + 3 * 365 * 86_400_000));
    await scheduleRecurringJobs(JOB_KINDS.filter((k) => k.every));
    await scheduleRetention();
    const housekeeping = JOB_KINDS.filter((k) => k.kind === RETENTION_KIND || k.kind === "housekeeping.prune");
    expect(await runDueJobs(housekeeping)).toMatchObject({ claimed: 2, failed: 0, retried: 0 });
    const kept: string[] = [];
    for (const m of personalModels) {
      if (!SEEDERS[m.name]) continue;
      const left = await table(m.name).count({ where: filters[m.name].target });
      if ("byMerchant" in m.enforcedBy) expect(left, `${m.name}: the merchant's, kept`).toBeGreaterThan(0);
      else if (left > 0) kept.push(m.name);
    }
    expect(kept, "tables a job should have emptied of rows past their period").toEqual([]);
  });
});

describe("customers/redact leaves none of the customer's rows in any table", () => {
  it("deletes the customer's seeded row in every table, keeps the other customer's, and a replay is harmless", async () => {
    const row = await installShop();
    const shop = { shopId: row.id, domain: SHOP };
    const filters = await seedEverything(shop);
    for (const [model, f] of Object.entries(filters)) {
      expect(await table(model).count({ where: f.target }), `${model} seeded`).toBeGreaterThan(0);
    }
    // Shopify's payload: the phone as the customer typed it, the order id beyond 2^53.
    const raw = `{"shop_id":954889,"shop_domain":"${SHOP}","customer":{"id":${CUSTOMER_ID},"email":"target@example.com","phone":"+212 600-000003"},"orders_to_redact":[${ORDER_ID}]}`;
    for (let i = 0; i < 2; i++) {
      expect((await callRoute(customersRedact, signedWebhook("customers/redact", null, { rawBody: raw, webhookId: "redact-1" }))).status).toBe(200);
    }
    const left = [];
    for (const [model, f] of Object.entries(filters)) {
      if ((await table(model).count({ where: f.target })) > 0) left.push(model);
      expect(await table(model).count({ where: f.other }), `${model}: the other customer's rows stay`).toBeGreaterThan(0);
    }
    expect(left, "tables that kept the redacted customer's rows").toEqual([]);
  });
});

describe("customers/data_request reports everything the app keeps about the customer", () => {
  it("shows the customer's rows of every personal table, each held field, and nothing of another customer", async () => {
    const row = await installShop();
    const shop = { shopId: row.id, domain: SHOP };
    await seedEverything(shop);
    // A risk-scored COD order of the customer (score, band, reasons, value, the hashed browser IP).
    await prisma.orderRecord.update({
      where: { shopId_orderGid: { shopId: row.id, orderGid: gid(ORDER_ID) } },
      data: { riskScore: 72, riskBand: "high", riskReasons: JSON.stringify({ rule: null, reasons: [{ code: "phone_failed", points: 40, text: "Earlier orders refused" }] }), value: 1499 },
    });
    const raw = `{"shop_id":954889,"shop_domain":"${SHOP}","orders_requested":[${ORDER_ID}],"customer":{"id":${CUSTOMER_ID},"email":"target@example.com","phone":"+212 600-000003"},"data_request":{"id":4242}}`;
    expect((await callRoute(dataRequest, signedWebhook("customers/data_request", null, { rawBody: raw }))).status).toBe(200);
    const stored = await prisma.dataRequestReport.findUniqueOrThrow({ where: { shopId_requestKey: { shopId: row.id, requestKey: "dr:4242" } } });
    const report = JSON.parse(stored.report) as Record<string, Record<string, unknown>[]>;
    const missing: string[] = [];
    for (const m of personalModels) {
      if (m.customerRedact === null || !m.report) continue;
      const records = report[m.report.section] ?? [];
      if (!records.length) missing.push(`${m.name}: no records in ${m.report.section}`);
      for (const field of m.holds) {
        const key = m.report.as?.[field] ?? field;
        if (!records.some((r) => r[key] !== null && r[key] !== undefined)) missing.push(`${m.name}.${field} (${m.report.section}.${key})`);
      }
    }
    expect(missing, "what the app keeps but the report does not show").toEqual([]);
    // The admin's Data requests page draws one table per section it knows: each section above is one of them.
    const shown = new Set(REPORT_SECTIONS.map((section) => section.key));
    expect(personalModels.flatMap((m) => (m.report && !shown.has(m.report.section) ? [m.report.section] : []))).toEqual([]);
    expect(report.orders[0]).toMatchObject({ riskScore: 72, riskBand: "high", value: 1499, ipHash: "ip-target" });
    expect(report.lists).toEqual([{ list: "prepaid_only", phone: PHONE }]);
    expect(stored.report).not.toContain(OTHER.slice(1));
  });
});

describe("shop/redact leaves none of the shop's rows in any table that holds personal data", () => {
  it("empties every personal table of the shop and keeps another shop's rows", async () => {
    const a = await installShop();
    const b = await installShop({ domain: "other-shop.myshopify.com" });
    const shopA = { shopId: a.id, domain: SHOP };
    const shopB = { shopId: b.id, domain: b.domain };
    await seedEverything(shopA);
    await seedEverything(shopB, "9007199254740993077");
    for (const m of personalModels) expect(await table(m.name).count({ where: shopRows(m.name, shopA) }), `${m.name} seeded`).toBeGreaterThan(0);
    expect((await callRoute(uninstalled, signedWebhook("app/uninstalled", { domain: SHOP, myshopify_domain: SHOP }))).status).toBe(200);
    // Shopify sends shop/redact 48 hours after the uninstall; the app refuses it earlier.
    await prisma.shop.update({ where: { id: a.id }, data: { uninstalledAt: new Date(Date.now() - 49 * 3600_000) } });
    for (let i = 0; i < 2; i++) {
      expect((await callRoute(shopRedact, signedWebhook("shop/redact", { shop_id: 954889, shop_domain: SHOP }, { webhookId: "shop-redact-1" }))).status).toBe(200);
    }
    const left = [];
    for (const m of personalModels) {
      if ((await table(m.name).count({ where: shopRows(m.name, shopA) })) > 0) left.push(m.name);
      expect(await table(m.name).count({ where: shopRows(m.name, shopB) }), `${m.name}: the other shop's rows stay`).toBeGreaterThan(0);
    }
    expect(left, "tables that kept the redacted shop's rows").toEqual([]);
  });
});
