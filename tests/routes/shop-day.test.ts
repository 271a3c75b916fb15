import * as sendOtp from "~/routes/proxy.send-otp";
import * as verifyOtp from "~/routes/proxy.verify-otp";
import { prisma } from "~/core/db.server";
import { clock } from "~/core/utils/clock.server";
import { planUsage } from "~/billing/plans.server";
import { verificationStatus } from "~/enforcement/pause.server";
import { shopDayStart } from "~/shared/shop-day";
import { callRoute, jsonOf, signedRequest } from "../helpers/proxy";
import { installShop } from "../helpers/shops";
import { useFakeTwilio } from "../helpers/twilio";

/**
 * A shop's day is the shop's, through the storefront's own requests: the daily cap's day and its
 * retryAfter, the daily counts' rows and the allowance's month all turn at the shop's midnight, in zones
 * from UTC-12:00 to UTC+14:00 with the quarter and half hours, on the night a month ends.
 */
const fake = useFakeTwilio();

const send = (phone: string) => callRoute(sendOtp, signedRequest("/send-otp", { method: "POST", body: { phone } }));
const verify = (phone: string) => callRoute(verifyOtp, signedRequest("/verify-otp", { method: "POST", body: { phone, otp: fake.twilio.codeFor(phone) } }));
const at = (ms: number) => vi.spyOn(clock, "now").mockReturnValue(new Date(ms));

const ZONES = ["Etc/GMT+12", "Pacific/Marquesas", "America/St_Johns", "America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Eucla", "Pacific/Chatham", "Pacific/Kiritimati"];

describe("the shop's midnight, not UTC's", () => {
  it.each(ZONES)("%s: a minute before the shop's 1 December, the cap is November 30's and says 60 s; a second after, December's day, month and cap", async (zone) => {
    const shop = await installShop({ timezone: zone, dailySendCap: 1, capFallback: "prepaid_only", otpResendCooldownSeconds: 0 });
    const midnight = shopDayStart("2026-12-01", zone).getTime();

    at(midnight - 60_000);
    expect((await send("+919876500001")).status).toBe(200);
    expect((await verify("+919876500001")).status).toBe(200);
    const refused = await send("+919876500002");
    expect(refused.status).toBe(429);
    expect(await jsonOf(refused)).toMatchObject({ code: "shop_daily_cap", retryAfter: 60 });
    expect((await planUsage(shop)).since).toBe("2026-11-01");
    expect(await verificationStatus(shop)).toMatchObject({ used: 1 });

    at(midnight + 1000);
    expect((await send("+919876500002")).status).toBe(200);
    expect((await verify("+919876500002")).status).toBe(200);
    // A new month: the allowance counts from the shop's 1 December, where only the new verification is.
    expect((await planUsage(shop)).since).toBe("2026-12-01");
    expect(await verificationStatus(shop)).toMatchObject({ used: 1 });

    const rows = await prisma.dailyStat.findMany({ where: { shopId: shop.id, metric: { in: ["otp_sent", "otp_verified"] } }, orderBy: [{ day: "asc" }, { metric: "asc" }] });
    expect(rows.map((r) => `${r.day} ${r.metric} ${r.count}`)).toEqual(["2026-11-30 otp_sent 1", "2026-11-30 otp_verified 1", "2026-12-01 otp_sent 1", "2026-12-01 otp_verified 1"]);
    const marks = await prisma.verifiedCustomer.findMany({ where: { shopId: shop.id }, orderBy: { phone: "asc" } });
    expect(marks.map((m) => m.countedMonth)).toEqual(["2026-11-01", "2026-12-01"]);
  });

  it("a shop whose zone is not known yet keeps UTC's days", async () => {
    await installShop({ dailySendCap: 1, capFallback: "prepaid_only", otpResendCooldownSeconds: 0 });
    at(Date.UTC(2026, 10, 30, 23, 59));
    expect((await send("+919876500001")).status).toBe(200);
    expect(await jsonOf(await send("+919876500002"))).toMatchObject({ code: "shop_daily_cap", retryAfter: 60 });
  });
});
