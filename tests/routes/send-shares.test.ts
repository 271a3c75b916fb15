import * as sendOtp from "~/routes/proxy.send-otp";
import { prisma } from "~/core/db.server";
import { log } from "~/core/utils/log.server";
import { shareLimit } from "~/otp/send-limits.server";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";

/**
 * One place cannot drain the shop's daily send cap (docs/security.md): an IP, its network (/24 for
 * IPv4, /48 for IPv6) and a block of numbers (the number less its last 3 digits) each get a share of
 * it in 24 hours; past that share the place is refused (429 rate_limited), everyone else still gets codes.
 */
const fake = useFakeTwilio();
const CAP = 1000;

function send(phone: string, ip?: string) {
  return callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone }, headers: ip ? { "x-forwarded-for": ip } : {} }));
}
/** n numbers, each in a block of its own. */
const spread = (n: number, base = 5_550_000) => Array.from({ length: n }, (_, i) => `+1415${String(base + i * 1000)}`);

beforeEach(async () => {
  await installShop({ dailySendCap: CAP, otpResendCooldownSeconds: 0 });
});

describe("a share of the daily cap per place", () => {
  it("no usable client IP (no X-Forwarded-For, an unreadable entry): one place held to an IP's share, said once in the log, counted", async () => {
    const warn = vi.spyOn(log, "warn");
    const limit = shareLimit("ip", CAP);
    const statuses: number[] = [];
    for (const [i, phone] of spread(limit + 4).entries()) statuses.push((await send(phone, i % 2 ? "not-an-ip" : undefined)).status);
    // Every request before the share ran out was let through (a 502 is a provider too slow on a busy machine: its hit stays counted).
    expect(statuses.slice(0, limit).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(limit)).toEqual([429, 429, 429, 429]);
    expect(warn.mock.calls.filter(([msg]) => String(msg).includes("no usable client IP"))).toHaveLength(1);
    const refused = await prisma.dailyStat.findMany({ where: { metric: "otp_refused" } });
    expect(refused.map((r) => [r.dimension, r.count])).toEqual([["ip", 4]]);
    // A shopper whose IP is readable is not held by it.
    expect((await send(spread(1, 8_500_000)[0], "198.51.100.20")).status).toBe(200);
    warn.mockRestore();
  });

  it("the limits are small shares of the cap, never below a floor a shopper needs", () => {
    expect(shareLimit("ip", 1000)).toBe(20);
    expect(shareLimit("network", 1000)).toBe(50);
    expect(shareLimit("block", 1000)).toBe(20);
    expect(shareLimit("ip", 50)).toBe(5);
    expect(shareLimit("network", 50)).toBe(10);
  });

  it("one IP: its share is sent, then it is refused with Retry-After, and another network is still served", async () => {
    const limit = shareLimit("ip", CAP);
    const phones = spread(limit + 3);
    const statuses: number[] = [];
    for (const phone of phones) statuses.push((await send(phone, "203.0.113.7")).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(limit);
    expect(statuses.slice(limit)).toEqual([429, 429, 429]);
    const refused = await send(spread(1, 7_000_000)[0], "203.0.113.7");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(86_000);
    expect(await jsonOf(refused)).toMatchObject({ code: "rate_limited", success: false });
    expect(fake.twilio.messages).toHaveLength(limit);
    expect((await send(spread(1, 8_000_000)[0], "198.51.100.20")).status).toBe(200);
  });

  it("concurrent sends from one IP: exactly its share is sent (one atomic counter, both engines)", async () => {
    const limit = shareLimit("ip", CAP);
    const responses = await Promise.all(spread(limit + 10).map((phone) => send(phone, "203.0.113.77")));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(limit);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(10);
    expect(fake.twilio.messages).toHaveLength(limit);
  });

  it("a /24 shared by many IPs: its share, then refused", async () => {
    const limit = shareLimit("network", CAP);
    const phones = spread(limit + 2);
    let sent = 0;
    for (const [i, phone] of phones.entries()) {
      const res = await send(phone, `203.0.113.${(i % 200) + 1}`);
      if (res.status === 200) sent++;
      else expect(await jsonOf(res)).toMatchObject({ code: "rate_limited" });
    }
    expect(sent).toBe(limit);
    expect((await send(spread(1, 9_000_000)[0], "203.0.113.250")).status).toBe(429);
  });

  it("an IPv6 /48: many addresses in it count as one network", async () => {
    const limit = shareLimit("network", CAP);
    let sent = 0;
    for (const [i, phone] of spread(limit + 2).entries()) {
      if ((await send(phone, `2001:db8:abcd:${(i % 60).toString(16)}::${i + 1}`)).status === 200) sent++;
    }
    expect(sent).toBe(limit);
    expect((await send(spread(1, 9_100_000)[0], "2001:db8:abce::1")).status).toBe(200);
  });

  it("one block of numbers from one network: its share, then that network is refused; the block's owners on other networks are not", async () => {
    const limit = shareLimit("block", CAP);
    const block = Array.from({ length: limit + 2 }, (_, i) => `+1415555${String(1000 + i)}`);
    const statuses: number[] = [];
    // One /24, many addresses (so the IP's own share is not what stops it).
    for (const [i, phone] of block.entries()) statuses.push((await send(phone, `198.51.100.${i + 1}`)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(limit);
    expect(statuses.slice(limit)).toEqual([429, 429]);
    // The block's real owners, from their own networks, still get their codes.
    for (const [i, owner] of ["+14155552001", "+14155552002", "+14155551001"].entries()) {
      expect((await send(owner, `192.0.${i + 2}.1`)).status).toBe(200);
    }
  });

  it("a shopper resending to one number from one IP is held by the per-number limit long before the IP's share", async () => {
    const [phone] = spread(1);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await send(phone, "203.0.113.9")).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    // The number's refusals did not eat the IP's share: the next shopper on that IP gets a code.
    expect((await send(spread(1, 6_000_000)[0], "203.0.113.9")).status).toBe(200);
  });
});
