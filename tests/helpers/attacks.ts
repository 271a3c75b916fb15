import fs from "node:fs";
import path from "node:path";
import { vi } from "vitest";
import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import { prisma } from "~/core/db.server";
import { clock } from "~/core/utils/clock.server";
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
  return { networks, attempts, texts, capHour, slowedHour, shoppers };
}

async function refusedAt(place: string): Promise<number> {
  const rows = await prisma.dailyStat.findMany({ where: { metric: "otp_refused", dimension: place } });
  return rows.reduce((sum, r) => sum + r.count, 0);
}

/** A row of docs/security.md's drain table. */
export function drainRow(r: DrainResult): string {
  const when = (h: number | null, none: string) => (h === null ? none : `hour ${h + 1}`);
  return `| ${r.networks} | ${r.attempts} | ${r.texts} | ${when(r.slowedHour, "never")} | ${when(r.capHour, "not that day")} | ${r.shoppers.code} codes, ${r.shoppers.capFallback} COD confirmed after purchase, ${r.shoppers.refused} refused |`;
}

/** Prints rows when asked (`ATTACK_TABLE=1`), and says whether `doc` holds each one as a line. */
export function docHolds(doc: string, rows: string[]): string[] {
  if (process.env.ATTACK_TABLE) console.log(`\n${rows.join("\n")}\n`);
  const text = fs.readFileSync(path.resolve(__dirname, "../../docs", doc), "utf8");
  const lines = new Set(text.split("\n").map((l) => l.trim()));
  return rows.filter((row) => !lines.has(row));
}
