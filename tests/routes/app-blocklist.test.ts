import * as route from "~/routes/app.blocklist";
import { prisma } from "~/core/db.server";
import { BLOCKLIST_PAGE_SIZE } from "~/otp/blocklist.server";
import { adminRequest, callAdminRoute } from "../helpers/admin";
import { installShop } from "../helpers/shops";
import { clock } from "~/core/utils/clock.server";

/** The Blocked numbers page's loader and action, called as the embedded admin calls them (a session token). */
type Page = { blocked: { phone: string; reason: string | null }[]; total: number; page: number; pages: number; search: string };

const load = async (query = "") => callAdminRoute<Page>(route, await adminRequest(`/app/blocklist${query}`));
const post = async (form: Record<string, string>) => callAdminRoute<Record<string, unknown>>(route, await adminRequest("/app/blocklist", { form }));

describe("the Blocked numbers page", () => {
  it("blocks a number in its normalised form, refuses one that is not international with 422, and unblocks", async () => {
    const shop = await installShop();
    expect(await post({ intent: "block", phone: "+91 98123-45678", reason: "refused" })).toMatchObject({ status: 200, data: { intent: "block", ok: true, phone: "+919812345678" } });
    const refused = await post({ intent: "block", phone: "98123 45678" });
    expect(refused.status).toBe(422);
    expect(refused.data).toMatchObject({ ok: false, error: expect.stringContaining("international format") });
    expect(await prisma.blockedPhone.findMany({ where: { shopId: shop.id }, select: { phone: true, reason: true } })).toEqual([{ phone: "+919812345678", reason: "refused" }]);
    expect((await load()).data).toMatchObject({ total: 1, blocked: [{ phone: "+919812345678", reason: "refused" }] });
    expect(await post({ intent: "unblock", phone: "+919812345678" })).toMatchObject({ status: 200, data: { ok: true } });
    expect(await prisma.blockedPhone.count()).toBe(0);
  });

  it("imports a list: good lines blocked, numbers already blocked kept as they were, bad lines named by line number", async () => {
    const shop = await installShop();
    await post({ intent: "block", phone: "+14155550199", reason: "first" });
    const answer = await post({ intent: "import", list: "+971501234567\nnope\n+14155550199, second\n+919812345678", reason: "imported" });
    expect(answer).toMatchObject({ status: 200, data: { intent: "import", ok: true, added: 2, alreadyBlocked: 1, invalid: [{ line: 2, text: "nope" }] } });
    const rows = await prisma.blockedPhone.findMany({ where: { shopId: shop.id }, orderBy: { phone: "asc" } });
    expect(rows.map((r) => [r.phone, r.reason])).toEqual([
      ["+14155550199", "first"],
      ["+919812345678", "imported"],
      ["+971501234567", "imported"],
    ]);
  });

  it("says the day a number was blocked as the store reads it (its time zone), not the server's or the browser's", async () => {
    const shop = await installShop({ timezone: "Pacific/Kiritimati" });
    // 23:30 UTC on the 1st is already the 2nd at UTC+14.
    await prisma.blockedPhone.create({ data: { shopId: shop.id, phone: "+14155550123", createdAt: new Date("2026-11-01T23:30:00Z") } });
    expect((await load()).data!.blocked[0]).toMatchObject({ blockedOn: "Nov 2, 2026" });
  });

  it("blocks for a period the merchant chooses: the end is kept, shown in the store's time zone, and blocking again without one keeps it until unblocked", async () => {
    const shop = await installShop({ timezone: "Asia/Kolkata" });
    vi.spyOn(clock, "now").mockReturnValue(new Date("2026-11-01T20:00:00Z"));
    expect(await post({ intent: "block", phone: "+919812345678", forDays: "30" })).toMatchObject({ status: 200, data: { ok: true } });
    expect(await prisma.blockedPhone.findFirstOrThrow({ where: { shopId: shop.id } })).toMatchObject({ expiresAt: new Date("2026-12-01T20:00:00Z") });
    // 20:00 UTC is 01:30 the next day in Kolkata.
    expect((await load("?q=9812")).data!.blocked[0]).toMatchObject({ until: "Dec 2, 2026" });
    expect((await load()).data!.blocked[0]).toMatchObject({ until: "Dec 2, 2026" });
    expect((await post({ intent: "block", phone: "+919812345678", forDays: "7" })).status).toBe(400);
    await post({ intent: "block", phone: "+919812345678" });
    expect(await prisma.blockedPhone.findFirstOrThrow({ where: { shopId: shop.id } })).toMatchObject({ expiresAt: null });
    expect((await load()).data!.blocked[0]).toMatchObject({ until: null });
    vi.restoreAllMocks();
  });

  it("refuses an empty list and one over the line limit with 422, storing nothing", async () => {
    await installShop();
    const tooMany = Array.from({ length: 5001 }, (_, i) => `+1415555${String(i).padStart(4, "0")}`).join("\n");
    const refused = await post({ intent: "import", list: tooMany });
    expect(refused.status).toBe(422);
    expect(refused.data).toMatchObject({ ok: false, error: expect.stringContaining("5,001 lines") });
    expect((await post({ intent: "import", list: "\n \n" })).status).toBe(422);
    expect(await prisma.blockedPhone.count()).toBe(0);
  });

  it("answers a request it cannot read with 400 and changes nothing", async () => {
    await installShop();
    expect((await post({ intent: "wipe", phone: "+14155550199" })).status).toBe(400);
    expect((await post({ intent: "block" })).status).toBe(400);
    expect(await prisma.blockedPhone.count()).toBe(0);
  });

  it("searches by digits or reason and pages the list, newest first", async () => {
    const shop = await installShop();
    const base = Date.now();
    await prisma.blockedPhone.createMany({
      data: Array.from({ length: BLOCKLIST_PAGE_SIZE + 5 }, (_, i) => ({
        shopId: shop.id,
        phone: `+1415555${String(i).padStart(4, "0")}`,
        reason: i === 7 ? "chargeback" : null,
        createdAt: new Date(base - i * 1000),
      })),
    });
    const first = (await load()).data!;
    expect(first).toMatchObject({ total: BLOCKLIST_PAGE_SIZE + 5, page: 1, pages: 2 });
    expect(first.blocked).toHaveLength(BLOCKLIST_PAGE_SIZE);
    expect(first.blocked[0].phone).toBe("+14155550000");
    const second = (await load("?page=2")).data!;
    expect(second.blocked.map((b) => b.phone)).toEqual(["+14155550050", "+14155550051", "+14155550052", "+14155550053", "+14155550054"]);
    expect((await load("?page=99")).data).toMatchObject({ page: 2 });
    expect((await load("?q=555-0012")).data!.blocked.map((b) => b.phone)).toEqual(["+14155550012"]);
    expect((await load("?q=chargeback")).data!.blocked.map((b) => b.phone)).toEqual(["+14155550007"]);
  });

  it("finds a reason in any letter case on either engine, and takes % and _ in a search literally", async () => {
    const shop = await installShop();
    await prisma.blockedPhone.createMany({
      data: [
        { shopId: shop.id, phone: "+14155550101", reason: "Refused at the door" },
        { shopId: shop.id, phone: "+14155550102", reason: "100% fake" },
        { shopId: shop.id, phone: "+14155550103", reason: "fraud_ring" },
        { shopId: shop.id, phone: "+14155550104", reason: null },
      ],
    });
    const phones = async (q: string) => (await load(`?q=${encodeURIComponent(q)}`)).data!.blocked.map((b) => b.phone).sort();
    expect(await phones("REFUSED")).toEqual(["+14155550101"]);
    expect(await phones("refused AT")).toEqual(["+14155550101"]);
    expect(await phones("%")).toEqual(["+14155550102"]);
    expect(await phones("a_d")).toEqual([]); // as a wildcard it would match "fraud"
    expect(await phones("_ring")).toEqual(["+14155550103"]);
    expect(await phones("555010")).toEqual(["+14155550101", "+14155550102", "+14155550103", "+14155550104"]);
    const found = (await load("?q=fake")).data!;
    expect(found).toMatchObject({ total: 1, page: 1, pages: 1, blocked: [{ phone: "+14155550102", reason: "100% fake" }] });
  });

  it("refuses a request without a session token", async () => {
    await installShop();
    expect((await callAdminRoute(route, await adminRequest("/app/blocklist", { unauthenticated: true }))).status).toBe(302);
  });
});
