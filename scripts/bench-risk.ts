// `npm run bench:risk` (also the last step of `npm run bench`): what the risk score adds to send-otp,
// verify-otp/create-checkout and orders/create, measured on the app's own functions
// (app/risk/assess.server.ts) against a fresh SQLite database holding a busy shop's history:
// 20,000 learnt outcomes over 4,000 phones and 400 postal codes, 20,000 COD order records. Each call is
// timed alone (performance.now), after a warm-up; prints p50, p99 and max in ms per call site. The
// budget is 2 ms at p99 (issue 20); measure on a quiet machine.
//   npm run bench:risk [-- --calls 3000] [--keep (the database stays, for EXPLAIN)]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { applyMigrations } from "../prisma/migrate.mjs";

const { values } = parseArgs({ options: { calls: { type: "string", default: "3000" }, keep: { type: "boolean", default: false } } });
const CALLS = Number(values.calls);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cod-bench-risk-"));
const url = `file:${path.join(dir, "bench.db")}`;
process.env.DATABASE_URL = url;
process.env.LOG_LEVEL = "error";
process.env.CACHE_TTL_SECONDS = "0";

await applyMigrations(url);
const { prisma } = await import("../app/core/db.server");
const { assessOrder, assessShopper, offerFor, orderIpHash } = await import("../app/risk/assess.server");
const { recalibrate, unusualHourFor } = await import("../app/risk/calibration.server");

const phone = (i: number) => `+9198${String(10_000_000 + (i % 4000)).padStart(8, "0")}`;
const zip = (i: number) => String(400_001 + (i % 400));
const shop = await prisma.shop.create({ data: { domain: "bench-risk.myshopify.com", riskPhoneCodeLimit: 5, riskIpAttemptLimit: 50, riskPhoneOrderLimit: 3, riskIpOrderLimit: 5 } });
const now = Date.now();
for (let batch = 0; batch < 20; batch++) {
  const rows = Array.from({ length: 1000 }, (_, k) => batch * 1000 + k);
  await prisma.orderOutcome.createMany({
    data: rows.map((i) => ({ shopId: shop.id, orderGid: `gid://shopify/Order/${i}`, phone: phone(i), postalCode: zip(i), outcome: i % 5 === 0 ? "failed" : "delivered", reason: i % 5 === 0 ? "cancelled" : "fulfilled", decidedAt: new Date(now - i * 60_000) })),
  });
  await prisma.orderRecord.createMany({
    data: rows.map((i) => ({ shopId: shop.id, orderGid: `gid://shopify/Order/${i}`, phone: phone(i), cod: true, status: i % 7 === 0 ? "unconfirmed" : "confirmed", placedAt: new Date(now - i * 60_000), value: 500 + (i % 97) * 10, ipHash: orderIpHash(shop.id, `203.0.113.${i % 250}`) })),
  });
}

function summary(name: string, ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)].toFixed(3);
  return `${name.padEnd(44)} p50 ${at(0.5).padStart(7)} ms   p99 ${at(0.99).padStart(7)} ms   max ${sorted[sorted.length - 1].toFixed(3).padStart(7)} ms`;
}

async function time(name: string, call: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 200; i++) await call(i); // warm-up: statements prepared, pages cached
  const ms: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    await call(i);
    ms.push(performance.now() - t);
  }
  return summary(name, ms);
}

// The recount keeps the shop's hours of day (unusual_hour) with its calibration; every call below reads both.
await recalibrate(shop.domain);
const priced = await prisma.shop.update({ where: { id: shop.id }, data: { timezone: "Asia/Kolkata", riskHighAction: "price", riskMediumAction: "confirm", codFailureCost: 150 } });
/** The storefront's whole risk step: the hour, the modal's readings, the score, and the offer priced from it. */
const storefront = async (i: number, input: Omit<Parameters<typeof assessShopper>[1], "phone" | "ip" | "behaviour">) => {
  const behaviour = { msToType: 20_000 + i, numbersTried: i % 3, unusualHour: unusualHourFor(priced, new Date()) };
  return offerFor(priced, await assessShopper(priced, { phone: phone(i * 7), ip: `203.0.113.${i % 250}`, behaviour, ...input }));
};
const address = (i: number) => ({ address1: "Flat 12, Shanti Apartments, MG Road", address2: "Near City Mall", city: "Mumbai", province: "Maharashtra", zip: zip(i), country_code: "IN" });
const lines = [
  await time("send-otp (no history; counts code and IP)", (i) => storefront(i, { withHistory: false, otpVerified: null, count: { code: true, ip: true } })),
  await time("verify-otp (the phone's history)", (i) => storefront(i, { withHistory: true, otpVerified: true, count: {} })),
  await time("create-checkout (history; counts the IP)", (i) => storefront(i, { withHistory: true, otpVerified: true, count: { ip: true } })),
  await time("orders/create (history, postal code and area, value)", (i) =>
    assessOrder(
      priced,
      {
        gid: `gid://shopify/Order/new-${i}`,
        placedAt: new Date(),
        phones: [phone(i * 7)],
        shippingAddress: address(i),
        value: 700,
        browserIp: `203.0.113.${i % 250}`,
      } as Parameters<typeof assessOrder>[1],
      true,
    ),
  ),
];
console.log(`risk scoring on SQLite, ${CALLS} calls each (20,000 outcomes, 20,000 order records; load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}):`);
for (const line of lines) console.log(`  ${line}`);
await prisma.$disconnect();
if (values.keep) console.log(`  database kept: ${url}`);
else fs.rmSync(dir, { recursive: true, force: true });
