import fs from "node:fs";
import path from "node:path";
import { vi } from "vitest";
import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import { prisma } from "~/core/db.server";
import { clock } from "~/core/utils/clock.server";
import { planUsage } from "~/billing/plans.server";
import type { Shop } from "~/core/settings/shop.server";
import { USAGE_CHARGE } from "~/enforcement/allowance.server";
import type { Plan } from "~/shared/plans";
import type { FakeTwilio } from "../mocks/twilio";
import { callRoute, jsonOf, signedRequest } from "./proxy";

/**
 * The attacks of docs/security.md and docs/experiment.md, through the real send-otp and verify-otp routes
 * on the suite's database (SQLite or PostgreSQL), with the business clock stepped by the hour. Each
 * returns its measurements; the tests check them and that the docs' tables are their output
 * (`ATTACK_TABLE=1` prints the rows: `npm run attack:table`).
 */

export type SendAnswer = { status: number; body: Record<string, unknown> };

export async function sendFrom(phone: string, ip: string): Promise<SendAnswer> {
  const res = await callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone }, headers: { "x-forwarded-for": ip } }));
  return { status: res.status, body: await jsonOf(res) };
}

export async function verifyFrom(phone: string, otp: string, ip: string): Promise<number> {
  const res = await callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body: { phone, otp }, headers: { "x-forwarded-for": ip } }));
  return res.status;
}

/** What an answer told: a code sent, no code (codes off, held out, the cap's fallback), or a refusal. */
export function answerKind(a: SendAnswer): "code" | "no_code" | "cap_fallback" | "refused" {
  if (a.status !== 200) return "refused";
  if (a.body.reason === "cap_fallback") return "cap_fallback";
  return a.body.skipped ? "no_code" : "code";
}

/** The attacker's n-th network: a /24 of its own (100.64.0.0/10 and up, never a shopper's below). */
export const attackerIp = (network: number, host = 1) => `100.${64 + Math.floor(network / 256)}.${network % 256}.${host}`;
/** Numbers no shopper has, each in a block of its own (the number less its last 3 digits). */
export const attackerNumber = (i: number) => `+9170${String(10_000_000 + i * 1_009).padStart(8, "0")}`;

const START = Date.UTC(2026, 2, 2, 0, 5);

export type DrainResult = {
  networks: number;
  attempts: number;
  texts: number;
  /** Hours after the start when the shop's cap was spent (null: not that day). */
  capHour: number | null;
  /** Hours after the start when the drain watch first slowed a network (null: never). */
  slowedHour: number | null;
  shoppers: { code: number; capFallback: number; refused: number };
  /** Answers that were neither a code nor a refusal (5xx): none on a machine that keeps up. */
  failed: number;
};

/**
 * A drain of the shop's daily cap from `networks` /24s with numbers that never verify: each hour every
 * network sends new numbers until refused (with as many addresses in its /24 as it needs), and stops for
 * good once it sees the cap's fallback. Two real shoppers an hour, each on a network of their own, ask
 * for a code and confirm it. One UTC day.
 */
export async function drainDay(twilio: FakeTwilio, networks: number, options: { hours?: number; perHourCap?: number } = {}): Promise<DrainResult> {
  const hours = options.hours ?? 24;
  let attempts = 0;
  let next = 0;
  let capHour: number | null = null;
  let failed = 0;
  let slowedHour: number | null = null;
  const shoppers = { code: 0, capFallback: 0, refused: 0 };
  const done = new Set<number>();
  for (let hour = 0; hour < hours; hour++) {
    vi.spyOn(clock, "now").mockReturnValue(new Date(START + hour * 3_600_000));
    for (let n = 0; n < networks; n++) {
      if (done.has(n)) continue;
      for (let k = 0; k < (options.perHourCap ?? 100); k++) {
        attempts++;
        const answer = await sendFrom(attackerNumber(next++), attackerIp(n, (k % 250) + 1));
        const kind = answerKind(answer);
        if (kind === "code") continue;
        // A failure that is not a refusal (a text the provider did not take in time, on a loaded machine) is no answer: try the next number.
        if (answer.status >= 500) {
          failed++;
          continue;
        }
        if (kind === "cap_fallback") {
          capHour ??= hour;
          done.add(n);
        }
        break;
      }
    }
    if (slowedHour === null && (await refusedAt("spike")) > 0) slowedHour = hour;
    for (let s = 0; s < 2; s++) {
      const phone = `+9198${String(20_000_000 + hour * 10 + s).padStart(8, "0")}`;
      const ip = `203.0.${hour}.${s + 1}`;
      const answer = await sendFrom(phone, ip);
      const kind = answerKind(answer);
      if (kind === "code") {
        shoppers.code++;
        await verifyFrom(phone, twilio.codeFor(phone), ip);
      } else if (kind === "cap_fallback") shoppers.capFallback++;
      else shoppers.refused++;
    }
  }
  const texts = twilio.messages.filter((m) => m.to.startsWith("+9170")).length;
  return { networks, attempts, texts, capHour, slowedHour, shoppers, failed };
}

