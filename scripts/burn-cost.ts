// `npm run cost:burn`: what it costs an attacker to pause a shop's verification by using up its monthly
// allowance with numbers that receive texts (docs/security.md prints its output). The app's own send and
// verify functions (app/otp/otp.server.ts, app/otp/verify.server.ts) run against a fresh SQLite database, with texts written to a
// local outbox the attacker reads its codes from, and the business clock moved day by day. Per plan, a
// shop whose real shoppers use the whole allowance over a month (its usual day: allowance / 30), attacked
// from the 2nd of the month (its real shoppers keep verifying at their usual rate meanwhile) by three attackers:
//   one IP        one address, a new receiving number per code
//   many networks a fresh /24 network whenever one is refused (a botnet or many proxies)
//   quiet         many networks, never more new numbers than the burn watch lets pass unseen (its day
//                 and month lines, real shoppers included)
// Each goes until send-otp answers 402 for a new number (verification paused) or the month ends (the
// allowance starts again on the 1st). Prints,
// per plan and attacker: the receiving numbers verified, the networks used, the days taken, the texts the
// operator paid for, and when the merchant was told (the burn notice). Asserts nothing.
//   npm run cost:burn [-- --plans free,starter]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { applyMigrations } from "../prisma/migrate.mjs";

const { values } = parseArgs({ options: { plans: { type: "string", default: "free,starter,pro,scale" } } });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cod-burn-cost-"));
const url = `file:${path.join(dir, "burn.db")}`;
Object.assign(process.env, { DATABASE_URL: url, LOG_LEVEL: "error", CACHE_TTL_SECONDS: "0", SMS_PROVIDER: "outbox", OUTBOX_DIR: dir, LOCAL_MODE: "true" });

await applyMigrations(url);
const { prisma } = await import("../app/core/db.server");
const { clock } = await import("../app/core/utils/clock.server");
const { sendVerificationCode } = await import("../app/otp/otp.server");
const { checkVerificationCode } = await import("../app/otp/verify.server");
const { PLANS } = await import("../app/shared/plans");
const { BURN_DAY_FLOOR, BURN_FACTOR, BURN_PACE } = await import("../app/enforcement/burn.server");

const outbox = path.join(dir, "outbox.jsonl");
const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 2, 8, 0, 0); // the 2nd of a 30-day month: 29 days to burn it in
const MONTH_END = Date.UTC(2026, 11, 1);
let now = START;
clock.now = () => new Date(now);

/** The code the last text carried (the outbox is emptied after each read, so it stays one line). */
function lastCode(): string {
  const text = fs.readFileSync(outbox, "utf8").trim().split("\n").pop() ?? "";
  fs.truncateSync(outbox, 0);
  const code = /\b(\d{6})\b/.exec(JSON.parse(text).body)?.[1];
  if (!code) throw new Error(`no code in the outbox: ${text}`);
  return code;
}

type Attacker = "one IP" | "many networks" | "quiet";
type Row = { plan: string; allowance: number; attacker: Attacker; numbers: number; networks: number; days: number; texts: number; toldOnDay: number | null; paused: boolean };