async function refusedAt(place: string): Promise<number> {
  const rows = await prisma.dailyStat.findMany({ where: { metric: "otp_refused", dimension: place } });
  return rows.reduce((sum, r) => sum + r.count, 0);
}

/** What a day of drain cost the merchant on its plan, read from the app's own counts. */
export type DrainBill = {
  plan: Plan;
  /** Verifications the drain added to the month's allowance (the day's counted ones less the real shoppers'). */
  allowanceUsed: number;
  /** Usage charges the day queued (each a verification past the allowance, at the plan's price per verification). */
  usageCharges: number;
};

/** The drain's bill: the month's counted verifications and the usage charges queued, measured after the day. */
export async function drainBill(shop: Pick<Shop, "id" | "subscriptionStatus" | "subscriptionPlan" | "timezone">, r: DrainResult): Promise<DrainBill> {
  const usage = await planUsage(shop, clock.now());
  const usageCharges = await prisma.job.count({ where: { kind: USAGE_CHARGE.kind } });
  return { plan: usage.plan!, allowanceUsed: usage.used - r.shoppers.code, usageCharges };
}

const dollars = (n: number) => `$${n.toFixed(2)}`;

/** A row of docs/security.md's drain table: a plan and a number of networks. */
export function drainRow(r: DrainResult, bill: DrainBill): string {
  const when = (h: number | null, none: string) => (h === null ? none : `hour ${h + 1}`);
  const { plan } = bill;
  const charges = `${dollars(bill.usageCharges * plan.overagePrice)} (${bill.usageCharges} charge${bill.usageCharges === 1 ? "" : "s"}${plan.overagePrice ? ` at ${dollars(plan.overagePrice)}` : ", none on this plan"})`;
  return `| ${plan.label} (${dollars(plan.price)} a month, ${plan.monthlyVerifications.toLocaleString("en-US")} verifications) | ${r.networks} | ${r.attempts} | ${r.texts} | ${when(r.slowedHour, "never")} | ${when(r.capHour, "not that day")} | ${bill.allowanceUsed} of ${plan.monthlyVerifications.toLocaleString("en-US")} | ${charges} | ${r.shoppers.code} codes, ${r.shoppers.capFallback} COD confirmed after purchase, ${r.shoppers.refused} refused |`;
}

/**
 * The body rows of the table in `doc` whose header row begins with `header`: what a test compares with
 * its output, so a row the run no longer makes fails as surely as a row it makes that the doc lacks.
 */
export function docTable(doc: string, header: string): string[] {
  const lines = fs.readFileSync(path.resolve(__dirname, "../../docs", doc), "utf8").split("\n").map((l) => l.trim());
  const at = lines.findIndex((l) => l.startsWith(header));
  if (at < 0) return [];
  const rows: string[] = [];
  for (let i = at + 2; i < lines.length && lines[i].startsWith("|"); i++) rows.push(lines[i]);
  return rows;
}

/** Prints a table's rows when asked (`ATTACK_TABLE=1`: `npm run attack:table`). */
export function printTable(rows: string[]): void {
  if (process.env.ATTACK_TABLE) console.log(`\n${rows.join("\n")}\n`);
}