async function attack(planId: string, attacker: Attacker): Promise<Row> {
  const plan = PLANS.find((p) => p.id === planId)!;
  now = START;
  const shop = await prisma.shop.create({
    data: { domain: `${planId}-${attacker.replace(/ /g, "-")}.myshopify.com`, subscriptionStatus: "active", subscriptionPlan: plan.name, subscriptionId: "x" },
  });
  // The shop's real use: its allowance over a month, spread over the 28 days before the attack.
  const usual = plan.monthlyVerifications / 30;
  for (let d = 1; d <= 28; d++) {
    const day = new Date(START - d * DAY).toISOString().slice(0, 10);
    await prisma.dailyStat.create({ data: { shopId: shop.id, metric: "otp_verified", day, dimension: "", count: Math.round(usual * d) - Math.round(usual * (d - 1)) } });
  }
  const monthUsed = async () =>
    Number((await prisma.dailyStat.aggregate({ where: { shopId: shop.id, metric: "otp_verified", day: { gte: "2026-11-01" } }, _sum: { count: true } }))._sum.count ?? 0);
  // The real shoppers of a day: the usual day's verifications, counted as the app counts them.
  const realShoppers = async () => {
    const day = new Date(now).toISOString().slice(0, 10);
    const count = Math.round(usual * (Math.floor((now - START) / DAY) + 2)) - Math.round(usual * (Math.floor((now - START) / DAY) + 1));
    await prisma.dailyStat.upsert({
      where: { shopId_metric_day_dimension: { shopId: shop.id, metric: "otp_verified", day, dimension: "" } },
      create: { shopId: shop.id, metric: "otp_verified", day, dimension: "", count },
      update: { count: { increment: count } },
    });
  };
  // The quiet attacker's budget for a day: under the burn watch's day line and month line (app/enforcement/burn.server.ts).
  const quietBudget = async () => {
    const dayOfMonth = new Date(now).getUTCDate();
    const dayLine = Math.max(BURN_DAY_FLOOR - 1, Math.floor(BURN_FACTOR * usual)) - Math.round(usual);
    const monthLine = Math.floor(BURN_PACE * usual * dayOfMonth) - (await monthUsed());
    return Math.max(0, Math.min(dayLine, monthLine));
  };
  await realShoppers();
  let quietLeft = attacker === "quiet" ? await quietBudget() : Infinity;
  let numbers = 0;
  let texts = 0;
  let network = 0;
  let networksUsed = 1;
  let told: number | null = null;
  let paused = false;
  // The quiet attacker spends a network per number, so no network ever looks concentrated.
  const net = () => (attacker === "quiet" ? numbers : network);
  const ip = () => (attacker === "one IP" ? "100.64.0.9" : `${11 + Math.floor(net() / 250)}.${net() % 250}.0.9`);
  const nextDay = async () => {
    now = START + (Math.floor((now - START) / DAY) + 1) * DAY;
    if (now >= MONTH_END) return;
    await realShoppers();
    if (attacker === "quiet") quietLeft = await quietBudget();
  };
  while (now < MONTH_END) {
    if (quietLeft <= 0) {
      await nextDay();
      continue;
    }
    const current = await prisma.shop.findUniqueOrThrow({ where: { id: shop.id } });
    // A receiving number of its own (each in a block of its own: blocks are limited too).
    const phone = `+4479${String(10_000_000 + numbers * 1000).padStart(8, "0")}`;
    const sent = await sendVerificationCode({ shop: current, phone, ip: ip() });
    if (!sent.ok && sent.code === "plan_limit_reached") {
      paused = true;
      break;
    }
    if (!sent.ok && (sent.code === "rate_limited" || sent.code === "shop_daily_cap")) {
      if (attacker !== "one IP" && sent.code === "rate_limited") {
        network++;
        networksUsed++;
      } else await nextDay();
      continue;
    }
    if (!sent.ok || sent.skipped) throw new Error(`unexpected send outcome: ${JSON.stringify(sent)}`);
    texts++;
    const verified = await checkVerificationCode({ shop: current, phone, otp: lastCode(), ip: ip() });
    if (!verified.ok) throw new Error(`unexpected verify outcome: ${JSON.stringify(verified)}`);
    numbers++;
    quietLeft--;
    if (told === null && (await prisma.shop.findUniqueOrThrow({ where: { id: shop.id } })).burnMonth) told = Math.floor((now - START) / DAY) + 1;
    now += 1000;
  }
  const networks = attacker === "quiet" ? numbers : attacker === "one IP" ? 1 : networksUsed;
  return { plan: plan.label, allowance: plan.monthlyVerifications, attacker, numbers, networks, days: Math.min(29, Math.floor((now - START) / DAY) + 1), texts, toldOnDay: told, paused };
}

const rows: Row[] = [];
// The local outbox prints every text: quiet while the attackers run.
const print = console.log;
console.log = () => {};
for (const planId of values.plans!.split(",")) {
  for (const attacker of ["one IP", "many networks", "quiet"] as const) rows.push(await attack(planId.trim(), attacker));
}
console.log = print;
console.log("| plan | allowance | attacker | receiving numbers verified | networks (/24) | days | texts sent | merchant told | paused |");
console.log("|---|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  const told = r.toldOnDay === null ? "no" : `day ${r.toldOnDay}`;
  console.log(`| ${r.plan} | ${r.allowance} | ${r.attacker} | ${r.numbers} | ${r.networks} | ${r.paused ? r.days : `all ${r.days}`} | ${r.texts} | ${told} | ${r.paused ? "yes" : "no: the month ended first"} |`);
}
await prisma.$disconnect();
fs.rmSync(dir, { recursive: true, force: true });
